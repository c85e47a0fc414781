/**
 * The page's two commonest envelopes read without zod: `request` (every call the page makes) and
 * `subscribe` (every tab, at start and as it switches servers). Anything else is read by the zod
 * schemas of wire.ts, which the proxy loads on the first envelope of another type (hub.ts): a Loupe
 * whose page only lists and calls never builds them (about 1.6 MB of heap, issue 23). Each reader
 * applies the same rules as its schema (wire.test.ts holds them to it); what a reader does not
 * accept goes to zod, whose error then names what is wrong.
 */
import type { RequestMessage } from './request.ts';

/** `subscribe` as its schema in wire.ts infers it (kept here so this module needs no zod). */
export interface SubscribeMessage {
  type: 'subscribe';
  sessions: string[];
}

/** Read here; or not JSON; or `schemas`: only the zod schemas can say (the data is parsed already). */
export type QuickRead = { ok: true; message: RequestMessage | SubscribeMessage } | { ok: false; error: string } | { ok: 'schemas'; data: unknown };

const positiveOrAbsent = (value: unknown): boolean => value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0);

/**
 * `request` checked by hand, by the same rules as RequestMessageSchema: zod's parse of it cost about
 * 0.13 ms a call, a third of what Loupe adds to a round trip in bench/echo-latency.mjs (issue 10).
 */
export function readRequestMessage(data: Record<string, unknown>): RequestMessage | undefined {
  const { session, id, method, params, timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs } = data;
  if (typeof session !== 'string' || typeof id !== 'string' || typeof method !== 'string') return undefined;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return undefined;
  if (!positiveOrAbsent(timeoutMs) || !positiveOrAbsent(maxTotalTimeoutMs)) return undefined;
  if (resetTimeoutOnProgress !== undefined && typeof resetTimeoutOnProgress !== 'boolean') return undefined;
  const message: RequestMessage = { type: 'request', session, id, method };
  if (params !== undefined) message.params = params as Record<string, unknown>;
  if (timeoutMs !== undefined) message.timeoutMs = timeoutMs as number;
  if (resetTimeoutOnProgress !== undefined) message.resetTimeoutOnProgress = resetTimeoutOnProgress;
  if (maxTotalTimeoutMs !== undefined) message.maxTotalTimeoutMs = maxTotalTimeoutMs as number;
  return message;
}

/** `subscribe` checked by hand, by the same rules as SubscribeMessageSchema. */
export function readSubscribeMessage(data: Record<string, unknown>): SubscribeMessage | undefined {
  const { sessions } = data;
  if (!Array.isArray(sessions) || !sessions.every((s) => typeof s === 'string')) return undefined;
  return { type: 'subscribe', sessions: [...(sessions as string[])] };
}

/** Parses a page's envelope once and reads it if it is one of the two; else hands the data on. */
export function readClientText(text: string): QuickRead {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    const message = record.type === 'request' ? readRequestMessage(record) : record.type === 'subscribe' ? readSubscribeMessage(record) : undefined;
    if (message) return { ok: true, message };
  }
  return { ok: 'schemas', data };
}
