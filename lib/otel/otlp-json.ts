/**
 * OTLP/JSON (the OpenTelemetry Protocol's JSON mapping, opentelemetry-proto `ExportTraceServiceRequest`)
 * both ways: a session's spans written as an OTLP JSON file (the History's export), and a body or
 * file read into spans (the receiver's JSON, an imported OTLP file, a Tempo export: `batches` and
 * the older `instrumentationLibrarySpans` are read as `resourceSpans` and `scopeSpans`).
 * Ids may be hex (the JSON mapping) or base64 (protobuf's own JSON mapping); times nanoseconds as
 * strings or numbers. The draft MCP attribute names (`mcp.tool.name`, `mcp.request.id`) are read
 * as today's (`gen_ai.tool.name`, `jsonrpc.request.id`).
 */
import { isSpanId, isTraceId, type AttributeValue, type Attributes, type SpanData, type SpanEventData, type SpanKind } from './span.ts';

const KINDS: SpanKind[] = ['internal', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUS = ['unset', 'ok', 'error'] as const;
/** The names attributes had in earlier drafts of the MCP conventions, and their names now. */
export const DRAFT_NAMES: Record<string, string> = { 'mcp.tool.name': 'gen_ai.tool.name', 'mcp.request.id': 'jsonrpc.request.id' };
/** Spans read from one file or body at most: a bigger one is refused in words, not read slowly. */
export const MAX_SPANS = 20_000;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

// ---- writing ------------------------------------------------------------------------------

function anyValue(value: AttributeValue): Json {
  if (Array.isArray(value)) return { arrayValue: { values: value.map((v) => ({ stringValue: v })) } };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { stringValue: value };
}

const keyValues = (attributes: Attributes | undefined) => Object.entries(attributes ?? {}).map(([key, value]) => ({ key, value: anyValue(value) }));
const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

function spanJson(span: SpanData): Json {
  const out: Json = { traceId: span.traceId, spanId: span.spanId, name: span.name, kind: KINDS.indexOf(span.kind, 1), startTimeUnixNano: nanos(span.startMs), endTimeUnixNano: nanos(span.endMs), attributes: keyValues(span.attributes) };
  if (span.parentSpanId) out.parentSpanId = span.parentSpanId;
  if (span.traceState) out.traceState = span.traceState;
  if (span.events.length > 0) out.events = span.events.map((e) => ({ timeUnixNano: nanos(e.timeMs), name: e.name, attributes: keyValues(e.attributes) }));
  out.status = span.status.message ? { code: STATUS.indexOf(span.status.code), message: span.status.message } : { code: STATUS.indexOf(span.status.code) };
  return out;
}

/** Spans as one OTLP JSON `ExportTraceServiceRequest`, grouped by resource. */
export function toOtlpJson(spans: readonly SpanData[], scope = 'mcp-loupe'): Json {
  const byResource = new Map<string, { resource?: Attributes; spans: SpanData[] }>();
  for (const span of spans) {
    const key = JSON.stringify(span.resource ?? {});
    const group = byResource.get(key) ?? { resource: span.resource, spans: [] };
    group.spans.push(span);
    byResource.set(key, group);
  }
  return {
    resourceSpans: [...byResource.values()].map((group) => ({
      resource: { attributes: keyValues(group.resource) },
      scopeSpans: [{ scope: { name: scope }, spans: group.spans.map(spanJson) }],
    })),
  };
}

// ---- reading ------------------------------------------------------------------------------

function readValue(value: unknown): AttributeValue | undefined {
  const v = obj(value);
  if (!v) return undefined;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (typeof v.doubleValue === 'number') return v.doubleValue;
  const values = obj(v.arrayValue)?.values;
  if (Array.isArray(values)) return values.map((item) => String(readValue(item) ?? ''));
  return undefined;
}

export function readAttributes(list: unknown): Attributes {
  const out: Attributes = {};
  for (const item of arr(list)) {
    const kv = obj(item);
    if (!kv || typeof kv.key !== 'string') continue;
    const value = readValue(kv.value);
    if (value !== undefined) out[DRAFT_NAMES[kv.key] && !(DRAFT_NAMES[kv.key] in out) ? DRAFT_NAMES[kv.key] : kv.key] = value;
  }
  return out;
}

/** A hex id of `bytes` bytes, from hex or base64; undefined when it is neither. */
export function readId(value: unknown, bytes: 8 | 16): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const hex = value.toLowerCase();
  const valid = bytes === 16 ? isTraceId : isSpanId;
  if (valid(hex)) return hex;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  try {
    const binary = atob(value);
    if (binary.length !== bytes) return undefined;
    const out = [...binary].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
    return valid(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Nanoseconds (string or number) as milliseconds. */
function readNanos(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value / 1e6;
  if (typeof value !== 'string' || !/^\d{1,25}$/.test(value)) return undefined;
  const n = BigInt(value);
  return Number(n / 1000n) / 1000;
}

function readKind(value: unknown): SpanKind {
  if (typeof value === 'number') return KINDS[value] ?? 'internal';
  if (typeof value === 'string') return (KINDS.find((k) => value.toUpperCase() === `SPAN_KIND_${k.toUpperCase()}`) ?? 'internal');
  return 'internal';
}

function readStatus(value: unknown): SpanData['status'] {
  const s = obj(value);
  const raw = s?.code;
  const code = typeof raw === 'number' ? STATUS[raw] : typeof raw === 'string' ? STATUS.find((c) => raw.toUpperCase() === `STATUS_CODE_${c.toUpperCase()}`) : undefined;
  return typeof s?.message === 'string' && s.message !== '' ? { code: code ?? 'unset', message: s.message } : { code: code ?? 'unset' };
}

function readSpan(value: unknown, resource: Attributes, scope?: string): SpanData | undefined {
  const s = obj(value);
  const traceId = readId(s?.traceId, 16);
  const spanId = readId(s?.spanId, 8);
  const startMs = readNanos(s?.startTimeUnixNano);
  if (!s || !traceId || !spanId || startMs === undefined) return undefined;
  const events: SpanEventData[] = arr(s.events).flatMap((e) => {
    const ev = obj(e);
    const timeMs = readNanos(ev?.timeUnixNano);
    return ev && timeMs !== undefined ? [{ name: typeof ev.name === 'string' ? ev.name : '', timeMs, attributes: readAttributes(ev.attributes) }] : [];
  });
  const span: SpanData = { traceId, spanId, name: typeof s.name === 'string' ? s.name : '', kind: readKind(s.kind), startMs, endMs: Math.max(startMs, readNanos(s.endTimeUnixNano) ?? startMs), attributes: readAttributes(s.attributes), events, status: readStatus(s.status), resource };
  const parent = readId(s.parentSpanId, 8);
  if (parent) span.parentSpanId = parent;
  if (typeof s.traceState === 'string' && s.traceState !== '') span.traceState = s.traceState;
  if (scope) span.scope = scope;
  return span;
}

export type ReadSpans = { ok: true; spans: SpanData[]; skipped: number } | { ok: false; error: string };

/** An OTLP JSON export request (or a Tempo export) read into spans; spans without valid ids are skipped and counted. */
export function fromOtlpJson(value: unknown): ReadSpans {
  const root = obj(value);
  const groups = root ? (root.resourceSpans ?? root.batches) : undefined;
  if (!Array.isArray(groups)) return { ok: false, error: 'This is not OTLP JSON: it has no "resourceSpans" (or a Tempo export\'s "batches") list.' };
  const spans: SpanData[] = [];
  let skipped = 0;
  for (const group of groups) {
    const g = obj(group);
    const resource = readAttributes(obj(g?.resource)?.attributes);
    for (const scopeGroup of arr(g?.scopeSpans ?? g?.instrumentationLibrarySpans)) {
      const sg = obj(scopeGroup);
      const scope = obj(sg?.scope ?? sg?.instrumentationLibrary)?.name;
      for (const item of arr(sg?.spans)) {
        if (spans.length >= MAX_SPANS) return { ok: false, error: `It holds more than ${MAX_SPANS.toLocaleString('en')} spans; Loupe reads at most that many at once.` };
        const span = readSpan(item, resource, typeof scope === 'string' ? scope : undefined);
        if (span) spans.push(span);
        else skipped++;
      }
    }
  }
  return { ok: true, spans, skipped };
}
