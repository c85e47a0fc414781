import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER } from './filter.ts';
import { TraceIndex } from './row-index.ts';
import { compareMerged, filterMerged, indexOfMerged, mergeInto, mergeSorted, removeSessionRows, sortedRows } from './merge.ts';
import type { HistoryRow } from './trace.ts';
import type { FrameEvent } from '../wire/wire.ts';

function frame(session: string, seq: number, ts: number, rpc: FrameEvent['rpc'], message: Record<string, unknown>): FrameEvent {
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  return { session, seq, ts, kind: 'frame', dir: rpc === 'request' ? 'out' : 'in', raw, size: raw.length, rpc, method: message.method as string | undefined, id: message.id as FrameEvent['id'] };
}

/** One session's rows: a request and its response per call, at the given times. */
function rowsOf(session: string, times: number[]): HistoryRow[] {
  const events = times.map((ts, i) => (i % 2 === 0 ? frame(session, i + 1, ts, 'request', { id: i, method: 'tools/call' }) : frame(session, i + 1, ts, 'response', { id: i - 1, result: {} })));
  return TraceIndex.from(events).rows;
}

const keys = (rows: readonly HistoryRow[]) => rows.map((r) => `${r.event.session}:${r.seq}`);

describe('merged History order', () => {
  it('orders by time, then session, then seq', () => {
    const a = rowsOf('a', [1, 5, 5]);
    const b = rowsOf('b', [2, 5, 9]);
    const merged = mergeSorted(a, b);
    expect(keys(merged)).toEqual(['a:1', 'b:1', 'a:2', 'a:3', 'b:2', 'b:3']);
    for (let i = 1; i < merged.length; i += 1) expect(compareMerged(merged[i - 1], merged[i])).toBeLessThan(0);
  });

  it('merges a live batch into the tail it overlaps, in place, and appends one that is newer', () => {
    const into = mergeSorted(rowsOf('a', [1, 2, 3, 10]), []);
    const same = into;
    mergeInto(into, rowsOf('b', [4, 11]));
    expect(into).toBe(same);
    expect(keys(into)).toEqual(['a:1', 'a:2', 'a:3', 'b:1', 'a:4', 'b:2']);
    mergeInto(into, [rowsOf('c', [20])[0]]);
    expect(keys(into).at(-1)).toBe('c:1');
  });

  it('sorts a batch whose clock went backwards before merging it', () => {
    const batch = rowsOf('a', [5, 3]);
    expect(keys(sortedRows(batch))).toEqual(['a:2', 'a:1']);
    const into: HistoryRow[] = [];
    mergeInto(into, batch);
    expect(keys(into)).toEqual(['a:2', 'a:1']);
  });

  it('removes one session (all of it, or what its cap let go) in one pass', () => {
    const rows = mergeSorted(rowsOf('a', [1, 3, 5, 7]), rowsOf('b', [2, 4]));
    expect(removeSessionRows(rows, 'a', 3)).toBe(2);
    expect(keys(rows)).toEqual(['b:1', 'b:2', 'a:3', 'a:4']);
    expect(removeSessionRows(rows, 'b')).toBe(2);
    expect(keys(rows)).toEqual(['a:3', 'a:4']);
  });

  it('finds a row by its time, session and seq', () => {
    const rows = mergeSorted(rowsOf('a', [1, 3, 5]), rowsOf('b', [1, 3]));
    expect(indexOfMerged(rows, rows[3])).toBe(3);
    expect(indexOfMerged(rows, rowsOf('z', [99])[0])).toBe(-1);
    expect(indexOfMerged(rows, undefined)).toBe(-1);
  });
});

describe('filterMerged', () => {
  const rows = mergeSorted(rowsOf('a', [1, 3, 5, 7]), rowsOf('b', [2, 4]));

  it('narrows to the chosen servers and combines with the History filter', () => {
    expect(keys(filterMerged(rows, { filter: EMPTY_FILTER, sessions: ['b'] }, () => 0))).toEqual(['b:1', 'b:2']);
    expect(keys(filterMerged(rows, { filter: { ...EMPTY_FILTER, kinds: ['response'] }, sessions: ['a'] }, () => 0))).toEqual(['a:2', 'a:4']);
    expect(filterMerged(rows, { filter: EMPTY_FILTER, sessions: [] }, () => 0)).toHaveLength(6);
  });

  it('folds each response into its request, per session', () => {
    expect(keys(filterMerged(rows, { filter: { ...EMPTY_FILTER, fold: true }, sessions: [] }, () => 0))).toEqual(['a:1', 'b:1', 'a:3']);
  });
});
