import { describe, expect, it } from 'vitest';
import { canonicalJson, conversationOf } from './exchanges.ts';
import type { TraceEvent } from '../wire/wire.ts';

/** A trace from frames written as `[dir, message]` (a string is taken as the raw text), numbered from 1. */
function trace(...frames: ['out' | 'in', unknown][]): TraceEvent[] {
  return frames.map(([dir, message], i) => {
    const raw = typeof message === 'string' ? message : JSON.stringify(message);
    return { session: 's1', seq: i + 1, ts: 1000 + i, kind: 'frame', dir, raw, size: raw.length, rpc: 'request' };
  });
}

describe('conversationOf', () => {
  it('pairs each request with its answer by id, results and errors alike, in the order sent', () => {
    const c = conversationOf(
      trace(
        ['out', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
        ['out', { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'x' } }],
        ['in', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'no prompt x' } }],
        ['in', { jsonrpc: '2.0', id: 1, result: { tools: [] } }],
      ),
    );
    expect(c.exchanges.map((e) => [e.method, e.seq, e.response?.seq])).toEqual([
      ['tools/list', 1, 4],
      ['prompts/get', 2, 3],
    ]);
    expect(c.exchanges[0].response).toMatchObject({ ok: true, result: { tools: [] } });
    expect(c.exchanges[1].response).toMatchObject({ ok: false, error: { code: -32602, message: 'no prompt x' } });
    expect(c.exchanges[1].params).toEqual({ name: 'x' });
  });

  it('keeps ids per direction: a server request reusing a client id does not answer the client', () => {
    const c = conversationOf(
      trace(
        ['out', { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'ask' } }],
        ['in', { jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: { message: 'name?' } }],
        ['out', { jsonrpc: '2.0', id: 0, result: { action: 'decline' } }],
        ['in', { jsonrpc: '2.0', id: 0, result: { content: [] } }],
      ),
    );
    expect(c.exchanges).toHaveLength(1);
    expect(c.exchanges[0].response?.seq).toBe(4);
    expect(c.exchanges[0].during.map((m) => [m.method, m.id])).toEqual([['elicitation/create', 0]]);
    // The client's answer to the server's request is no exchange and no notification.
    expect(c.clientNotifications).toEqual([]);
  });

  it('tells what the server sent during an exchange from what it sent on its own', () => {
    const c = conversationOf(
      trace(
        ['out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 't' } } }],
        ['in', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }],
        ['in', { jsonrpc: '2.0', id: 1, result: { content: [] } }],
        ['in', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }],
        ['out', { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }],
      ),
    );
    expect(c.exchanges[0].during.map((m) => m.method)).toEqual(['notifications/progress']);
    expect(c.serverMessages.map((m) => [m.method, m.during])).toEqual([
      ['notifications/progress', 1],
      ['notifications/tools/list_changed', undefined],
    ]);
    expect(c.clientNotifications.map((m) => [m.method, m.seq])).toEqual([['notifications/roots/list_changed', 5]]);
  });

  it('leaves a request the trace never saw answered without a response, and ignores answers to nothing', () => {
    const c = conversationOf(
      trace(
        ['in', { jsonrpc: '2.0', id: 9, result: {} }],
        ['out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang' } }],
      ),
    );
    expect(c.exchanges).toHaveLength(1);
    expect(c.exchanges[0].response).toBeUndefined();
  });

  it('lists frames that are not JSON objects as unreadable and skips events that are not frames', () => {
    const events: TraceEvent[] = [
      { session: 's1', seq: 1, ts: 1, kind: 'stderr', text: 'starting\n' },
      ...trace(['in', '{"jsonrpc":"2.0","id":1,"resu'], ['in', '[1,2]']).map((e) => ({ ...e, seq: e.seq + 1 })),
    ];
    const c = conversationOf(events);
    expect(c.unreadable.map((f) => f.seq)).toEqual([2, 3]);
    expect(c.exchanges).toEqual([]);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson('text')).toBe('"text"');
  });

  it('keeps a key named __proto__ (JSON.parse makes it an own key; two different requests must not look equal)', () => {
    const value = JSON.parse('{"__proto__":{"a":1},"b":2}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":1},"b":2}');
  });
});
