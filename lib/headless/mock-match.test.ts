import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildAnswerTable, describeRequest, MOCK_CODES, MockConversation, nearestEntry, requestKey, type AnswerTable } from './mock-match.ts';
import { conversationOf } from '../trace/exchanges.ts';
import type { TraceEvent } from '../wire/wire.ts';

type Frame = ['out' | 'in', Record<string, unknown>];

function events(frames: Frame[]): TraceEvent[] {
  return frames.map(([dir, message], i) => {
    const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
    return { session: 's1', seq: i + 1, ts: i, kind: 'frame', dir, raw, size: raw.length, rpc: 'request' };
  });
}

const INIT_RESULT = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'recorded', version: '1' } };
const opening: Frame[] = [
  ['out', { id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'loupe', version: '0' } } }],
  ['in', { id: 0, result: INIT_RESULT }],
  ['out', { method: 'notifications/initialized' }],
];

function tableOf(...frames: Frame[]): AnswerTable {
  const built = buildAnswerTable(conversationOf(events([...opening, ...frames])));
  if (!built.ok) throw new Error(built.error);
  return built.table;
}

/** One client: sends each message and returns everything the mock sent for it. */
function client(table: AnswerTable) {
  const conversation = new MockConversation(table);
  let id = 100;
  const send = (message: Record<string, unknown>) => conversation.receive({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  return {
    conversation,
    send,
    init: (capabilities: Record<string, unknown> = {}) => send({ id: id++, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'other', version: '9' } } }),
    request: (method: string, params?: unknown) => send({ id: id++, method, ...(params === undefined ? {} : { params }) }),
  };
}

const messages = (reply: { send: { message: JSONRPCMessage }[] }) => reply.send.map((o) => o.message as Record<string, unknown>);

describe('building the table', () => {
  it('refuses a trace without an initialize exchange, in one sentence that says what to do', () => {
    const built = buildAnswerTable(conversationOf(events([['out', { id: 1, method: 'tools/list' }], ['in', { id: 1, result: { tools: [] } }]])));
    expect(built).toEqual({ ok: false, error: expect.stringMatching(/^This trace has no initialize exchange \(nor an answered server\/discover\), .*record the session from the moment it connects\.$/) });
  });

  it('refuses a trace whose initialize failed', () => {
    const built = buildAnswerTable(conversationOf(events([['out', { id: 0, method: 'initialize', params: {} }], ['in', { id: 0, error: { code: -32602, message: 'Unsupported protocol version' } }]])));
    expect(built.ok).toBe(false);
    expect(!built.ok && built.error).toMatch(/initialize request in this trace has no successful answer/);
  });

  it('keys requests by method and params without _meta, whatever the key order; no params and {} are the same', () => {
    expect(requestKey('tools/call', { name: 'a', arguments: { x: 1, y: 2 }, _meta: { progressToken: 7 } })).toBe(requestKey('tools/call', { arguments: { y: 2, x: 1 }, name: 'a' }));
    expect(requestKey('tools/list', {})).toBe(requestKey('tools/list', undefined));
    expect(requestKey('tools/list', { _meta: { progressToken: 1 } })).toBe('tools/list');
    expect(requestKey('tools/call', { name: 'a' })).not.toBe(requestKey('tools/call', { name: 'b' }));
    expect(requestKey('initialize', { protocolVersion: 'x' })).toBe(requestKey('initialize', { capabilities: { roots: {} } }));
  });
});

