import { describe, expect, it } from 'vitest';
import { TraceIndex } from './row-index.ts';
import type { ClientCapabilityChoice, FrameEvent, TraceEvent } from '../wire/wire.ts';

/** A little trace builder: frames from JSON-RPC objects, classified as the proxy would. */
function builder(startSeq = 1) {
  let seq = startSeq - 1;
  const frame = (dir: FrameEvent['dir'], message: Record<string, unknown>, extra: Partial<FrameEvent> = {}): FrameEvent => {
    seq += 1;
    const raw = JSON.stringify(message);
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
    const method = typeof message.method === 'string' ? message.method : undefined;
    let rpc: FrameEvent['rpc'] = 'invalid';
    if (message.jsonrpc === '2.0') {
      if (method !== undefined) rpc = 'id' in message ? (id === undefined ? 'invalid' : 'request') : 'notification';
      else if ('error' in message) rpc = 'error';
      else if ('result' in message) rpc = 'response';
    }
    return { session: 's1', seq, ts: seq * 10, kind: 'frame', dir, raw, size: raw.length, rpc, method, id, ...extra };
  };
  const other = (event: Record<string, unknown>): TraceEvent => {
    seq += 1;
    return { session: 's1', seq, ts: seq * 10, ...event } as TraceEvent;
  };
  return { frame, other };
}

const codes = (index: TraceIndex, seq: number) => index.find(seq)?.violations?.map((v) => v.code) ?? [];

