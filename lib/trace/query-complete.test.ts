import { describe, expect, it } from 'vitest';
import { completeQuery, queryValues } from './query-complete.ts';
import { TraceIndex } from './row-index.ts';
import type { FrameEvent } from '../wire/wire.ts';

const values = { method: ['initialize', 'tools/call', 'tools/list'], server: ['everything'], kind: ['request', 'response'], tool: ['echo', 'get sum'] };

describe('completeQuery', () => {
  it('completes field names as they are typed, keeping a negation', () => {
    expect(completeQuery('meth', 4, values)).toEqual({ from: 0, to: 4, items: [{ label: 'method:', detail: 'JSON-RPC method', insert: 'method:' }] });
    expect(completeQuery('x -st', 5, values).items.map((i) => i.insert)).toEqual(['-status:']);
    expect(completeQuery('', 0, values).items).toEqual([]);
    expect(completeQuery('', 0, values, true).items).toHaveLength(10);
  });
  it('completes the values present, quoting those with spaces', () => {
    expect(completeQuery('method:tools', 12, values).items.map((i) => i.insert)).toEqual(['method:tools/call ', 'method:tools/list ']);
    expect(completeQuery('method:list', 11, values).items.map((i) => i.label)).toEqual(['method:tools/list']);
    expect(completeQuery('tool:g', 6, values).items.map((i) => i.insert)).toEqual(['tool:"get sum" ']);
    expect(completeQuery('-status:', 8, values).items.map((i) => i.insert)).toEqual(['-status:ok ', '-status:error ', '-status:pending ']);
    expect(completeQuery('duration:', 9, values).items[0].insert).toBe('duration:>100ms ');
    expect(completeQuery('colour:', 7, values).items).toEqual([]);
  });
  it('finds the term under the caret, quotes included', () => {
    const text = '"a b" meth';
    expect(completeQuery(text, text.length, values)).toMatchObject({ from: 6, to: 10 });
  });
});

describe('queryValues', () => {
  it('collects kinds and the tools called', () => {
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } });
    const event: FrameEvent = { session: 's', seq: 1, ts: 1, kind: 'frame', dir: 'out', raw, size: raw.length, rpc: 'request', method: 'tools/call', id: 1 };
    const index = TraceIndex.from([event]);
    expect(queryValues(index.rows, ['tools/call'], ['b', 'a', 'a'])).toEqual({ method: ['tools/call'], server: ['a', 'b'], kind: ['request'], tool: ['echo'] });
  });
});
