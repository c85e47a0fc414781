import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER, filterRows, narrows, dependsOnPairing, type TraceFilter } from './filter.ts';
import { parseQuery, queryNarrows, queryRows, QUERY_FIELDS } from './query.ts';
import { TraceIndex } from './row-index.ts';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';

let seq = 0;
function frame(dir: FrameEvent['dir'], rpc: FrameEvent['rpc'], message: Record<string, unknown>, ts = seq + 1, session = 's1'): FrameEvent {
  seq += 1;
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  const id = message.id as FrameEvent['id'];
  return { session, seq, ts, kind: 'frame', dir, raw, size: raw.length, rpc, method: message.method as string | undefined, id };
}
function noise(text: string): TraceEvent {
  seq += 1;
  return { session: 's1', seq, ts: seq, kind: 'noise', text };
}

function sample() {
  seq = 0;
  return TraceIndex.from([
    frame('out', 'request', { id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'Needle' } } }, 1),
    frame('in', 'response', { id: 1, result: { content: [{ type: 'text', text: 'Echo: Needle' }] } }, 3),
    frame('in', 'notification', { method: 'notifications/message', params: { level: 'info', data: 'hello', count: 6 } }, 4),
    frame('out', 'request', { id: 2, method: 'resources/read', params: { uri: 'x://nope' } }, 5),
    frame('in', 'error', { id: 2, error: { code: -32002, message: 'Resource not found' } }, 1005),
    noise('Server started'),
    frame('out', 'request', { id: 3, method: 'tools/call', params: { name: 'add', arguments: { a: 'x'.repeat(3000) } } }, 1100),
    frame('in', 'response', { id: 3, result: { content: [], isError: true } }, 2200),
    frame('out', 'request', { id: 4, method: 'ping' }, 2300),
  ]);
}

const index = sample();
const seqs = (rows: readonly { seq: number }[]) => rows.map((r) => r.seq);
const q = (query: string) => seqs(queryRows(index.rows, query, { serverOf: () => 'everything' }));

describe('parseQuery', () => {
  it('reads fields, quoted text, negation and comparisons', () => {
    const { terms, error } = parseQuery('method:tools/call -status:error duration:>500ms "quoted text" size:<=1kb');
    expect(error).toBeUndefined();
    expect(terms.map((t) => ({ ...t, start: undefined, end: undefined }))).toEqual([
      { field: 'method', values: ['tools/call'], negate: false },
      { field: 'status', values: ['error'], negate: true },
      { field: 'duration', op: '>', amount: 500, negate: false },
      { field: 'text', value: 'quoted text', negate: false },
      { field: 'size', op: '<=', amount: 1024, negate: false },
    ].map((t) => ({ ...t, start: undefined, end: undefined })));
  });
  it('keeps the words outside a field as one phrase, as the text filter did', () => {
    expect(parseQuery('flood  12 of').terms).toMatchObject([{ field: 'text', value: 'flood  12 of' }]);
    expect(parseQuery('"count":6').terms).toMatchObject([{ field: 'text', value: '"count":6' }]);
    expect(parseQuery('-32601').terms).toMatchObject([{ field: 'text', value: '-32601', negate: false }]);
    expect(parseQuery('https://example.com/x').terms).toMatchObject([{ field: 'text', value: 'https://example.com/x' }]);
    expect(parseQuery('Error: not found').terms).toMatchObject([{ field: 'text', value: 'Error: not found' }]);
    expect(parseQuery('a method:x b').terms).toMatchObject([{ field: 'text', value: 'a' }, { field: 'method' }, { field: 'text', value: 'b' }]);
  });
  it('converts units: s to ms, kb and mb to bytes', () => {
    expect(parseQuery('duration:>=1.5s').terms[0]).toMatchObject({ op: '>=', amount: 1500 });
    expect(parseQuery('size:>1mb').terms[0]).toMatchObject({ op: '>', amount: 1024 * 1024 });
    expect(parseQuery('size:<2KB').terms[0]).toMatchObject({ op: '<', amount: 2048 });
    expect(parseQuery('duration:<20').terms[0]).toMatchObject({ op: '<', amount: 20 });
  });
  it('names an unknown field, the known ones and the position', () => {
    const { error, terms } = parseQuery('method:ping colour:red');
    expect(error?.message).toBe(`Unknown field "colour" at character 13: the fields are ${QUERY_FIELDS.join(', ')}. Put text with a colon in quotes to search for it: "colour:red"`);
    expect(error).toMatchObject({ start: 12, end: 18 });
    // The good terms still filter.
    expect(terms).toMatchObject([{ field: 'method', values: ['ping'] }]);
  });
  it('says what is wrong with a value, in plain words', () => {
    expect(parseQuery('status:broken').error?.message).toBe('status: is one of ok, error, pending, not "broken" (at character 1)');
    expect(parseQuery('dir:up').error?.message).toContain('dir: is one of in, out');
    expect(parseQuery('kind:frame').error?.message).toContain('"stdout noise"');
    expect(parseQuery('duration:500ms').error?.message).toBe('duration: takes a comparison and a number, as in duration:>500ms or duration:<=2s; got "500ms" (at character 1)');
    expect(parseQuery('size:>1gb').error?.message).toBe('size: knows the units b, kb, kib, mb, mib, not "gb" (at character 1)');
    expect(parseQuery('x method:').error?.message).toBe('method: needs a value (at character 3)');
    expect(parseQuery('"open').error?.message).toBe('This quote is not closed (at character 1)');
    expect(parseQuery('tool:"open').error?.message).toBe('The quote after tool: is not closed (at character 6)');
  });
});

