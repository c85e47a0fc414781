/** What a request to a session comes back as, and the ids the tab gives its requests. */
import { stringifySafe } from '../../lib/json/safe-json.ts';
import type { LoupeError, RequestId, RpcError } from '../../lib/wire/wire.ts';

/**
 * The answer to one request: the proxy's response without its envelope fields. `rpcId` (the
 * JSON-RPC id it went out with) and `frameSeq` (the trace frame of the answer, when the proxy said)
 * find its frames in the History (issue 27: a test's `Show in History`).
 */
export type RequestOutcome =
  | { ok: true; result: unknown; durationMs: number; rpcId?: RequestId; frameSeq?: number }
  | { ok: false; error: RpcError | LoupeError; durationMs: number; rpcId?: RequestId };

/** Per-request timeouts (request envelope; absent = the proxy's defaults). */
export interface RequestOptions {
  timeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
}

export function localFailure(message: string, startedAt: number): RequestOutcome {
  return { ok: false, error: { code: 'NOT_CONNECTED', message }, durationMs: performance.now() - startedAt };
}

/** The compact JSON text the proxy will record for `message` (what the trace's frame will hold). */
export function rawText(message: Record<string, unknown>): string {
  return stringifySafe(message) ?? '{}';
}

export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
