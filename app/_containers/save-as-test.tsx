'use client';
/**
 * `Save as test` (issue 27) on a History row (a request with its answer) and on the Tools tab's
 * Result: the call as a collection call, with the assertions lib/collections/propose.ts reads off
 * the actual answer (volatile fields left out as `--verify` leaves them), chosen in a small dialog
 * and kept in the workspace's collections (`set-collections`).
 */
import { useState, type ReactNode } from 'react';
import { SaveTestDialog } from '@/components/tests/save-test-dialog.tsx';
import { KIND_METHOD } from '@/components/tests/words.ts';
import { buttonClass } from '@/components/ui/ui.tsx';
import { Text } from '@/components/ui/text.tsx';
import { callFromHistory, proposeAssertions, uniqueName } from '../../lib/collections/propose.ts';
import type { Assertion, CollectionCall } from '../../lib/collections/schema.ts';
import type { PortOutcome } from '../../lib/collections/types.ts';
import { frameMessage } from '../../lib/trace/frame-message.ts';
import { indexOfSeq } from '../../lib/trace/filter.ts';
import type { TraceIndex } from '../../lib/trace/row-index.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { ToolCall } from '../_stores/call-store.ts';
import { addCall } from '../_stores/collection-edits.ts';
import { requestFrames } from '../_stores/request-frames.ts';
import { portOutcome } from '../_stores/session-call-port.ts';
import type { SessionModel } from '../_session/model.ts';
import { serverName } from './servers.tsx';
import { useCollections } from './tests.tsx';
import { useLoupeSelector, useSession, useSessionInfo } from '../_hooks/use-loupe.ts';

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

/** What is saved: the call (its name a proposal) and its answer as the runner would have seen it. */
interface Draft {
  call: CollectionCall;
  outcome: PortOutcome;
}

/** The collection chosen last in this tab: the next save goes there first. */
let lastCollection: string | undefined;

function outputSchemaOf(model: SessionModel, call: CollectionCall): unknown {
  if (call.kind !== 'tool') return undefined;
  return (model.tools.getSnapshot().items.find((t) => t.name === call.target)?.raw as { outputSchema?: unknown } | undefined)?.outputSchema;
}

/** A request of Loupe's to the server, answered: what `Save as test` is offered on. */
export function isSavable(row: HistoryRow): boolean {
  return row.event.kind === 'frame' && row.kind === 'request' && row.dir === 'out' && row.event.view === undefined && row.partner !== undefined && row.id !== undefined;
}

/** A History row that is a request with its answer, as a draft; undefined for any other row. */
export function draftOfRow(index: TraceIndex, row: HistoryRow, session: string): Draft | undefined {
  const partner = row.partner;
  if (!isSavable(row) || row.event.kind !== 'frame' || !partner || row.id === undefined) return undefined;
  const request = frameMessage(row.event) as { method?: unknown; params?: unknown } | undefined;
  const answer = partner.event.kind === 'frame' ? (frameMessage(partner.event) as { result?: unknown; error?: { code: number; message: string; data?: unknown } } | undefined) : undefined;
  if (typeof request?.method !== 'string' || !answer) return undefined;
  const rows = index.rows.slice(Math.max(0, indexOfSeq(index.rows, row.seq)), indexOfSeq(index.rows, partner.seq) + 1);
  const frames = requestFrames(rows.map((r) => r.event), row.id, row.seq);
  const ok = 'result' in answer;
  const outcome = portOutcome(session, ok ? { ok: true, result: answer.result, durationMs: row.latencyMs ?? 0 } : { ok: false, error: answer.error ?? { code: 0, message: 'no error object' }, durationMs: row.latencyMs ?? 0 }, frames, []);
  return { call: callFromHistory(request.method, request.params), outcome };
}

/** The Tools tab's latest call, once answered, as a draft. */
function draftOfCall(model: SessionModel, call: ToolCall): Draft | undefined {
  if (call.status !== 'done' || !call.outcome) return undefined;
  const frames = call.outcome.rpcId === undefined ? undefined : requestFrames(model.port.log.events, call.outcome.rpcId);
  const args = call.args !== null && typeof call.args === 'object' && !Array.isArray(call.args) ? (call.args as Record<string, unknown>) : {};
  return { call: callFromHistory('tools/call', { name: call.tool, arguments: args }), outcome: portOutcome(model.id, call.outcome, frames, []) };
}

function SaveAsTest({ draft }: { draft: () => Draft | undefined }): ReactNode {
  const model = useSession();
  const info = useSessionInfo();
  const servers = useLoupeSelector((s) => s.order.length);
  const { collections, current, apply } = useCollections();
  const [open, setOpen] = useState<{ draft: Draft; proposed: Assertion[] }>();
  const [saved, setSaved] = useState<string>();
  const server = info ? serverName(info) : 'server';
  const names = collections.map((c) => c.name);
  const collection = lastCollection !== undefined && names.includes(lastCollection) ? lastCollection : (names[0] ?? `${server} tests`);
  const start = () => {
    const d = draft();
    if (!d) return;
    setSaved(undefined);
    setOpen({ draft: d, proposed: proposeAssertions(d.call, d.outcome, { outputSchema: outputSchemaOf(model, d.call) }) });
  };
  const taken = (name: string) => collections.find((c) => c.name === name)?.calls.map((c) => c.name) ?? [];
  return (
    <>
      <button type="button" className={small} onClick={start}>Save as test</button>
      {saved && <span role="status" className="text-xs text-emerald-800 dark:text-emerald-300"><Text>{saved}</Text></span>}
      {open && (
        <SaveTestDialog
          what={open.draft.call.kind === 'request' ? open.draft.call.target : `${KIND_METHOD[open.draft.call.kind]} ${open.draft.call.target}`}
          collections={names}
          defaultCollection={collection}
          defaultName={uniqueName(open.draft.call.name, taken(collection))}
          proposed={open.proposed}
          onClose={() => setOpen(undefined)}
          onSave={(into, name, assertions) => {
            // In a workspace of several servers a new collection runs on the server it was made from.
            const why = apply(addCall(current(), into, { ...open.draft.call, name, ...(assertions.length > 0 ? { assert: assertions } : {}) }, servers > 1 ? server : undefined));
            if (why) return why;
            lastCollection = into;
            setOpen(undefined);
            setSaved(`Saved as ${name} in ${into} (Tests tab)`);
            return undefined;
          }}
        />
      )}
    </>
  );
}

/** `Save as test` beside a History row's frame: only for a request with its answer. */
export function SaveRowAsTest({ row, index }: { row: HistoryRow; index: TraceIndex }): ReactNode {
  const model = useSession();
  if (!isSavable(row)) return null;
  return <SaveAsTest key={row.seq} draft={() => draftOfRow(index, row, model.id)} />;
}

/** `Save as test` on the Tools tab's Result, once the call is answered. */
export function SaveResultAsTest({ call }: { call: ToolCall | undefined }): ReactNode {
  const model = useSession();
  if (!call || call.status !== 'done' || !call.outcome) return null;
  return <SaveAsTest key={call.id} draft={() => draftOfCall(model, call)} />;
}