describe('answering', () => {
  it('answers any client’s initialize with the recorded result and protocol version, under the client’s id', () => {
    const table = tableOf();
    expect(table.protocolVersion).toBe('2025-06-18');
    const reply = client(table).init();
    expect(messages(reply)).toEqual([{ jsonrpc: '2.0', id: 100, result: INIT_RESULT }]);
  });

  it('matches a request whatever its _meta and key order, and replays a recorded error as an error', () => {
    const table = tableOf(
      ['out', { id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }],
      ['in', { id: 1, result: { content: [{ type: 'text', text: '3' }] } }],
      ['out', { id: 2, method: 'prompts/get', params: { name: 'gone' } }],
      ['in', { id: 2, error: { code: -32602, message: 'Prompt gone not found' } }],
    );
    const c = client(table);
    c.init();
    expect(messages(c.request('tools/call', { arguments: { b: 2, a: 1 }, name: 'add', _meta: { progressToken: 'mine' } }))).toEqual([{ jsonrpc: '2.0', id: 101, result: { content: [{ type: 'text', text: '3' }] } }]);
    expect(messages(c.request('prompts/get', { name: 'gone' }))).toEqual([{ jsonrpc: '2.0', id: 102, error: { code: -32602, message: 'Prompt gone not found' } }]);
  });

  it('answers a request recorded several times in recorded order, then repeats the last; each client starts over', () => {
    const table = tableOf(
      ['out', { id: 1, method: 'tools/call', params: { name: 'count' } }],
      ['in', { id: 1, result: { n: 1 } }],
      ['out', { id: 2, method: 'tools/call', params: { name: 'count' } }],
      ['in', { id: 2, result: { n: 2 } }],
    );
    const c = client(table);
    const n = () => (messages(c.request('tools/call', { name: 'count' }))[0].result as { n: number }).n;
    expect([n(), n(), n()]).toEqual([1, 2, 2]);
    const other = client(table);
    expect(messages(other.request('tools/call', { name: 'count' }))[0].result).toEqual({ n: 1 });
  });

  it('answers an unmatched request with -32602 naming the nearest recorded request of that method', () => {
    const table = tableOf(
      ['out', { id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }],
      ['in', { id: 1, result: {} }],
      ['out', { id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }],
      ['in', { id: 2, result: {} }],
      ['out', { id: 3, method: 'tools/call', params: { name: 'add', arguments: { a: 5, b: 6 } } }],
      ['in', { id: 3, result: {} }],
    );
    const c = client(table);
    const [error] = messages(c.request('tools/call', { name: 'add', arguments: { a: 1 }, _meta: { progressToken: 3 } }));
    expect(error).toEqual({
      jsonrpc: '2.0',
      id: 100,
      error: {
        code: -32602,
        message: 'Loupe mock: no recorded answer for tools/call {"name":"add","arguments":{"a":1}}; nearest recorded: tools/call {"name":"add","arguments":{"a":1,"b":2}}',
        data: { nearest: { method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } } },
      },
    });
  });

  it('answers a method never recorded with -32601 and the methods it has, and logs the same sentence', () => {
    const c = client(tableOf(['out', { id: 1, method: 'tools/list' }], ['in', { id: 1, result: { tools: [] } }]));
    const reply = c.request('resources/read', { uri: 'file:///x' });
    const error = messages(reply)[0].error as { code: number; message: string; data: unknown };
    expect(error.code).toBe(MOCK_CODES.methodNotRecorded);
    expect(error.message).toBe('Loupe mock: no recorded answer for resources/read {"uri":"file:///x"}: the recording has no resources/read request (it has initialize, tools/list).');
    expect(error.data).toEqual({ recordedMethods: ['initialize', 'tools/list'] });
    expect(reply.log).toEqual([error.message]);
  });

  it('answers a request recorded without its answer with -32050, and an unrecorded ping with {}', () => {
    const c = client(tableOf(['out', { id: 1, method: 'tools/call', params: { name: 'hang' } }]));
    const error = messages(c.request('tools/call', { name: 'hang' }))[0].error as { code: number; message: string };
    expect(error.code).toBe(MOCK_CODES.recordedWithoutAnswer);
    expect(error.message).toMatch(/^Loupe mock: tools\/call \{"name":"hang"\} was recorded but its answer was not/);
    expect(messages(c.request('ping'))).toEqual([{ jsonrpc: '2.0', id: 101, result: {} }]);
  });

  it('replays a recorded timeout in its place: the retry that got an answer gets it', () => {
    const table = tableOf(
      ['out', { id: 1, method: 'tools/call', params: { name: 'flaky' } }],
      ['out', { method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } }],
      ['out', { id: 2, method: 'tools/call', params: { name: 'flaky' } }],
      ['in', { id: 2, result: { ok: 1 } }],
    );
    const c = client(table);
    const codes = [1, 2, 3].map(() => messages(c.request('tools/call', { name: 'flaky' }))[0]);
    expect(codes.map((m) => (m.error as { code?: number } | undefined)?.code ?? m.result)).toEqual([MOCK_CODES.recordedWithoutAnswer, { ok: 1 }, { ok: 1 }]);
  });

  it('accepts the client’s notifications and answers silently', () => {
    const c = client(tableOf());
    expect(c.send({ method: 'notifications/cancelled', params: { requestId: 4 } })).toEqual({ send: [], log: [] });
    expect(c.send({ id: 'loupe-mock-1', result: { roots: [] } })).toEqual({ send: [], log: [] });
  });
});

