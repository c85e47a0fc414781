/**
 * Span files in and out of the History (issue 28): an OTLP JSON, Tempo or Jaeger file imported as
 * a read-only trace (one `spans` row per trace, the waterfall in its detail), and a session
 * exported as OTLP JSON: its frames turned into spans the way the live exporter makes them, with
 * the spans servers sent Loupe beside them, every marked secret value masked.
 */
import type { TraceHeader } from '../trace/jsonl.ts';
import type { ImportedTrace } from '../trace/read-trace.ts';
import { secretScrubber } from '../trace/secret-mask.ts';
import type { TraceEvent } from '../wire/wire.ts';
import type { SessionInfo } from '../wire/wire.ts';
import { readSpanFile } from './jaeger.ts';
import { toOtlpJson } from './otlp-json.ts';
import { SpanBuilder } from './span-builder.ts';
import { maskSpan } from './mask.ts';
import type { SpanData } from './span.ts';

/** A span file as a read-only trace for the History; `session` names it. */
export function spansAsTrace(name: string, text: string, now = Date.now()): { ok: true; trace: ImportedTrace } | { ok: false; error: string } {
  const read = readSpanFile(text);
  if (!read.ok) return read;
  if (read.spans.length === 0) return { ok: false, error: 'It holds no span with a valid trace and span id.' };
  const byTrace = new Map<string, SpanData[]>();
  for (const span of read.spans) byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
  const groups = [...byTrace.values()].map((spans) => ({ spans, start: Math.min(...spans.map((s) => s.startMs)) })).sort((a, b) => a.start - b.start);
  const events: TraceEvent[] = groups.map((group, i) => ({ kind: 'spans', session: 'import', seq: i + 1, ts: group.start, source: 'import', spans: group.spans }));
  const session: TraceHeader['session'] = { id: 'import', name, config: { kind: 'stdio', name, command: name, args: [], env: {} }, status: 'disconnected', since: now };
  const header: TraceHeader = { format: 'mcp-loupe-trace', version: 1, exportedAt: new Date(now).toISOString(), exportedBy: 'an OpenTelemetry file', session, secrets: { env: [], headers: [], redactedInEvents: false }, stats: { kept: events.length, dropped: 0, exported: events.length } };
  const problems = read.skipped > 0 ? [{ line: 0, error: `${read.skipped} span(s) without a valid trace or span id were left out` }] : [];
  return { ok: true, trace: { header, events, problems, problemCount: problems.length } };
}

/** A session's events as one OTLP JSON export request (`values`: the secret values to mask). */
export function sessionAsOtlp(session: Pick<SessionInfo, 'name' | 'config' | 'relay'>, events: Iterable<TraceEvent>, values: readonly string[]): Record<string, unknown> {
  const spans: SpanData[] = [];
  const builder = new SpanBuilder({
    source: session.relay?.kind ?? 'loupe',
    transport: session.config.kind === 'stdio' ? 'stdio' : 'http',
    content: false,
    onSpan: (span) => spans.push(span),
    resource: { 'service.name': 'mcp-loupe', 'mcp_loupe.session': session.name },
  });
  let last = 0;
  for (const event of events) {
    last = Math.max(last, event.ts);
    if (event.kind === 'spans') spans.push(...event.spans);
    else builder.see(event);
  }
  builder.end(last);
  const scrub = secretScrubber(values, 'masked');
  return toOtlpJson(values.length > 0 ? spans.map((span) => maskSpan(span, scrub)) : spans);
}
