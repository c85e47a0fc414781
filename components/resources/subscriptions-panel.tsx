/**
 * The Subscriptions region of the Notifications tab on a 2026-07-28 session: what to hear about
 * on the session's `subscriptions/listen` stream (list changes, updates of chosen resources),
 * `Listen` / `Stop listening`, and the stream's state as Loupe reports it. The stream replaces the
 * standalone GET stream and `resources/subscribe` of 2025; its notifications land in the list
 * below, from the trace, like any other.
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/subscriptions
 */
import { useId, useState, type ReactNode } from 'react';
import type { ListenState, SubscriptionFilter } from '../../lib/wire/base.ts';
import { draftFromFilter, filterFromDraft, isEmptyFilter, listenWords, type SubscriptionDraft } from '../connection/protocol-model.ts';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, labelClass, Note, primaryButtonClass } from '../ui/ui.tsx';

export interface SubscriptionsPanelProps {
  /** The stream as Loupe reports it (`session.listen`); absent: never opened. */
  listen?: ListenState;
  canListen: boolean;
  /** Why not (not connected, a read-only trace). */
  cannotReason?: string;
  /** What the server declared, to say when a choice is unlikely to be honoured. */
  declared: { tools: boolean; prompts: boolean; resources: boolean; subscribe: boolean };
  onListen(filter: SubscriptionFilter): void;
  onStop(): void;
  /** Set when the last message could not be sent. */
  problem?: string;
}

const TONE = { neutral: 'text-zinc-600 dark:text-zinc-300', good: 'text-emerald-700 dark:text-emerald-300', bad: 'text-red-700 dark:text-red-300' };

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange(on: boolean): void }): ReactNode {
  return (
    <label className="inline-flex items-center gap-1.5 text-sm text-zinc-700 dark:text-zinc-200">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** The server's own declarations that make a choice a long shot, in one sentence (or none). */
function undeclared(draft: SubscriptionDraft, declared: SubscriptionsPanelProps['declared']): string | undefined {
  const missing: string[] = [];
  if (draft.tools && !declared.tools) missing.push('tools.listChanged');
  if (draft.prompts && !declared.prompts) missing.push('prompts.listChanged');
  if (draft.resources && !declared.resources) missing.push('resources.listChanged');
  if (draft.uris.trim() !== '' && !declared.subscribe) missing.push('resources.subscribe');
  return missing.length === 0 ? undefined : `The server did not declare ${missing.join(', ')}; it may not honour that part.`;
}

export function SubscriptionsPanel({ listen, canListen, cannotReason, declared, onListen, onStop, problem }: SubscriptionsPanelProps): ReactNode {
  const id = useId();
  // Prefilled with what the open (or last) stream asked for, so a return to the tab shows it.
  const [draft, setDraft] = useState<SubscriptionDraft>(() => draftFromFilter(listen?.filter));
  const set = (patch: Partial<SubscriptionDraft>) => setDraft((old) => ({ ...old, ...patch }));
  const filter = filterFromDraft(draft);
  const active = listen?.state === 'opening' || listen?.state === 'open';
  const state = listenWords(listen);
  const caveat = undeclared(draft, declared);
  return (
    <section aria-label="Subscriptions" className="space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        Subscriptions <span className="font-mono normal-case">subscriptions/listen</span>
      </h3>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        <Check label="Tools list changes" checked={draft.tools} onChange={(tools) => set({ tools })} />
        <Check label="Prompts list changes" checked={draft.prompts} onChange={(prompts) => set({ prompts })} />
        <Check label="Resources list changes" checked={draft.resources} onChange={(resources) => set({ resources })} />
      </div>
      <div>
        <label htmlFor={`${id}-uris`} className={labelClass}>Resource URIs</label>
        <textarea id={`${id}-uris`} rows={2} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={draft.uris} placeholder="Updates of these resources: one URI per line, or comma separated" onChange={(e) => set({ uris: e.target.value })} />
      </div>
      {caveat && <Note tone="warn">{caveat}</Note>}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={primaryButtonClass} disabled={!canListen || isEmptyFilter(filter)} onClick={() => onListen(filter)}>Listen</button>
        <button type="button" className={buttonClass} disabled={!canListen || !active} onClick={onStop}>Stop listening</button>
        {!canListen && cannotReason && <span className="text-xs text-zinc-500 dark:text-zinc-400">{cannotReason}</span>}
        {canListen && active && <span className="text-xs text-zinc-500 dark:text-zinc-400">Listen again replaces the open stream.</span>}
      </div>
      {/* Server words can be in the error: React text only. */}
      <p role="status" aria-label="Listen state" className={`text-sm ${TONE[state.tone]}`}><Text>{state.text}</Text></p>
      {problem && <Note tone="bad">{problem}</Note>}
    </section>
  );
}
