/**
 * A Jaeger trace export (the JSON of Jaeger's UI "Download" and its `/api/traces` answers: `data`,
 * each trace's `spans` and `processes`) read into spans. Times are microseconds; the parent is the
 * first `CHILD_OF` reference; `span.kind`, `otel.status_code` and `error` tags say kind and status.
 */
import { DRAFT_NAMES, fromOtlpJson, MAX_SPANS, readId, type ReadSpans } from './otlp-json.ts';
import type { Attributes, SpanData, SpanKind } from './span.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const KINDS = new Set<SpanKind>(['internal', 'server', 'client', 'producer', 'consumer']);

function tags(list: unknown): Attributes {
  const out: Attributes = {};
  for (const item of arr(list)) {
    const tag = obj(item);
    if (!tag || typeof tag.key !== 'string') continue;
    const value = tag.value;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[DRAFT_NAMES[tag.key] ?? tag.key] = value;
  }
  return out;
}

/** Jaeger ids may be shorter than W3C's (64-bit trace ids): padded on the left. */
const padded = (value: unknown, bytes: 8 | 16) => (typeof value === 'string' && /^[0-9a-fA-F]+$/.test(value) ? readId(value.padStart(bytes * 2, '0'), bytes) : undefined);

function readSpan(value: unknown, processes: Json): SpanData | undefined {
  const s = obj(value);
  const traceId = padded(s?.traceID, 16);
  const spanId = padded(s?.spanID, 8);
  if (!s || !traceId || !spanId || typeof s.startTime !== 'number') return undefined;
  const attributes = tags(s.tags);
  const kindTag = attributes['span.kind'];
  const kind: SpanKind = typeof kindTag === 'string' && KINDS.has(kindTag as SpanKind) ? (kindTag as SpanKind) : 'internal';
  delete attributes['span.kind'];
  const failed = attributes.error === true || attributes['otel.status_code'] === 'ERROR';
  const message = attributes['otel.status_description'];
  const process = obj(processes[String(s.processID)]);
  const resource = tags(process?.tags);
  if (typeof process?.serviceName === 'string') resource['service.name'] = process.serviceName;
  const startMs = s.startTime / 1000;
  const span: SpanData = {
    traceId,
    spanId,
    name: typeof s.operationName === 'string' ? s.operationName : '',
    kind,
    startMs,
    endMs: startMs + (typeof s.duration === 'number' && s.duration > 0 ? s.duration / 1000 : 0),
    attributes,
    events: arr(s.logs).flatMap((log) => {
      const l = obj(log);
      if (!l || typeof l.timestamp !== 'number') return [];
      const fields = tags(l.fields);
      const name = typeof fields.event === 'string' ? fields.event : 'log';
      delete fields.event;
      return [{ name, timeMs: l.timestamp / 1000, attributes: fields }];
    }),
    status: failed ? (typeof message === 'string' ? { code: 'error', message } : { code: 'error' }) : { code: 'unset' },
    resource,
  };
  const parent = arr(s.references).map(obj).find((r) => r?.refType === 'CHILD_OF');
  const parentId = padded(parent?.spanID, 8);
  if (parentId) span.parentSpanId = parentId;
  return span;
}

export function fromJaegerJson(value: unknown): ReadSpans {
  const data = obj(value)?.data;
  if (!Array.isArray(data)) return { ok: false, error: 'This is not a Jaeger export: it has no "data" list of traces.' };
  const spans: SpanData[] = [];
  let skipped = 0;
  for (const trace of data) {
    const t = obj(trace);
    const processes = obj(t?.processes) ?? {};
    for (const item of arr(t?.spans)) {
      if (spans.length >= MAX_SPANS) return { ok: false, error: `It holds more than ${MAX_SPANS.toLocaleString('en')} spans; Loupe reads at most that many at once.` };
      const span = readSpan(item, processes);
      if (span) spans.push(span);
      else skipped++;
    }
  }
  return { ok: true, spans, skipped };
}

/** An imported file's text: OTLP JSON, a Tempo export or a Jaeger export, whichever it is. */
export function readSpanFile(text: string): ReadSpans {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'This file is not JSON: Loupe reads OTLP JSON, Tempo and Jaeger trace exports.' };
  }
  const root = obj(value);
  if (root && Array.isArray(root.data)) return fromJaegerJson(value);
  if (root && (Array.isArray(root.resourceSpans) || Array.isArray(root.batches))) return fromOtlpJson(value);
  return { ok: false, error: 'This JSON is neither OTLP (resourceSpans), a Tempo export (batches) nor a Jaeger export (data).' };
}