describe('what the server said besides answering', () => {
  it('sends what came during an exchange before its answer, with progress under the client’s own token', () => {
    const table = tableOf(
      ['out', { id: 1, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 1 } } }],
      ['in', { method: 'notifications/message', params: { level: 'info', data: 'working' } }],
      ['in', { method: 'notifications/progress', params: { progressToken: 1, progress: 1, total: 2 } }],
      ['in', { method: 'notifications/progress', params: { progressToken: 1, progress: 2, total: 2 } }],
      ['in', { id: 1, result: { done: true } }],
    );
    const c = client(table);
    const reply = c.request('tools/call', { name: 'slow', _meta: { progressToken: 'tok' } });
    expect(messages(reply)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 2 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 2 } },
      { jsonrpc: '2.0', id: 100, result: { done: true } },
    ]);
    expect(reply.send.slice(0, 3).map((o) => o.relatedRequestId)).toEqual([100, 100, 100]);
    // A client that did not ask for progress gets none.
    expect(messages(c.request('tools/call', { name: 'slow' })).map((m) => m.method ?? 'answer')).toEqual(['notifications/message', 'answer']);
  });

  it('gives progress to the request whose token it carries when requests overlap', () => {
    const table = tableOf(
      ['out', { id: 1, method: 'tools/call', params: { name: 'a', _meta: { progressToken: 'A' } } }],
      ['out', { id: 2, method: 'tools/call', params: { name: 'b', _meta: { progressToken: 'B' } } }],
      ['in', { method: 'notifications/progress', params: { progressToken: 'A', progress: 1 } }],
      ['in', { id: 1, result: {} }],
      ['in', { id: 2, result: {} }],
    );
    const c = client(table);
    expect(messages(c.request('tools/call', { name: 'b', _meta: { progressToken: 9 } })).map((m) => m.method ?? 'answer')).toEqual(['answer']);
    expect(messages(c.request('tools/call', { name: 'a', _meta: { progressToken: 8 } })).map((m) => m.method ?? 'answer')).toEqual(['notifications/progress', 'answer']);
  });

  it('sends what came after an answer after that answer, and what followed a client notification when the client sends it', () => {
    const table = tableOf(
      ['in', { id: 0, method: 'roots/list' }],
      ['in', { method: 'notifications/message', params: { level: 'info', data: 'roots synced' } }],
      ['out', { id: 1, method: 'tools/call', params: { name: 'register' } }],
      ['in', { id: 1, result: {} }],
      ['in', { method: 'notifications/tools/list_changed' }],
    );
    const c = client(table);
    c.init({ roots: {} });
    const initialized = c.send({ method: 'notifications/initialized' });
    expect(messages(initialized)).toEqual([
      { jsonrpc: '2.0', method: 'roots/list', id: 'loupe-mock-1' },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'roots synced' } },
    ]);
    expect(initialized.send.every((o) => o.relatedRequestId === undefined)).toBe(true);
    const call = c.request('tools/call', { name: 'register' });
    expect(messages(call).map((m) => m.method ?? 'answer')).toEqual(['answer', 'notifications/tools/list_changed']);
    expect(call.send[1].relatedRequestId).toBeUndefined();
  });

  it('sends the server’s own requests with fresh ids, only to a client that declared the capability', () => {
    const table = tableOf(
      ['out', { id: 1, method: 'tools/call', params: { name: 'ask' } }],
      ['in', { id: 0, method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } }],
      ['out', { id: 0, result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } }],
      ['in', { id: 1, result: { content: [{ type: 'text', text: 'sampled: ok' }] } }],
    );
    const able = client(table);
    able.init({ sampling: {} });
    const reply = able.request('tools/call', { name: 'ask' });
    expect(messages(reply)).toEqual([
      { jsonrpc: '2.0', method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 }, id: 'loupe-mock-1' },
      { jsonrpc: '2.0', id: 101, result: { content: [{ type: 'text', text: 'sampled: ok' }] } },
    ]);
    expect(reply.send[0].relatedRequestId).toBe(101);
    const unable = client(table);
    unable.init();
    const skipped = unable.request('tools/call', { name: 'ask' });
    expect(messages(skipped).map((m) => m.method ?? 'answer')).toEqual(['answer']);
    expect(skipped.log).toEqual(['Loupe mock: skipped the recorded sampling/createMessage request: this client did not declare the sampling capability.']);
  });
});

