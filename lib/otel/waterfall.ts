/**
 * Spans laid out as a waterfall (issue 28): depth-first under their parents, siblings by start
 * time, each with its offset from the call that caused them (or from the earliest span) and its
 * share of the whole, for the History's table of a server's work. A span whose parent is not among
 * them is a root; a cycle (a malformed export) cannot loop: each span is placed once.
 */
import { spanKey, type SpanData } from './span.ts';
import type { TraceEvent } from '../wire/wire.ts';

export interface WaterfallRow {
  span: SpanData;
  depth: number;
  /** Milliseconds from the origin to the span's start. */
  offsetMs: number;
  durationMs: number;
  /** Where its bar starts and how wide it is, in percent of the whole. */
  left: number;
  width: number;
}

export function waterfall(spans: readonly SpanData[], originMs?: number): WaterfallRow[] {
  const unique = new Map<string, SpanData>();
  for (const span of spans) unique.set(spanKey(span), span);
  const all = [...unique.values()];
  if (all.length === 0) return [];
  const ids = new Set(all.map((s) => `${s.traceId}/${s.spanId}`));
  const children = new Map<string, SpanData[]>();
  const roots: SpanData[] = [];
  for (const span of all) {
    const parent = span.parentSpanId !== undefined ? `${span.traceId}/${span.parentSpanId}` : undefined;
    if (parent !== undefined && ids.has(parent)) children.set(parent, [...(children.get(parent) ?? []), span]);
    else roots.push(span);
  }
  const start = Math.min(originMs ?? Infinity, ...all.map((s) => s.startMs));
  const end = Math.max(...all.map((s) => s.endMs));
  const total = Math.max(end - start, 1e-3);
  const rows: WaterfallRow[] = [];
  const placed = new Set<string>();
  const byStart = (a: SpanData, b: SpanData) => a.startMs - b.startMs;
  const walk = (span: SpanData, depth: number) => {
    const key = spanKey(span);
    if (placed.has(key)) return;
    placed.add(key);
    const durationMs = Math.max(0, span.endMs - span.startMs);
    rows.push({ span, depth, offsetMs: span.startMs - start, durationMs, left: ((span.startMs - start) / total) * 100, width: Math.max((durationMs / total) * 100, 0.5) });
    for (const child of (children.get(key) ?? []).sort(byStart)) walk(child, depth + 1);
  };
  for (const root of roots.sort(byStart)) walk(root, 0);
  // What a cycle left unplaced, at the top level.
  for (const span of all.sort(byStart)) walk(span, 0);
  return rows;
}

/** The spans recorded for the frame `seq` (a server's, joined to it) or carried by the `spans` event `seq` itself. */
export function spansFor(events: Iterable<TraceEvent>, seqs: readonly number[]): SpanData[] {
  const out: SpanData[] = [];
  for (const event of events) {
    if (event.kind !== 'spans') continue;
    if ((event.of !== undefined && seqs.includes(event.of)) || seqs.includes(event.seq)) out.push(...event.spans);
  }
  return out;
}
