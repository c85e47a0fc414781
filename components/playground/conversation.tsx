/**
 * A Playground conversation as Think → Act → Observe (issue 15): after each user message, every
 * model call (a step) shows the model's text, its usage and latency and a link to the provider
 * exchange in History; each tool call it asked for names the tool, shows the arguments, waits for
 * Approve / Deny / Always for this tool when it has to, and links to its `tools/call` frame; its
 * result text follows, and under it the call's MCP Apps view when its tool has one (issue 24).
 * Failures are the loop's own sentences, shown where they happened.
 */
import type { ReactNode } from 'react';
import type { CallStatus, CallStep, LoopState, Turn } from '../../lib/playground/loop.ts';
import { callsOf, resultText, textOf, type Usage } from '../../lib/playground/types.ts';
import { Pre } from '../ui/text.tsx';
import { Badge, buttonClass, primaryButtonClass, type Tone } from '../ui/ui.tsx';

export interface ConversationProps {
  /** `Conversation` or `Conversation (second model)`. */
  label: string;
  /** The model's name, shown at the top. */
  model: string;
  loop: LoopState;
  /** The streamed reply of the step in flight so far. */
  streaming?: { text: string; calls: { name: string; arguments: string }[] };
  /** Which turns (by index) and calls (by the model's call id) can be shown in History. */
  hasExchange(turn: number): boolean;
  hasFrame(callId: string): boolean;
  onShowExchange(turn: number): void;
  onShowFrame(callId: string): void;
  onDecide(callId: string, decision: 'approve' | 'deny' | 'always'): void;
  /** The MCP Apps view of a call (by the model's call id), drawn under its Observe; nothing for a call without one. */
  viewOf?(callId: string): ReactNode;
}

const STATUS: Record<CallStatus, { words: string; tone: Tone }> = {
  'awaiting-approval': { words: 'Waiting for approval', tone: 'warn' },
  approved: { words: 'Approved', tone: 'info' },
  running: { words: 'Running', tone: 'info' },
  done: { words: 'Done', tone: 'good' },
  failed: { words: 'Failed', tone: 'bad' },
  denied: { words: 'Denied', tone: 'bad' },
  rejected: { words: 'Not made', tone: 'bad' },
  cancelled: { words: 'Cancelled', tone: 'warn' },
};

const APPROVED_BY = { user: 'by you', always: 'always for this tool', 'read-only': 'read-only tool', 'every-call': 'every call approved' } as const;

const link = 'text-xs text-sky-700 underline dark:text-sky-300';

export function usageWords(usage: Usage | undefined, latencyMs: number | undefined): string {
  const parts = [usage ? `${usage.inputTokens} in · ${usage.outputTokens} out tokens` : undefined, latencyMs !== undefined ? `${Math.round(latencyMs)} ms` : undefined];
  return parts.filter(Boolean).join(' · ');
}

/** The user messages and, after each, the turns it started (a turn of step 1 begins a new one). */
function rounds(loop: LoopState): { user: string; turns: { turn: Turn; index: number }[] }[] {
  const users = loop.messages.flatMap((m) => (m.role === 'user' ? [m.text] : []));
  const out = users.map((user) => ({ user, turns: [] as { turn: Turn; index: number }[] }));
  let at = -1;
  loop.turns.forEach((turn, index) => {
    if (turn.step === 1) at += 1;
    out[Math.max(0, Math.min(at, out.length - 1))]?.turns.push({ turn, index });
  });
  return out;
}

function CallView({ step, props }: { step: CallStep; props: ConversationProps }): ReactNode {
  const { call } = step;
  const status = STATUS[step.status];
  const view = step.result ? props.viewOf?.(call.id) : undefined;
  return (
    <li aria-label={`Act: ${call.name}`} className="rounded border border-zinc-200 p-2 dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Act</span>
        <code className="font-mono">{call.name}</code>
        {step.target && step.target.tool !== call.name && <span className="text-xs text-zinc-600 dark:text-zinc-300">({step.target.tool} on {step.target.server})</span>}
        <Badge tone={status.tone}>{status.words}{step.approvedBy ? `: ${APPROVED_BY[step.approvedBy]}` : ''}</Badge>
        {props.hasFrame(call.id) && (
          <button type="button" className={link} onClick={() => props.onShowFrame(call.id)}>tools/call in History</button>
        )}
      </div>
      <Pre className="mt-1 max-h-40 overflow-auto text-xs">{call.argumentsText.trim() === '' ? '{}' : call.argumentsText}</Pre>
      {step.status === 'awaiting-approval' && (
        <div role="group" aria-label={`Approve the call to ${call.name}?`} className="mt-2 flex flex-wrap gap-2">
          <button type="button" className={primaryButtonClass} onClick={() => props.onDecide(call.id, 'approve')}>Approve</button>
          <button type="button" className={buttonClass} onClick={() => props.onDecide(call.id, 'deny')}>Deny</button>
          <button type="button" className={buttonClass} onClick={() => props.onDecide(call.id, 'always')}>Always for this tool</button>
        </div>
      )}
      {step.problem && (!step.result || resultText(step.result) !== step.problem) && <p className="mt-1 text-sm text-red-800 dark:text-red-200">{step.problem}</p>}
      {step.result && (
        <div role="group" aria-label={`Observe: ${call.name}`} className="mt-2 border-l-2 border-zinc-300 pl-2 dark:border-zinc-600">
          <div className="text-sm font-medium">
            Observe <span className="font-normal text-zinc-600 dark:text-zinc-300">{step.result.isError ? '(an error result)' : `(what ${call.name} returned)`}</span>
          </div>
          <Pre mono={false} className="max-h-60 overflow-auto text-sm">{resultText(step.result) || '(no text)'}</Pre>
        </div>
      )}
      {view !== undefined && view !== null && <div className="mt-2">{view}</div>}
    </li>
  );
}

