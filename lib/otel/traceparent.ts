/**
 * W3C Trace Context in an MCP request's `params._meta` (SEP-414; the MCP semantic conventions'
 * "Context propagation"): `traceparent` and `tracestate` keys. Written by hand rather than with
 * `@opentelemetry/core`'s propagator: lib/ runs in the page too, and the SDK is only loaded when
 * tracing is on (the format is one line of the W3C spec).
 */
import { isSpanId, isTraceId, randomHex } from './span.ts';

export interface SpanContextData {
  traceId: string;
  spanId: string;
  sampled: boolean;
  traceState?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A `traceparent` header value read, or undefined when it is not one (version ff, zero ids). */
export function parseTraceparent(value: unknown, traceState?: unknown): SpanContextData | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!match || match[1] === 'ff' || !isTraceId(match[2]) || !isSpanId(match[3])) return undefined;
  const context: SpanContextData = { traceId: match[2], spanId: match[3], sampled: (parseInt(match[4], 16) & 1) === 1 };
  if (typeof traceState === 'string' && traceState.length > 0 && traceState.length <= 512) context.traceState = traceState;
  return context;
}

export function formatTraceparent(context: Pick<SpanContextData, 'traceId' | 'spanId' | 'sampled'>): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

/** A new root context: a fresh trace id and span id, sampled. */
export function newRootContext(): SpanContextData {
  return { traceId: randomHex(16), spanId: randomHex(8), sampled: true };
}

type Message = Record<string, unknown>;

function metaOf(message: unknown): Record<string, unknown> | undefined {
  if (message === null || typeof message !== 'object') return undefined;
  const params = (message as Message).params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const meta = (params as Message)._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
}

/** The context a JSON-RPC message carries in `params._meta`, if any. */
export function contextOf(message: unknown): SpanContextData | undefined {
  const meta = metaOf(message);
  return meta ? parseTraceparent(meta.traceparent, meta.tracestate) : undefined;
}

/**
 * The request with `traceparent` (and `tracestate`) in its `params._meta`, as a new object; the
 * message unchanged when it is not a request or already carries a `traceparent` (the sender's own
 * context wins). `params` that is not an object is left as it is: adding one would change the call.
 */
export function withTraceparent(message: unknown, context: SpanContextData): { message: unknown; stamped: boolean } {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return { message, stamped: false };
  const m = message as Message;
  if (typeof m.method !== 'string' || m.id === undefined || m.id === null) return { message, stamped: false };
  if (m.params !== undefined && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) return { message, stamped: false };
  const params = (m.params ?? {}) as Message;
  const meta = params._meta;
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return { message, stamped: false };
  if (meta && 'traceparent' in (meta as Message)) return { message, stamped: false };
  const added: Message = { ...(meta as Message | undefined), traceparent: formatTraceparent(context) };
  if (context.traceState) added.tracestate = context.traceState;
  return { message: { ...m, params: { ...params, _meta: added } }, stamped: true };
}
