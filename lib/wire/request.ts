/**
 * The hot path's message, `request` (every request the page makes): its schema, and a reader by
 * hand for parseClientMessage in lib/wire/wire.ts, which composes it with the other envelopes.
 */
import { z } from 'zod';

/** An MCP request addressed to a session; `id` is the UI's own correlation id, not the JSON-RPC id. */
export const RequestMessageSchema = z.object({
  type: z.literal('request'),
  session: z.string(),
  id: z.string(),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  /** Milliseconds; default 60 000. */
  timeoutMs: z.number().positive().optional(),
  /** Restart the timeout whenever the server reports progress (default true). */
  resetTimeoutOnProgress: z.boolean().optional(),
  /** Hard cap in ms regardless of progress (default: none). */
  maxTotalTimeoutMs: z.number().positive().optional(),
});

export type RequestMessage = z.infer<typeof RequestMessageSchema>;

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
