/**
 * The raw composer: any JSON-RPC message, written by hand or taken from a frame ("Edit and
 * send"), sent on the session as is, and what came back. It sends anything that is a JSON object:
 * an inspector exists to see what a server does with the unexpected. On an HTTP session, extra
 * headers for that one POST too (a wrong `Mcp-Method`, a stray `Mcp-Session-Id`).
 */
import { useId, type ReactNode } from 'react';
import { formatJson, tooDeepNote } from '../../lib/json/safe-json.ts';
import { formatDuration } from '../../lib/trace/trace.ts';
import { Pre } from '../ui/text.tsx';
import { buttonClass, inputClass, Note, primaryButtonClass } from '../ui/ui.tsx';

export interface ComposerAnswer {
  ok: boolean;
  /** The result, or the error (a JSON-RPC error from the server, or Loupe's own). */
  value: unknown;
  durationMs: number;
}

export interface RawComposerProps {
  draft: string;
  /** `edited`: the draft came from frame `fromSeq`. */
  origin: 'edited' | 'composer';
  fromSeq?: number;
  problem?: string;
  sending: boolean;
  /** The last message sent (from here, or a replay), and whether an answer is expected. */
  sent?: { origin: 'replay' | 'edited' | 'composer'; fromSeq?: number; expectsAnswer: boolean; method?: string };
  answer?: ComposerAnswer;
  /** Where the sent frame and its answer are in the trace, once they are. */
  sentSeq?: number;
  answerSeq?: number;
  canSend: boolean;
  cannotSendReason?: string;
  onDraft(text: string): void;
  onSend(): void;
  onTemplate(kind: 'request' | 'notification'): void;
  onShowFrame(seq: number): void;
  /** HTTP sessions: the `HTTP headers` field (one `Name: value` a line); absent on stdio. */
  headers?: { text: string; onChange(text: string): void };
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

function Answer({ sent, answer, sending, sentSeq, answerSeq, onShowFrame }: Pick<RawComposerProps, 'sent' | 'answer' | 'sending' | 'sentSeq' | 'answerSeq' | 'onShowFrame'>): ReactNode {
  if (!sent) return null;
  const what = sent.origin === 'replay' ? `Replay of #${sent.fromSeq}` : sent.origin === 'edited' ? `Edited #${sent.fromSeq}` : 'Composed message';
  const links = (
    <span className="flex gap-1.5">
      {sentSeq !== undefined && <button type="button" className={small} onClick={() => onShowFrame(sentSeq)}>Show sent frame #{sentSeq}</button>}
      {answerSeq !== undefined && <button type="button" className={small} onClick={() => onShowFrame(answerSeq)}>Show answer frame #{answerSeq}</button>}
    </span>
  );
  let body: ReactNode;
  if (sending) body = <Note>Waiting for the server…</Note>;
  else if (!answer) body = null;
  else if (!sent.expectsAnswer && answer.ok) body = <Note>Sent (a notification has no answer).</Note>;
  else {
    body = (
      <>
        <p className={`text-xs font-medium ${answer.ok ? 'text-emerald-700 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}`}>
          {answer.ok ? 'Result' : 'Error'} after {formatDuration(answer.durationMs)}
        </p>
        <AnswerValue value={answer.value} />
      </>
    );
  }
  return (
    <section aria-label="Composer answer" className="mt-3 border-t border-zinc-200 pt-2 dark:border-zinc-700">
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-300">
        <span>{what}{sent.method ? ` (${sent.method})` : ''}</span>
        {links}
      </div>
      {body}
    </section>
  );
}

/** The answer as JSON; compact text, said so, when it is nested too deep to indent (issue 8). */
function AnswerValue({ value }: { value: unknown }): ReactNode {
  const { text, tooDeep } = formatJson(value);
  return (
    <>
      {tooDeep && <Note>{tooDeepNote()}</Note>}
      <Pre className="mt-1 max-h-64 overflow-auto rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">{text}</Pre>
    </>
  );
}

function HeadersField({ text, onChange }: { text: string; onChange(text: string): void }): ReactNode {
  const id = useId();
  return (
    <div className="mt-2">
      <label htmlFor={`${id}-headers`} className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-300">HTTP headers</label>
      <textarea id={`${id}-headers`} aria-describedby={`${id}-headers-hint`} rows={2} spellCheck={false} value={text} placeholder="Mcp-Method: tools/list" onChange={(e) => onChange(e.target.value)} className={`${inputClass} font-mono text-xs`} />
      <p id={`${id}-headers-hint`} className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
        One Name: value a line. They go on this one POST, over the transport&apos;s own headers: to see what the server does with a wrong Mcp-Method or a stray Mcp-Session-Id.
      </p>
    </div>
  );
}

export function RawComposer(props: RawComposerProps): ReactNode {
  const { draft, origin, fromSeq, problem, canSend, cannotSendReason, onDraft, onSend, onTemplate } = props;
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center gap-1.5 text-xs">
        <span className="text-zinc-600 dark:text-zinc-300">{origin === 'edited' ? `Editing frame #${fromSeq} (sent as "edited")` : 'Any JSON-RPC request or notification, any method'}</span>
        <span className="ml-auto flex gap-1.5">
          <button type="button" className={small} onClick={() => onTemplate('request')}>Request template</button>
          <button type="button" className={small} onClick={() => onTemplate('notification')}>Notification template</button>
        </span>
      </div>
      <textarea
        aria-label="JSON-RPC message"
        spellCheck={false}
        value={draft}
        onChange={(e) => onDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && canSend) onSend();
        }}
        rows={8}
        className={`${inputClass} font-mono text-xs`}
      />
      {props.headers && <HeadersField text={props.headers.text} onChange={props.headers.onChange} />}
      {problem && <Note tone="bad">{problem}</Note>}
      <div className="mt-2 flex items-center gap-2">
        <button type="button" className={primaryButtonClass} disabled={!canSend} onClick={onSend}>Send</button>
        {!canSend && cannotSendReason && <span className="text-xs text-zinc-500 dark:text-zinc-400">{cannotSendReason}</span>}
        <span className="text-xs text-zinc-500 dark:text-zinc-400">Ctrl+Enter sends</span>
      </div>
      <Answer {...props} />
    </div>
  );
}