describe('nearest and wording', () => {
  it('prefers the params sharing the most leaves, the earliest on a tie', () => {
    const candidates = [{ params: { name: 'x', arguments: { q: 'a' } } }, { params: { name: 'y', arguments: { q: 'a', n: 2 } } }, { params: { name: 'y', arguments: { q: 'b' } } }];
    expect(nearestEntry({ name: 'y', arguments: { q: 'a' } }, candidates)).toBe(candidates[1]);
    expect(nearestEntry({ name: 'z' }, candidates)).toBe(candidates[0]);
    expect(nearestEntry(undefined, [{ params: { a: 1 } }, { params: undefined }])).toEqual({ params: undefined });
  });

  it('shows params as sent, without _meta, cut to a readable length', () => {
    expect(describeRequest('tools/list', { _meta: { progressToken: 1 } })).toBe('tools/list');
    const long = describeRequest('tools/call', { name: 'x', arguments: { text: 'a'.repeat(500) } });
    expect(long.length).toBeLessThan(220);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('a recording of a 2026-07-28 session (issue 12)', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
  const modern = buildAnswerTable(
    conversationOf(
      events([
        ['out', { id: 'loupe-discover', method: 'server/discover', params: { _meta: meta } }],
        ['in', { id: 'loupe-discover', result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } }],
        ['out', { id: 'loupe-1', method: 'tools/call', params: { name: 'confirm', arguments: { path: '/x' }, _meta: meta } }],
        ['in', { id: 'loupe-1', result: { resultType: 'input_required', inputRequests: { ok: { method: 'elicitation/create', params: {} } }, requestState: 's1' } }],
        ['out', { id: 'loupe-2', method: 'tools/call', params: { name: 'confirm', arguments: { path: '/x' }, inputResponses: { ok: { action: 'accept' } }, requestState: 's1', _meta: meta } }],
        ['in', { id: 'loupe-2', result: { resultType: 'complete', content: [{ type: 'text', text: 'Deleted /x' }] } }],
      ]),
    ),
  );

  it('makes a 2026-07-28 mock from an answered server/discover', () => {
    expect(modern.ok && modern.table.era).toBe('modern');
    expect(modern.ok && modern.table.protocolVersion).toBe('2026-07-28');
  });

  it('refuses a 2025 initialize with -32022 naming 2026-07-28', () => {
    if (!modern.ok) throw new Error(modern.error);
    const [refusal] = messages(client(modern.table).init());
    expect(refusal.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } });
  });

  it('answers the rounds of a call in recorded order, whatever the inputs re-sent', () => {
    if (!modern.ok) throw new Error(modern.error);
    const c = client(modern.table);
    expect(messages(c.request('server/discover', { _meta: meta }))[0].result).toMatchObject({ supportedVersions: ['2026-07-28'] });
    expect(messages(c.request('tools/call', { name: 'confirm', arguments: { path: '/x' }, _meta: meta }))[0].result).toMatchObject({ resultType: 'input_required' });
    const again = { name: 'confirm', arguments: { path: '/x' }, inputResponses: { ok: { action: 'decline' } }, requestState: 's1', _meta: meta };
    expect(messages(c.request('tools/call', again))[0].result).toMatchObject({ resultType: 'complete', content: [{ text: 'Deleted /x' }] });
  });
});
