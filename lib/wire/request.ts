/**
 * The hot path's message, `request` (every request the page makes), read by hand for
 * parseClientMessage in lib/wire/wire.ts; split out of wire.ts to keep that file small.
 */
import type { RequestMessage } from './wire.ts';

const positiveOrAbsent = (value: unknown): boolean => value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0);

/**
 * The hot path's message (every request the page makes) checked by hand, by the same rules as
 * RequestMessageSchema (wire.test.ts holds them to it): zod's parse of it cost about 0.13 ms a
 * call, a third of what Loupe adds to a round trip in bench/echo-latency.mjs (issue 10). Anything
 * it does not accept goes to zod, whose error then names what is wrong.
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
