/**
 * `Replay to view` (issue 24): the tool input and the tool result the view was given, as JSON to
 * edit (`Input to replay`, `Result to replay`: not "JSON" in their names, which the tool form's
 * `Tool input (JSON)` has), sent to it again (`ui/notifications/tool-input`, `tool-result`). An empty box sends
 * nothing of its kind; JSON that does not parse is said so, and nothing is sent.
 */
import { useId, useState, type ReactNode } from 'react';
import { formatJson } from '../../lib/json/safe-json.ts';
import { buttonClass, inputClass, labelClass } from '../ui/ui.tsx';

export interface ReplayProps {
  /** The call's arguments and result: the boxes' first text. */
  input: unknown;
  result: unknown;
  /** Why nothing can be sent now (the view has not initialized), or undefined. */
  cannotSendReason?: string;
  onSend(input: Record<string, unknown> | undefined, result: unknown): void;
}

type Read = { ok: true; value: unknown } | { ok: false; error: string };

function read(text: string, what: string): Read {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `The ${what} is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function Replay({ input, result, cannotSendReason, onSend }: ReplayProps): ReactNode {
  const [inputText, setInputText] = useState(() => formatJson(input ?? {}).text);
  const [resultText, setResultText] = useState(() => (result === undefined ? '' : formatJson(result).text));
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState(0);
  const ids = useId();
  const send = () => {
    const a = read(inputText, 'tool input');
    const b = read(resultText, 'tool result');
    const failed = !a.ok ? a.error : !b.ok ? b.error : a.value !== undefined && !isObject(a.value) ? 'The tool input must be a JSON object (the arguments by name).' : undefined;
    setError(failed);
    if (failed || !a.ok || !b.ok) return;
    onSend(a.value as Record<string, unknown> | undefined, b.value);
    setSent((n) => n + 1);
  };
  return (
    <fieldset className="min-w-0 space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <legend className="px-1 text-sm font-semibold">Replay to view</legend>
      <label className="block" htmlFor={`${ids}-input`}>
        <span className={labelClass}>Input to replay</span>
      </label>
      <textarea id={`${ids}-input`} className={`${inputClass} h-24 font-mono text-xs`} spellCheck={false} value={inputText} onChange={(e) => setInputText(e.target.value)} />
      <label className="block" htmlFor={`${ids}-result`}>
        <span className={labelClass}>Result to replay</span>
      </label>
      <textarea id={`${ids}-result`} className={`${inputClass} h-32 font-mono text-xs`} spellCheck={false} value={resultText} onChange={(e) => setResultText(e.target.value)} />
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonClass} disabled={cannotSendReason !== undefined} title={cannotSendReason} onClick={send}>
          Send to view
        </button>
        {cannotSendReason !== undefined && <span className="text-xs text-zinc-500 dark:text-zinc-400">{cannotSendReason}</span>}
        <span role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
          {sent > 0 && !error ? `Sent ${sent === 1 ? 'once' : `${sent} times`}.` : ''}
        </span>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </fieldset>
  );
}
