/**
 * The hub's edges with the page (hub.ts): turning every outgoing message into text without ever
 * throwing, and reading what a page's `send-raw` and a server's progress carry without trusting
 * them (issue 8: nothing a server or a page sends may take the proxy down).
 */
import type { LoupeError, RequestId, RpcError, SendRawMessage, ServerMessage } from '../../../lib/wire/wire.ts';
import { stringifySafe } from '../../../lib/json/safe-json.ts';
import { rememberText } from '../../pipeline/frame-text.ts';

export type ResponseHead = { type: 'response'; id: string; session: string; durationMs: number; rpcId?: RequestId };

/**
 * Every message to the page goes through here. `stringifySafe` is JSON.stringify, with an
 * iterative fallback only when a value is too deep for it (lib/json/safe-json.ts). What still cannot be
 * sent (a string over V8's limit, say) becomes a plain error in its place, never an exception.
 */
export function serialise(message: ServerMessage): string {
  try {
    return stringifySafe(message) ?? '';
  } catch (error) {
    const problem: LoupeError = { code: 'INTERNAL', message: `Loupe could not send a ${message.type} message to the page: ${describeError(error)}.` };
    return JSON.stringify(message.type === 'response' ? { type: 'response', id: message.id, session: message.session, ok: false, error: problem, durationMs: message.durationMs } : { type: 'error', error: problem });
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function internalError(error: unknown): LoupeError {
  return { code: 'INTERNAL', message: `Loupe could not handle a message from the page (${describeError(error).slice(0, 300)}); the session goes on.` };
}

/** The message a `send-raw` asks for: its text parsed (kept, to be written exactly), or its object. */
export function rawMessageOf(message: SendRawMessage): { ok: true; message: Record<string, unknown> } | { ok: false; error: LoupeError } {
  if (message.text === undefined) {
    return message.message ? { ok: true, message: message.message } : { ok: false, error: { code: 'BAD_MESSAGE', message: 'A send-raw message needs "text" or "message".' } };
  }
  // Newlines in valid JSON are whitespace between tokens; stdio framing is one message per line.
  const text = message.text.replace(/[\r\n]+/g, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: { code: 'BAD_MESSAGE', message: `The message is not JSON: ${describeError(error).slice(0, 200)}` } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, error: { code: 'BAD_MESSAGE', message: 'A JSON-RPC message is one JSON object.' } };
  rememberText(parsed, text);
  return { ok: true, message: parsed as Record<string, unknown> };
}

export function asRequestId(value: unknown): RequestId | undefined {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
}

/** A JSON-RPC error (numeric code) or one of Loupe's (string code), each with a string message. */
export function isWireError(error: unknown): error is RpcError | LoupeError {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === 'number' || typeof code === 'string') && typeof message === 'string';
}

/**
 * What the server reported, typed as the page expects: a server may send anything in `total` and
 * `message`, and 1e400 (Infinity, which JSON cannot carry). Nothing to report without a finite progress.
 */
export function progressOf(p: { progress: number; total?: unknown; message?: unknown }): { progress: number; total?: number; message?: string } | undefined {
  if (!Number.isFinite(p.progress)) return undefined;
  return { progress: p.progress, total: typeof p.total === 'number' && Number.isFinite(p.total) ? p.total : undefined, message: typeof p.message === 'string' ? p.message : undefined };
}
