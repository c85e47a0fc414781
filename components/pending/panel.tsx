/**
 * Server→client requests waiting for the user, shown above every tab: a count, each request with
 * its age and the time left before Loupe answers it with an error, and how recent ones ended.
 * On a 2026-07-28 session the requests come embedded in a call's `input_required` result instead:
 * the card says which call asked (`via`), and is answered with the same forms.
 */
import { useState, type ReactNode } from 'react';
import type { ElicitAction, ElicitationView } from '../../lib/client/elicitation.ts';
import type { SamplingDraft, SamplingPreset, SamplingView } from '../../lib/client/sampling.ts';
import { formatAge } from '../../lib/client/server-requests.ts';
import type { RpcError, ServerRequest } from '../../lib/wire/wire.ts';
import { ElicitationRequest } from './elicitation-request.tsx';
import { SamplingAsk, type SamplingAskView } from './sampling-ask.tsx';
import { SamplingReply, type Suggestion } from './sampling-reply.tsx';
import { SamplingRequestView } from './sampling-request.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, buttonClass, Note, type Tone } from '../ui/ui.tsx';
import { useNow } from '../ui/use-now.ts';
import { formatJson } from '../../lib/json/safe-json.ts';

export type PendingAnswer = { ok: true; result: Record<string, unknown> } | { ok: false; error: RpcError };

export interface PendingItem {
  key: string;
  request: ServerRequest;
  /** Which server asked (shown when several sessions exist). */
  sessionLabel: string;
  view: { kind: 'sampling'; sampling: SamplingView } | { kind: 'elicitation'; elicitation: ElicitationView; completed: boolean } | { kind: 'other' };
  busy: boolean;
  error?: string;
  /** Where a request embedded in an `input_required` result came from, in one sentence (trace-rounds.ts viaSentence). */
  via?: string;
  /** A sampling request's `Ask model` (issue 15), and the model's answer for the reply editor. */
  ask?: SamplingAskView;
  suggestion?: Suggestion;
}

export interface RecentItem {
  key: string;
  method: string;
  sessionLabel: string;
  text: string;
  tone: Tone;
}

export interface PendingPanelProps {
  items: readonly PendingItem[];
  recent: readonly RecentItem[];
  presets: readonly SamplingPreset[];
  onRespond(item: PendingItem, answer: PendingAnswer): void;
  onSavePreset(name: string, draft: SamplingDraft): void;
  onRemovePreset(name: string): void;
  onOpenUrl(url: string): void;
  onCopyUrl(url: string): void;
  onAsk(item: PendingItem): void;
  onStopAsk(item: PendingItem): void;
  onOpenPlayground(): void;
  onShowExchange(item: PendingItem): void;
}

const TITLES = { sampling: 'Sampling request', elicitation: 'Elicitation request', other: 'Server request' } as const;

function Clock({ request, now }: { request: ServerRequest; now: number }): ReactNode {
  const left = request.deadline - now;
  return (
    <span className="text-xs text-zinc-500 dark:text-zinc-400">
      waiting <span data-testid="request-age">{formatAge(now - request.receivedAt)}</span>
      {' · '}
      <span className={left < 30_000 ? 'font-semibold text-red-700 dark:text-red-300' : ''}>
        {left > 0 ? `Loupe answers with an error in ${formatAge(left)}` : 'timing out…'}
      </span>
    </span>
  );
}

