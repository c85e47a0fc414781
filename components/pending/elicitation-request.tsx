/**
 * An `elicitation/create` request: a form generated from `requestedSchema` (form mode) or a URL to
 * open (URL mode), answered with Accept, Decline or Cancel.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import type { ElicitAction, ElicitationView } from '../../lib/client/elicitation.ts';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, buttonClass, Note, primaryButtonClass } from '../ui/ui.tsx';

/** rjsf and Ajv with the first form asked for (elicitation-form.tsx). */
const FormMode = lazy(() => import('./elicitation-form.tsx').then((m) => ({ default: m.ElicitationForm })));

export interface ElicitationProps {
  view: ElicitationView;
  busy: boolean;
  /** The server sent notifications/elicitation/complete for this (URL mode). */
  completed: boolean;
  onAnswer(action: ElicitAction, content?: Record<string, unknown>): void;
  onOpenUrl(url: string): void;
  onCopyUrl(url: string): void;
}

function Refuse({ busy, onAnswer }: Pick<ElicitationProps, 'busy' | 'onAnswer'>): ReactNode {
  return (
    <>
      <button type="button" className={buttonClass} disabled={busy} onClick={() => onAnswer('decline')}>Decline</button>
      <button type="button" className={buttonClass} disabled={busy} onClick={() => onAnswer('cancel')}>Cancel</button>
    </>
  );
}

function UrlMode({ view, busy, completed, onAnswer, onOpenUrl, onCopyUrl }: Omit<ElicitationProps, 'view'> & { view: Extract<ElicitationView, { mode: 'url' }> }): ReactNode {
  const facts = view.facts;
  return (
    <div className="space-y-2">
      <div className="rounded-md border border-amber-300 bg-amber-50 p-2 dark:border-amber-700 dark:bg-amber-950/40">
        <div className="text-[11px] font-semibold uppercase tracking-wide text-amber-900 dark:text-amber-200">The server asks you to open a page at</div>
        <div className="font-mono text-base font-bold" aria-label="URL origin"><Text>{facts?.origin ?? '(not a valid URL)'}</Text></div>
        <Pre className="mt-1 max-h-24 overflow-auto text-zinc-600 dark:text-zinc-300">{view.url}</Pre>
        {facts?.warnings.map((w, i) => <Note key={i} tone="warn">⚠ <Text>{w}</Text></Note>)}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <span>elicitationId</span><Text className="font-mono">{view.elicitationId}</Text>
        {completed && <Badge tone="good">the server reports it complete</Badge>}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass} disabled={!facts?.openable} onClick={() => onOpenUrl(view.url)}>Open URL</button>
        <button type="button" className={buttonClass} onClick={() => onCopyUrl(view.url)}>Copy URL</button>
        <button type="button" className={primaryButtonClass} disabled={busy} onClick={() => onAnswer('accept')}>Accept</button>
        <Refuse busy={busy} onAnswer={onAnswer} />
      </div>
    </div>
  );
}

export function ElicitationRequest(props: ElicitationProps): ReactNode {
  const { view } = props;
  return (
    <div className="space-y-2">
      {view.message !== '' && <Pre mono={false} className="text-sm font-medium">{view.message}</Pre>}
      {view.problems.map((p, i) => <Note key={i} tone="warn">⚠ <Text>{p}</Text></Note>)}
      {view.mode !== 'invalid' && view.task !== undefined && <Note>The server asked to run this as a task ({JSON.stringify(view.task)}): Loupe acknowledges it at once, and your answer becomes the task&apos;s result.</Note>}
      {view.mode === 'form' && <Suspense fallback={<p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the form…</p>}><FormMode view={view} busy={props.busy} onAnswer={props.onAnswer} refuse={<Refuse busy={props.busy} onAnswer={props.onAnswer} />} /></Suspense>}
      {view.mode === 'url' && <UrlMode {...props} view={view} />}
      {view.mode === 'invalid' && <div className="flex flex-wrap gap-2"><Refuse busy={props.busy} onAnswer={props.onAnswer} /></div>}
    </div>
  );
}