function TurnView({ turn, index, last, props }: { turn: Turn; index: number; last: boolean; props: ConversationProps }): ReactNode {
  const streamed = last && !turn.reply && !turn.error ? props.streaming : undefined;
  const text = turn.reply ? textOf(turn.reply.message) : (streamed?.text ?? '');
  const words = usageWords(turn.usage, turn.latencyMs);
  // A reply that asks for no tool ends the loop: it is the model's answer, not a step of thinking.
  const answer = turn.reply !== undefined && !turn.error && callsOf(turn.reply.message).length === 0;
  return (
    <li aria-label={answer ? `Answer (step ${turn.step})` : `Step ${turn.step}`} className="space-y-2">
      <div className={`rounded p-2 ${answer ? 'border border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950/60' : 'bg-zinc-50 dark:bg-zinc-800/60'}`}>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">{answer ? 'Answer' : 'Think'}</span>
          <span className="text-xs text-zinc-600 dark:text-zinc-300">step {turn.step}{words ? ` · ${words}` : ''}</span>
          {props.hasExchange(index) && (
            <button type="button" className={link} onClick={() => props.onShowExchange(index)}>Provider exchange in History</button>
          )}
        </div>
        {text && <Pre mono={false} className="mt-1 text-sm">{text}</Pre>}
        {!turn.reply && !turn.error && <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300" aria-live="polite">{streamed && streamed.calls.length > 0 ? `Writing a call to ${streamed.calls.map((c) => c.name).join(', ')}…` : 'Waiting for the model…'}</p>}
        {turn.error && <p className="mt-1 text-sm text-red-800 dark:text-red-200">{turn.error}</p>}
      </div>
      {turn.calls.length > 0 && <ul className="space-y-2 pl-3">{turn.calls.map((c) => <CallView key={c.call.id} step={c} props={props} />)}</ul>}
    </li>
  );
}

/** The tools a conversation's model called, in order, each once: what Compare sets side by side. */
export function toolsChosen(loop: LoopState): string[] {
  return [...new Set(loop.turns.flatMap((t) => (t.reply ? callsOf(t.reply.message).map((c) => c.name) : [])))];
}

export function ConversationView(props: ConversationProps): ReactNode {
  const { loop } = props;
  const all = rounds(loop);
  const chosen = toolsChosen(loop);
  const total = loop.turns.reduce((sum, t) => ({ inputTokens: sum.inputTokens + (t.usage?.inputTokens ?? 0), outputTokens: sum.outputTokens + (t.usage?.outputTokens ?? 0) }), { inputTokens: 0, outputTokens: 0 });
  return (
    <section aria-label={props.label} className="min-w-0 space-y-3 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold">{props.label}: <span className="font-mono font-normal">{props.model || 'no model chosen'}</span></h3>
        {loop.turns.length > 0 && <span className="text-xs text-zinc-600 dark:text-zinc-300">Total: {usageWords(total, undefined)}</span>}
      </div>
      {loop.turns.length > 0 && <p className="text-xs text-zinc-600 dark:text-zinc-300">Tools chosen: {chosen.length > 0 ? chosen.join(', ') : 'none'}</p>}
      {all.length === 0 && <p className="text-sm text-zinc-600 dark:text-zinc-300">Nothing sent yet: type a message and press Send.</p>}
      <ol className="space-y-3">
        {all.map((round, r) => (
          <li key={r} className="space-y-2">
            <div className="rounded bg-sky-50 p-2 text-sm dark:bg-sky-950">
              <span className="font-medium">You: </span>
              <span className="whitespace-pre-wrap">{round.user}</span>
            </div>
            <ol className="space-y-2">
              {round.turns.map(({ turn, index }) => <TurnView key={index} turn={turn} index={index} last={index === loop.turns.length - 1} props={props} />)}
            </ol>
          </li>
        ))}
      </ol>
      {loop.reason && (loop.status === 'done' || loop.status === 'stopped' || loop.status === 'failed') && (
        <p className={`text-sm ${loop.status === 'failed' ? 'text-red-800 dark:text-red-200' : 'text-zinc-700 dark:text-zinc-200'}`}>{loop.reason}</p>
      )}
    </section>
  );
}