function Body({ item, props }: { item: PendingItem; props: PendingPanelProps }): ReactNode {
  const respond = (answer: PendingAnswer) => props.onRespond(item, answer);
  if (item.view.kind === 'sampling') {
    return (
      <div className="grid gap-3 xl:grid-cols-2">
        <SamplingRequestView view={item.view.sampling} />
        <div className="space-y-2">
        {item.ask && <SamplingAsk view={item.ask} busy={item.busy} onAsk={() => props.onAsk(item)} onStop={() => props.onStopAsk(item)} onOpenPlayground={props.onOpenPlayground} onShowExchange={() => props.onShowExchange(item)} />}
        <SamplingReply
          view={item.view.sampling}
          suggestion={item.suggestion}
          presets={props.presets}
          busy={item.busy}
          onSend={(result) => respond({ ok: true, result })}
          onReject={() => respond({ ok: false, error: { code: -1, message: 'User rejected sampling request' } })}
          onSavePreset={props.onSavePreset}
          onRemovePreset={props.onRemovePreset}
        />
        </div>
      </div>
    );
  }
  if (item.view.kind === 'elicitation') {
    const answer = (action: ElicitAction, content?: Record<string, unknown>) => respond({ ok: true, result: action === 'accept' && content ? { action, content } : { action } });
    return <ElicitationRequest view={item.view.elicitation} completed={item.view.completed} busy={item.busy} onAnswer={answer} onOpenUrl={props.onOpenUrl} onCopyUrl={props.onCopyUrl} />;
  }
  return (
    <div className="space-y-2">
      <Pre className="max-h-48 overflow-auto">{formatJson(item.request.params ?? {}).text}</Pre>
      <button type="button" className={buttonClass} disabled={item.busy} onClick={() => respond({ ok: false, error: { code: -32601, message: `Loupe does not handle ${item.request.method}` } })}>Answer with an error</button>
    </div>
  );
}

function Card({ item, now, props }: { item: PendingItem; now: number; props: PendingPanelProps }): ReactNode {
  const [open, setOpen] = useState(true);
  const title = TITLES[item.view.kind];
  return (
    <li>
      <section aria-label={`${title} ${item.request.requestId}`} className="rounded-md border border-amber-300 bg-white p-2 dark:border-amber-700 dark:bg-zinc-900">
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <h3 className="text-sm font-semibold">{title}</h3>
          <Text className="font-mono text-xs">{item.request.method}</Text>
          <span className="text-xs text-zinc-500 dark:text-zinc-400">from <Text>{item.sessionLabel}</Text> · id <Text className="font-mono">{JSON.stringify(item.request.rpcId)}</Text></span>
          <Clock request={item.request} now={now} />
          <button type="button" aria-expanded={open} className="ml-auto text-xs underline" onClick={() => setOpen(!open)}>{open ? 'Hide' : 'Show'}</button>
        </div>
        {item.via !== undefined && <p className="mb-1 text-xs text-zinc-700 dark:text-zinc-300"><Text>{item.via}</Text></p>}
        {item.error && <Note tone="bad"><Text>{item.error}</Text></Note>}
        {item.busy && <Note>Answer sent; waiting for Loupe to confirm…</Note>}
        {open && <Body item={item} props={props} />}
      </section>
    </li>
  );
}

function Recent({ recent }: { recent: readonly RecentItem[] }): ReactNode {
  return (
    <details className="mt-2 text-xs">
      <summary className="cursor-pointer text-zinc-600 dark:text-zinc-300">Recently finished ({recent.length})</summary>
      <ul aria-label="Recently finished requests" className="mt-1 space-y-0.5">
        {recent.map((r) => (
          <li key={r.key} className="flex flex-wrap items-center gap-1">
            <Badge tone={r.tone}><Text>{r.method}</Text></Badge>
            <Text>{r.sessionLabel}</Text>
            <span>— <Text>{r.text}</Text></span>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function PendingPanel(props: PendingPanelProps): ReactNode {
  const now = useNow(1_000, props.items.length > 0);
  const count = props.items.length;
  if (count === 0 && props.recent.length === 0) return null;
  const latest = props.recent[0];
  return (
    <section aria-label="Pending requests" className={`mb-3 rounded-lg border p-2 shadow-sm ${count > 0 ? 'border-amber-400 bg-amber-50/60 dark:border-amber-600 dark:bg-amber-950/30' : 'border-zinc-200 bg-white dark:border-zinc-700 dark:bg-zinc-900'}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">Pending requests</h2>
        <span role="status" aria-label={`${count} pending`} className={`rounded-full px-2 text-xs font-bold ${count > 0 ? 'bg-amber-500 text-white' : 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200'}`}>{count}</span>
        {count === 0 && latest && <span className="text-xs text-zinc-500 dark:text-zinc-400">last: <Text>{latest.method}</Text> — <Text>{latest.text}</Text></span>}
      </div>
      {count > 0 && (
        <ul className="mt-2 space-y-2">
          {props.items.map((item) => <Card key={item.key} item={item} now={now} props={props} />)}
        </ul>
      )}
      {props.recent.length > 0 && <Recent recent={props.recent} />}
    </section>
  );
}