describe('each field', () => {
  it('method, with lists and wildcards; a response has its request\'s method', () => {
    expect(q('method:tools/call')).toEqual([1, 2, 7, 8]);
    expect(q('method:ping,resources/read')).toEqual([4, 5, 9]);
    expect(q('method:notifications/*')).toEqual([3]);
  });
  it('status: ok, error (a request whose answer is one too), pending', () => {
    expect(q('status:error')).toEqual([4, 5, 7, 8]);
    expect(q('status:pending')).toEqual([9]);
    expect(q('status:ok kind:request')).toEqual([1]);
  });
  it('duration and size compare', () => {
    expect(q('duration:>500ms')).toEqual([4, 5, 7, 8]);
    expect(q('duration:>1s')).toEqual([7, 8]);
    expect(q('duration:<=2ms')).toEqual([1, 2]);
    expect(q('size:>2kb')).toEqual([7]);
  });
  it('dir, kind (noise for stdout noise), id, server', () => {
    expect(q('dir:out')).toEqual([1, 4, 7, 9]);
    expect(q('kind:notification')).toEqual([3]);
    expect(q('kind:noise')).toEqual([6]);
    expect(q('kind:"stdout noise"')).toEqual([6]);
    expect(q('id:2')).toEqual([4, 5]);
    expect(q('server:everything kind:error')).toEqual([5]);
    expect(q('server:other')).toEqual([]);
    expect(q('server:every*')).toHaveLength(9);
  });
  it('tool: the tool, prompt or URI of a call and of its answer', () => {
    expect(q('tool:echo')).toEqual([1, 2]);
    expect(q('tool:x://nope')).toEqual([4, 5]);
  });
  it('text: quoted, bare or as a field, case-insensitive', () => {
    expect(q('"needle"')).toEqual([1, 2]);
    expect(q('text:NEEDLE')).toEqual([1, 2]);
    expect(q('"count":6')).toEqual([3]);
    expect(q('Server started')).toEqual([6]);
  });
  it('negation of a field and of a quoted text', () => {
    expect(q('method:tools/call -status:error')).toEqual([1, 2]);
    expect(q('-"needle" method:tools/call')).toEqual([7, 8]);
    expect(q('-duration:>500ms kind:request')).toEqual([1, 9]);
  });
});

describe('with the History filter', () => {
  const f = (partial: Partial<TraceFilter>): TraceFilter => ({ ...EMPTY_FILTER, ...partial });
  it('"text" finds what the text filter finds', () => {
    for (const needle of ['needle', 'Echo: Needle', '"level":"info"', 'x://nop.', '(', 'SERVER START', 'tools/call', '-32002', 'resource']) {
      const quoted = `"${needle.replace(/["\\]/g, '\\$&')}"`;
      expect(seqs(filterRows(index.rows, f({ query: quoted }))), needle).toEqual(seqs(filterRows(index.rows, f({ text: needle }))));
      expect(seqs(filterRows(index.rows, f({ query: needle }))), needle).toEqual(seqs(filterRows(index.rows, f({ text: needle }))));
    }
  });
  it('is one more condition beside the controls', () => {
    expect(seqs(filterRows(index.rows, f({ dir: 'in', query: 'method:tools/call' })))).toEqual([2, 8]);
    expect(seqs(filterRows(index.rows, f({ fold: true, query: 'status:error method:tools/call' })))).toEqual([7]);
  });
  it('narrows when a term is added or a text extended, and depends on pairing with status or duration', () => {
    expect(queryNarrows('method:ping', 'method:ping "x"')).toBe(true);
    expect(queryNarrows('"flo"', '"flood"')).toBe(true);
    expect(queryNarrows('duration:>5', 'duration:>50')).toBe(false);
    expect(queryNarrows('-"a"', '-"ab"')).toBe(false);
    expect(narrows(f({ query: 'kind:request' }), f({ query: 'kind:request tool:echo' }))).toBe(true);
    expect(narrows(f({ query: 'kind:request' }), f({ query: 'kind:response' }))).toBe(false);
    expect(dependsOnPairing(f({ query: 'status:ok' }))).toBe(true);
    expect(dependsOnPairing(f({ query: 'method:ping' }))).toBe(false);
  });
});
