import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER, filterRows, isNarrowing, narrows, unfold, type TraceFilter } from './filter.ts';
import { TraceIndex } from './row-index.ts';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';

let seq = 0;
function frame(dir: FrameEvent['dir'], rpc: FrameEvent['rpc'], message: Record<string, unknown>): FrameEvent {
  seq += 1;
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  const id = message.id as FrameEvent['id'];
  return { session: 's1', seq, ts: seq, kind: 'frame', dir, raw, size: raw.length, rpc, method: message.method as string | undefined, id };
}
function noise(text: string): TraceEvent {
  seq += 1;
  return { session: 's1', seq, ts: seq, kind: 'noise', text };
}

function sample() {
  seq = 0;
  return TraceIndex.from([
    frame('out', 'request', { id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'Needle' } } }),
    frame('in', 'response', { id: 1, result: { content: [{ type: 'text', text: 'Echo: Needle' }] } }),
    frame('in', 'notification', { method: 'notifications/message', params: { level: 'info', data: 'hello' } }),
    frame('out', 'request', { id: 2, method: 'resources/read', params: { uri: 'x://nope' } }),
    frame('in', 'error', { id: 2, error: { code: -32002, message: 'Resource not found' } }),
    noise('Server started'),
    frame('out', 'request', { id: 3, method: 'ping' }),
  ]);
}

const seqs = (rows: { seq: number }[]) => rows.map((r) => r.seq);
const f = (partial: Partial<TraceFilter>): TraceFilter => ({ ...EMPTY_FILTER, ...partial });

describe('filterRows', () => {
  const index = sample();

  it('passes everything with the empty filter', () => {
    expect(seqs(filterRows(index.rows, EMPTY_FILTER))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(isNarrowing(EMPTY_FILTER)).toBe(false);
    expect(isNarrowing(f({ fold: true }))).toBe(false);
  });
  it('filters by kind', () => {
    expect(seqs(filterRows(index.rows, f({ kinds: ['notification', 'stdout noise'] })))).toEqual([3, 6]);
  });
  it('filters by method; a response has its request\'s method', () => {
    expect(seqs(filterRows(index.rows, f({ methods: ['tools/call'] })))).toEqual([1, 2]);
  });
  it('filters by direction', () => {
    expect(seqs(filterRows(index.rows, f({ dir: 'out' })))).toEqual([1, 4, 7]);
  });
  it('finds text anywhere in the raw JSON, case-insensitively, and in noise', () => {
    expect(seqs(filterRows(index.rows, f({ text: 'needle' })))).toEqual([1, 2]);
    expect(seqs(filterRows(index.rows, f({ text: 'SERVER START' })))).toEqual([6]);
    expect(seqs(filterRows(index.rows, f({ text: '"level":"info"' })))).toEqual([3]);
    // The needle is literal text, not a pattern.
    expect(seqs(filterRows(index.rows, f({ text: 'x://nop.' })))).toEqual([]);
    expect(seqs(filterRows(index.rows, f({ text: '(' })))).toEqual([]);
  });
  it('shows errors only, and violations only', () => {
    expect(seqs(filterRows(index.rows, f({ errorsOnly: true })))).toEqual([5]);
    expect(seqs(filterRows(index.rows, f({ errorsOnly: true, fold: true })))).toEqual([4]);
    expect(seqs(filterRows(index.rows, f({ violationsOnly: true })))).toEqual([6]);
  });
  it('combines filters', () => {
    expect(seqs(filterRows(index.rows, f({ dir: 'in', text: 'needle' })))).toEqual([2]);
    expect(seqs(filterRows(index.rows, f({ dir: 'in', methods: ['resources/read'], errorsOnly: true })))).toEqual([5]);
  });
  it('folds responses into their requests; a folded request matches on its response', () => {
    expect(seqs(filterRows(index.rows, f({ fold: true })))).toEqual([1, 3, 4, 6, 7]);
    expect(seqs(filterRows(index.rows, f({ fold: true, text: 'Echo:' })))).toEqual([1]);
    expect(seqs(filterRows(index.rows, f({ fold: true, kinds: ['error'] })))).toEqual([4]);
    expect(seqs(unfold(filterRows(index.rows, f({ fold: true, text: 'echo:' }))))).toEqual([1, 2]);
  });
  it('does not fold a response whose request is no longer kept', () => {
    expect(seqs(filterRows(index.rows.slice(1), f({ fold: true }), 2))).toEqual([2, 3, 4, 6, 7]);
  });
});

describe('narrows', () => {
  it('holds when only the text grows', () => {
    expect(narrows(f({ text: 'ech' }), f({ text: 'echo' }))).toBe(true);
    expect(narrows(f({ text: 'echo' }), f({ text: 'ech' }))).toBe(false);
    expect(narrows(f({ text: 'e' }), f({ text: 'e', dir: 'in' }))).toBe(false);
  });
  it('gives the same rows as filtering everything', () => {
    const index = sample();
    const first = filterRows(index.rows, f({ text: 'e' }));
    expect(seqs(filterRows(first, f({ text: 'echo' })))).toEqual(seqs(filterRows(index.rows, f({ text: 'echo' }))));
  });
});
