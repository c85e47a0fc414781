/**
 * The history row of an event that is neither a frame nor about one (row-index.ts builds the
 * frames' rows): an HTTP exchange, a stdout line that is not JSON-RPC, stderr, an exit, a transport
 * or sign-in event, an intervention, a model provider's exchange.
 */
import { eventKindLabel, summarise, type HistoryRow } from './trace.ts';
import type { FrameEvent, HttpEvent, TraceEvent } from '../wire/wire.ts';
import type { SpecEvent } from '../wire/events.ts';
import { firstLine } from '../content/text-lines.ts';

function httpRow(base: HistoryRow, event: HttpEvent): HistoryRow {
  const sse = event.contentType?.includes('text/event-stream') === true && event.status !== undefined && event.status < 300;
  const summary = `${sse ? 'SSE stream opened: ' : ''}${summarise(event)}${event.contentType ? ` (${event.contentType.split(';')[0]})` : ''}`;
  const httpSessionId = event.responseHeaders?.['mcp-session-id'] ?? event.requestHeaders['mcp-session-id'];
  const isError = event.error !== undefined || (event.status !== undefined && event.status >= 400);
  return { ...base, summary, latencyMs: event.durationMs, size: event.bodySize, httpSessionId, isError: isError || undefined };
}

/** A row for an event that is neither a frame nor about one. */
export function otherRow(event: Exclude<TraceEvent, FrameEvent | SpecEvent>): HistoryRow {
  const base: HistoryRow = { seq: event.seq, ts: event.ts, kind: eventKindLabel(event), event };
  switch (event.kind) {
    case 'http':
      return httpRow(base, event);
    case 'noise':
      return { ...base, dir: 'in', size: event.text.length, summary: event.text, violations: [{ code: 'stdout-noise', message: 'A line on stdout that is not JSON-RPC (stdout is reserved for protocol messages).' }] };
    case 'stderr':
      return { ...base, size: event.text.length, summary: firstLine(event.text) };
    case 'exit':
      return { ...base, summary: summarise(event), isError: event.code !== 0 || event.signal !== null || undefined };
    case 'transport':
      return { ...base, summary: summarise(event), isError: event.level === 'error' || undefined };
    case 'auth':
      return { ...base, summary: summarise(event), isError: event.status === 'failed' || undefined };
    case 'intervention':
      return { ...base, dir: event.dir, method: event.method, size: event.original.length, summary: summarise(event) };
    case 'spans':
      return { ...base, summary: summarise(event), isError: event.spans.some((s) => s.status.code === 'error') || undefined };
    case 'provider':
      return { ...base, summary: summarise(event), latencyMs: event.durationMs, size: event.responseBody.length, isError: event.error !== undefined || (event.status ?? 0) >= 400 || undefined };
  }
}
