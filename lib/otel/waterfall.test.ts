import { describe, expect, it } from 'vitest';
import type { SpanData } from './span.ts';
import { spansFor, waterfall } from './waterfall.ts';
import type { TraceEvent } from '../wire/wire.ts';

const T = 'a'.repeat(32);
const span = (spanId: string, name: string, startMs: number, endMs: number, parentSpanId?: string): SpanData => ({ traceId: T, spanId: spanId.padStart(16, '0'), ...(parentSpanId ? { parentSpanId: parentSpanId.padStart(16, '0') } : {}), name, kind: 'internal', startMs, endMs, attributes: {}, events: [], status: { code: 'unset' } });

describe('the waterfall of a server’s spans', () => {
  it('puts children under their parent by start time, with offsets from the call and shares of the whole', () => {
    const rows = waterfall([span('3', 'fetch', 130, 160, '1'), span('1', 'tools/call forecast', 110, 170, 'f'), span('2', 'lookup', 112, 127, '1')], 100);
    expect(rows.map((r) => [r.span.name, r.depth, r.offsetMs, r.durationMs])).toEqual([
      ['tools/call forecast', 0, 10, 60],
      ['lookup', 1, 12, 15],
      ['fetch', 1, 30, 30],
    ]);
    expect(rows[0].left).toBeCloseTo(100 / 7);
    expect(rows[0].width).toBeCloseTo(600 / 7);
  });

  it('places every span once even when a malformed export makes a cycle, and ignores duplicates', () => {
    const rows = waterfall([span('1', 'a', 0, 1, '2'), span('2', 'b', 0, 1, '1'), span('1', 'a', 0, 1, '2')]);
    expect(rows.map((r) => r.span.name).sort()).toEqual(['a', 'b']);
  });

  it('finds the spans joined to a frame or carried by the selected spans row', () => {
    const events = [
      { kind: 'spans', session: 's1', seq: 5, ts: 1, source: 'server', of: 3, spans: [span('1', 'x', 0, 1)] },
      { kind: 'spans', session: 's1', seq: 6, ts: 1, source: 'import', spans: [span('2', 'y', 0, 1)] },
    ] as TraceEvent[];
    expect(spansFor(events, [3, 4]).map((s) => s.name)).toEqual(['x']);
    expect(spansFor(events, [6]).map((s) => s.name)).toEqual(['y']);
  });
});
