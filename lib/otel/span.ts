/**
 * One span as Loupe keeps it (issue 28): what the exporter hands the OpenTelemetry SDK, what the
 * receiver decodes a server's export into, what an imported OTLP or Jaeger file becomes, and what
 * the History's waterfall draws. Plain data, so that the page, the proxy and files share it.
 */

export type SpanKind = 'internal' | 'server' | 'client' | 'producer' | 'consumer';
export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanEventData {
  name: string;
  /** Wall-clock milliseconds since the epoch. */
  timeMs: number;
  attributes?: Attributes;
}

export interface SpanData {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  parentSpanId?: string;
  /** W3C tracestate, when one came with the context. */
  traceState?: string;
  name: string;
  kind: SpanKind;
  /** Wall-clock milliseconds since the epoch (sub-millisecond where known). */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: SpanEventData[];
  status: { code: 'unset' | 'ok' | 'error'; message?: string };
  /** The resource's attributes (service.name, the host's clientInfo …). */
  resource?: Attributes;
  /** The instrumentation scope that made it. */
  scope?: string;
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

export function isTraceId(value: unknown): value is string {
  return typeof value === 'string' && HEX32.test(value) && value !== '0'.repeat(32);
}

export function isSpanId(value: unknown): value is string {
  return typeof value === 'string' && HEX16.test(value) && value !== '0'.repeat(16);
}

/** Random lowercase hex of `bytes` bytes (Web Crypto: the page and Node 20 both have it). */
export function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  let out = '';
  for (const byte of buffer) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** A span's id within the History: `traceId/spanId`. */
export function spanKey(span: Pick<SpanData, 'traceId' | 'spanId'>): string {
  return `${span.traceId}/${span.spanId}`;
}
