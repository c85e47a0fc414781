/**
 * `Ask model` on a pending sampling request (issue 15, item 5): which provider and model will
 * answer (the Playground's settings, with a way there to change them), the button, the model
 * chosen and why, what of the request the provider is not given, and the outcome in words. The
 * answer itself goes into the reply editor beside this; only the person's Send reply sends it.
 */
import type { ReactNode } from 'react';
import { Text } from '../ui/text.tsx';
import { buttonClass, Note } from '../ui/ui.tsx';

export interface SamplingAskView {
  /** Whether a model is set up in the Playground. */
  ready: boolean;
  /** Which endpoint, key and model Ask model uses, or that none is set up, in words. */
  setupWords: string;
  status?: 'asking' | 'answered' | 'failed';
  /** Which model answers and why. */
  choiceWords?: string;
  notes: readonly string[];
  error?: string;
  latencyMs?: number;
  /** The exchange is in History. */
  hasExchange: boolean;
}

export interface SamplingAskProps {
  view: SamplingAskView;
  /** The server is waiting on an answer already being sent. */
  busy: boolean;
  onAsk(): void;
  onStop(): void;
  onOpenPlayground(): void;
  onShowExchange(): void;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

export function SamplingAsk({ view, busy, onAsk, onStop, onOpenPlayground, onShowExchange }: SamplingAskProps): ReactNode {
  const asking = view.status === 'asking';
  return (
    <div role="group" aria-label="Ask a model" className="space-y-1 rounded-md border border-zinc-200 p-2 text-xs dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonClass} disabled={!view.ready || asking || busy} onClick={onAsk}>Ask model</button>
        {asking && <button type="button" className={small} onClick={onStop}>Stop</button>}
        <span className="min-w-0 flex-1 text-zinc-700 dark:text-zinc-300"><Text>{view.setupWords}</Text></span>
        <button type="button" className="underline" onClick={onOpenPlayground}>{view.ready ? 'Change in the Playground' : 'Set up in the Playground'}</button>
      </div>
      <div aria-live="polite" className="space-y-1">
        {asking && <p>Asking the model…</p>}
        {view.choiceWords && <p className="text-zinc-700 dark:text-zinc-300"><Text>{view.choiceWords}</Text></p>}
        {view.status === 'answered' && <p className="text-emerald-800 dark:text-emerald-300">The model’s answer is in the reply below{view.latencyMs !== undefined ? ` (${Math.round(view.latencyMs)} ms)` : ''}: check or edit it, then Send reply — or Reject.</p>}
        {view.error && <Note tone="bad"><Text>{view.error}</Text></Note>}
      </div>
      {view.notes.length > 0 && (
        <ul aria-label="How the request was mapped" className="list-disc pl-4 text-zinc-600 dark:text-zinc-300">
          {view.notes.map((note, i) => <li key={i}><Text>{note}</Text></li>)}
        </ul>
      )}
      {view.hasExchange && <button type="button" className={small} onClick={onShowExchange}>Provider exchange in History</button>}
    </div>
  );
}