describe('TraceIndex', () => {
  it('pairs requests and responses incrementally, across batches', () => {
    const { frame } = builder();
    const index = new TraceIndex();
    const req = frame('out', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    index.append([req]);
    expect(index.find(1)?.pending).toBe(true);
    const res = frame('in', { jsonrpc: '2.0', id: 1, result: {} });
    const result = index.append([res]);
    expect(result.touched.map((r) => r.seq)).toEqual([1]);
    expect(index.find(1)).toMatchObject({ pending: undefined, partnerSeq: 2, latencyMs: 10 });
    expect(index.find(2)).toMatchObject({ method: 'tools/list', partnerSeq: 1, latencyMs: 10 });
    expect(index.methods.get('tools/list')).toBe(2);
    expect(index.violationRows).toBe(0);
  });

  it('marks a response to an unknown id, and a duplicate response', () => {
    const { frame } = builder();
    const index = TraceIndex.from([
      frame('out', { jsonrpc: '2.0', id: 1, method: 'ping' }),
      frame('in', { jsonrpc: '2.0', id: 1, result: {} }),
      frame('in', { jsonrpc: '2.0', id: 1, result: {} }),
      frame('in', { jsonrpc: '2.0', id: 99, result: {} }),
    ]);
    expect(codes(index, 2)).toEqual([]);
    expect(codes(index, 3)).toEqual(['duplicate-response']);
    expect(index.find(3)).toMatchObject({ partnerSeq: 1, method: 'ping', unmatched: true });
    expect(codes(index, 4)).toEqual(['unknown-id']);
    expect(index.violationRows).toBe(2);
  });

  it('hedges "unknown id" when the trace does not start at the beginning', () => {
    const { frame } = builder(500);
    const index = TraceIndex.from([frame('in', { jsonrpc: '2.0', id: 3, result: {} })]);
    expect(index.rows[0].violations?.[0].message).toMatch(/older than the kept trace/);
  });

  it('marks a late response after cancellation and the cancelled request', () => {
    const { frame } = builder();
    const index = TraceIndex.from([
      frame('out', { jsonrpc: '2.0', id: 'a', method: 'tools/call' }),
      frame('out', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } }),
    ]);
    expect(index.find(1)).toMatchObject({ cancelled: true, pending: undefined });
    index.append([frame('in', { jsonrpc: '2.0', id: 'a', result: {} })]);
    expect(codes(index, 3)).toEqual(['late-response']);
    expect(index.find(3)?.partnerSeq).toBe(1);
  });

  it('marks jsonrpc other than "2.0", notifications with ids, and stdout noise', () => {
    const { frame, other } = builder();
    const index = TraceIndex.from([
      frame('in', { jsonrpc: '1.0', id: 5, result: {} }),
      frame('in', { jsonrpc: '2.0', id: 6, method: 'notifications/message', params: { level: 'info', data: 'x' } }),
      frame('in', { jsonrpc: '2.0', id: null, method: 'notifications/progress' }),
      other({ kind: 'noise', text: 'Server listening' }),
    ]);
    expect(codes(index, 1)).toEqual(['jsonrpc-version']);
    expect(codes(index, 2)).toEqual(['notification-with-id']);
    expect(codes(index, 3)).toEqual(['notification-with-id']);
    expect(codes(index, 4)).toEqual(['stdout-noise']);
  });

  it('marks server→client requests for capabilities the client did not declare, once they are known', () => {
    const caps: ClientCapabilityChoice = { sampling: false, samplingTools: false, elicitationForm: true, elicitationUrl: false, roots: true, rootsListChanged: true, tasks: true, apps: false };
    const { frame } = builder();
    const events = [
      frame('in', { jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: { messages: [] } }),
      frame('in', { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: { mode: 'form', message: 'hi' } }),
      frame('in', { jsonrpc: '2.0', id: 2, method: 'elicitation/create', params: { mode: 'url', url: 'https://x' } }),
      frame('in', { jsonrpc: '2.0', id: 3, method: 'roots/list' }),
      frame('in', { jsonrpc: '2.0', id: 4, method: 'ping' }),
    ];
    const index = TraceIndex.from(events, caps);
    expect([1, 2, 3, 4, 5].map((s) => codes(index, s))).toEqual([['undeclared-capability'], [], ['undeclared-capability'], [], []]);
    expect(index.find(1)?.violations?.[0].message).toMatch(/sampling/);
    expect(TraceIndex.from(events).violationRows).toBe(0);
  });

  it('marks a reused request id', () => {
    const { frame } = builder();
    const index = TraceIndex.from([
      frame('out', { jsonrpc: '2.0', id: 1, method: 'ping' }),
      frame('in', { jsonrpc: '2.0', id: 1, result: {} }),
      frame('out', { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'replay' }),
      frame('in', { jsonrpc: '2.0', id: 1, result: {} }),
    ]);
    expect(codes(index, 3)).toEqual(['reused-id']);
    expect(index.find(3)).toMatchObject({ origin: 'replay', partnerSeq: 4 });
    expect(codes(index, 4)).toEqual([]);
  });

  it('flags errors: error responses, isError results, HTTP ≥ 400, failed exits and transport errors', () => {
    const { frame, other } = builder();
    const index = TraceIndex.from([
      frame('out', { jsonrpc: '2.0', id: 1, method: 'tools/call' }),
      frame('in', { jsonrpc: '2.0', id: 1, result: { content: [], isError: true } }),
      frame('out', { jsonrpc: '2.0', id: 2, method: 'nope' }),
      frame('in', { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no' } }),
      other({ kind: 'http', method: 'POST', url: 'http://h/mcp', status: 404, requestHeaders: {}, durationMs: 3 }),
      other({ kind: 'exit', code: 1, signal: null }),
      other({ kind: 'transport', level: 'info', message: 'ok' }),
    ]);
    expect(index.rows.map((r) => r.isError ?? false)).toEqual([false, true, false, true, true, true, false]);
  });

  it('describes HTTP exchanges: SSE streams and the MCP session id', () => {
    const { other } = builder();
    const index = TraceIndex.from([
      other({ kind: 'http', method: 'GET', url: 'http://h/mcp', status: 200, contentType: 'text/event-stream', requestHeaders: { 'mcp-session-id': 'abc' }, durationMs: 5 }),
    ]);
    expect(index.rows[0]).toMatchObject({ httpSessionId: 'abc', latencyMs: 5 });
    expect(index.rows[0].summary).toMatch(/^SSE stream opened: GET http:\/\/h\/mcp → 200/);
  });

  it('keeps stderr as rows and as a bounded stream; trims old rows and their counts', () => {
    const { frame, other } = builder();
    const index = TraceIndex.from([
      other({ kind: 'stderr', text: 'one\ntwo\n' }),
      frame('in', { jsonrpc: '2.0', method: 'notifications/message' }),
      frame('in', { jsonrpc: '2.0', method: 'notifications/message' }),
    ]);
    expect(index.rows[0]).toMatchObject({ kind: 'stderr', summary: 'one … (2 lines)' });
    expect(index.stderr()).toEqual({ text: 'one\ntwo\n', trimmed: 0 });
    expect(index.trimBefore(3)).toBe(2);
    expect(index.rows.map((r) => r.seq)).toEqual([3]);
    expect(index.methods.get('notifications/message')).toBe(1);
    expect(index.find(2)).toBeUndefined();
  });
});

describe('TraceIndex: capabilities from the initialize frame', () => {
  it('judges server→client requests by what each initialize declared', () => {
    const { frame } = builder();
    const init = (capabilities: Record<string, unknown>) => frame('out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'x', version: '1' } } });
    const sampling = (id: number) => frame('in', { jsonrpc: '2.0', id, method: 'sampling/createMessage', params: { messages: [] } });
    const elicitUrl = (id: number) => frame('in', { jsonrpc: '2.0', id, method: 'elicitation/create', params: { mode: 'url' } });
    const everything = { sampling: { tools: {} }, elicitation: { form: {}, url: {} }, roots: { listChanged: true }, tasks: {} };
    const index = TraceIndex.from([init(everything), sampling(1), elicitUrl(2), init({ elicitation: {} }), sampling(3), elicitUrl(4)]);
    expect([2, 3, 5, 6].map((s) => codes(index, s))).toEqual([[], [], ['undeclared-capability'], ['undeclared-capability']]);
    // A reconnect is a new MCP session: its ids start over (not "reused"), and what waited is never answered.
    expect(codes(index, 4)).toEqual([]);
    expect(index.find(1)).toMatchObject({ pending: undefined, unanswered: true });
  });
});

describe('TraceIndex: spec events (issue 14)', () => {
  const spec = (of: number, issues: string[]) => ({ kind: 'spec', of, version: '2025-11-25', schema: 'ListToolsResult', issues });

  it('marks the frame a spec event names, in a later batch, without a row of its own', () => {
    const { frame, other } = builder();
    const index = new TraceIndex();
    index.append([frame('out', { jsonrpc: '2.0', id: 1, method: 'tools/list' }), frame('in', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'bare' }] } })]);
    const version = index.version;
    const result = index.append([other(spec(2, ['result.tools[0].inputSchema: required']))]);
    expect(result.added).toEqual([]);
    expect(result.touched.map((r) => r.seq)).toEqual([2]);
    expect(index.flags).toBe(1);
    expect(index.version).toBe(version + 1);
    expect(index.rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(index.lastSeq).toBe(3);
    expect(index.total).toBe(3);
    expect(index.violationRows).toBe(1);
    expect(index.find(2)?.violations).toEqual([
      { code: 'spec-schema', message: 'Breaks the 2025-11-25 schema (ListToolsResult): result.tools[0].inputSchema: required.', spec: 'https://modelcontextprotocol.io/specification/2025-11-25/schema' },
    ]);
    expect(index.specEvents(index.find(2)!).map((e) => e.seq)).toEqual([3]);
    expect(index.specEvents(index.find(1)!)).toEqual([]);
  });

  it('marks a frame of the same batch without touching it, counts a row once, and ignores a frame it does not hold', () => {
    const { frame, other } = builder();
    const index = new TraceIndex();
    const result = index.append([
      frame('in', { jsonrpc: '1.0', method: 'notifications/message' }),
      other(spec(1, ['jsonrpc: expected "2.0", got "1.0"'])),
      other(spec(99, ['(frame): not kept'])),
    ]);
    expect(result.added.map((r) => r.seq)).toEqual([1]);
    expect(result.touched).toEqual([]);
    expect(index.flags).toBe(0);
    expect(codes(index, 1)).toEqual(['jsonrpc-version', 'spec-schema']);
    expect(index.violationRows).toBe(1);
    expect(index.lastSeq).toBe(3);
  });
});
