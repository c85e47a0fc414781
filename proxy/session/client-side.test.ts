/**
 * Integration: Loupe playing the client's part against server-everything (which offers its
 * sampling / elicitation / roots tools only to clients that declare those capabilities), plus the
 * raw composer and progress relaying.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FrameEvent, ServerMessage } from '../../lib/wire/wire.ts';
import { DEFAULT_CHOICE } from '../../lib/client/capabilities.ts';
import { defaultServer } from '../default-server.ts';
import type { WireTestClient } from '../testing/client.ts';
import { LoupeHarness } from '../testing/harness.ts';

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

async function connect(options: Record<string, unknown> = {}) {
  const { loupe, client } = await harness.start();
  client.send({ type: 'connect', config: defaultServer(), ...options });
  const session = await client.until(() => [...client.sessions.values()].find((s) => s.status === 'connected' || s.status === 'failed'));
  expect(session.error).toBeUndefined();
  return { loupe, client, session };
}

type Of<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;
const serverRequests = (c: WireTestClient) => c.messages.filter((m): m is Of<'server-request'> => m.type === 'server-request');
const toolNames = async (c: WireTestClient, session: string) => {
  const list = await c.request(session, 'tools/list', {});
  return (list as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
};

describe('declared capabilities', () => {
  it('declares everything by default, and server-everything offers its client-side tools', async () => {
    const { client, session } = await connect();
    expect(session.clientCapabilities).toEqual(DEFAULT_CHOICE);
    const init = client.events.find((e): e is FrameEvent => e.kind === 'frame' && e.method === 'initialize')!;
    const caps = JSON.parse(init.raw).params.capabilities;
    expect(caps).toMatchObject({ sampling: { tools: {} }, elicitation: { form: {}, url: {} }, roots: { listChanged: true } });
    expect(caps.tasks.requests).toMatchObject({ sampling: { createMessage: {} }, elicitation: { create: {} } });
    expect(await toolNames(client, session.id)).toEqual(expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']));
  });

  it('declares nothing the user switched off; the server then hides those tools', async () => {
    const none = { sampling: false, samplingTools: false, elicitationForm: false, elicitationUrl: false, roots: false, rootsListChanged: false, tasks: false, apps: false };
    const { client, session } = await connect({ clientCapabilities: none });
    const init = client.events.find((e): e is FrameEvent => e.kind === 'frame' && e.method === 'initialize')!;
    expect(JSON.parse(init.raw).params.capabilities).toEqual({});
    const names = await toolNames(client, session.id);
    expect(names).not.toContain('trigger-sampling-request');
    expect(names).toContain('echo');
  });
});

describe('server→client requests', () => {
  it('holds a sampling request for the user, survives a second tab, and relays the answer', async () => {
    const { loupe, client, session } = await connect();
    const id = 'call-1';
    client.send({ type: 'request', session: session.id, id, method: 'tools/call', params: { name: 'trigger-sampling-request', arguments: { prompt: 'Say hi', maxTokens: 20 } } });
    const asked = await client.until(() => serverRequests(client)[0]);
    expect(asked.request.method).toBe('sampling/createMessage');
    expect(JSON.stringify(asked.request.params)).toContain('Say hi');

    const other = await harness.open(loupe);
    const snapshot = await other.until(() => other.messages.find((m): m is Of<'snapshot'> => m.type === 'snapshot'));
    expect(snapshot.serverRequests?.map((r) => r.requestId)).toEqual([asked.request.requestId]);

    const result = { role: 'assistant', content: { type: 'text', text: 'Hi from a human' }, model: 'loupe-by-hand', stopReason: 'endTurn' };
    other.send({ type: 'respond', session: session.id, requestId: asked.request.requestId, outcome: { ok: true, result } });
    const done = await client.until(() => client.messages.find((m): m is Of<'server-request-done'> => m.type === 'server-request-done'));
    expect(done.how).toBe('answered');
    const response = await client.until(() => client.messages.find((m) => m.type === 'response' && m.id === id));
    expect(JSON.stringify(response)).toContain('Hi from a human');
  });

  it('says which answer came too late', async () => {
    const { client, session } = await connect();
    client.send({ type: 'respond', session: session.id, requestId: 'r999', outcome: { ok: true, result: {} } });
    const error = await client.until(() => client.messages.find((m): m is Of<'error'> => m.type === 'error'));
    expect(error.error).toMatchObject({ code: 'NOT_PENDING', detail: { requestId: 'r999' } });
  });

  it('answers with an error by itself when nobody answers in time', async () => {
    const { client, session } = await connect({ serverRequestTimeoutMs: 300 });
    client.send({ type: 'request', session: session.id, id: 'c', method: 'tools/call', params: { name: 'trigger-elicitation-request', arguments: {} } });
    const done = await client.until(() => client.messages.find((m): m is Of<'server-request-done'> => m.type === 'server-request-done'));
    expect(done.how).toBe('timed-out');
    const reply = await client.until(() => client.events.find((e): e is FrameEvent => e.kind === 'frame' && e.dir === 'out' && e.rpc === 'error'));
    expect(reply.raw).toContain('Nobody answered in Loupe');
  });

  it('answers roots/list from the session roots and tells the server when they change', async () => {
    const roots = [{ uri: 'file:///tmp/project-a', name: 'Project A' }];
    const { client, session } = await connect({ roots });
    const first = await client.request(session.id, 'tools/call', { name: 'get-roots-list', arguments: {} });
    expect(JSON.stringify(first)).toContain('file:///tmp/project-a');
    client.send({ type: 'set-roots', session: session.id, roots: [{ uri: 'file:///tmp/project-b', name: 'Project B' }] });
    await client.until(() => client.events.find((e) => e.kind === 'frame' && e.method === 'notifications/roots/list_changed'));
    await client.until(() => client.events.filter((e) => e.kind === 'frame' && e.dir === 'in' && e.method === 'roots/list').length >= 2);
    const second = await client.request(session.id, 'tools/call', { name: 'get-roots-list', arguments: {} });
    expect(JSON.stringify(second)).toContain('file:///tmp/project-b');
  });
});

describe('raw composer and progress', () => {
  it('sends a hand-written request, returns its response, and marks the frame', async () => {
    const { client, session } = await connect();
    client.send({ type: 'send-raw', session: session.id, id: 'raw-1', message: { jsonrpc: '2.0', id: 'loupe-raw-1', method: 'tools/list', params: {} }, origin: 'edited' });
    const response = await client.until(() => client.messages.find((m) => m.type === 'response' && m.id === 'raw-1'));
    expect(response).toMatchObject({ ok: true, result: { tools: expect.any(Array) } });
    const frame = client.events.find((e): e is FrameEvent => e.kind === 'frame' && e.dir === 'out' && e.id === 'loupe-raw-1')!;
    expect(frame.origin).toBe('edited');

    client.send({ type: 'send-raw', session: session.id, id: 'raw-2', message: { jsonrpc: '2.0', id: 'loupe-raw-2', method: 'no/such/method' } });
    const error = await client.until(() => client.messages.find((m) => m.type === 'response' && m.id === 'raw-2'));
    expect(error).toMatchObject({ ok: false, error: { code: -32601 } });
    // The SDK client is untouched by hand-sent traffic.
    expect((await client.request(session.id, 'ping')).ok).toBe(true);
  });

  it('relays progress of a long tool call to the tab that asked', async () => {
    const { client, session } = await connect();
    const response = await client.request(session.id, 'tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } });
    expect(response.ok).toBe(true);
    const progress = client.messages.filter((m): m is Of<'progress'> => m.type === 'progress');
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(progress[0].total).toBe(3);
  });

  it('restarts the timeout on progress, and stops at the maximum total', async () => {
    const { client, session } = await connect();
    const call = (id: string, extra: Record<string, unknown>) => {
      // Progress every 0.3 s for 6 s, against a 2 s timeout: a loaded machine may delay a progress
      // notification by well over a second and the call that resets on progress still lives.
      client.send({ type: 'request', session: session.id, id, method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 6, steps: 20 } }, ...extra });
      return client.until(() => client.messages.find((m): m is Of<'response'> => m.type === 'response' && m.id === id), 60_000);
    };
    const [reset, noReset, capped] = await Promise.all([
      call('reset', { timeoutMs: 2_000 }),
      call('no-reset', { timeoutMs: 2_000, resetTimeoutOnProgress: false }),
      call('capped', { timeoutMs: 2_000, maxTotalTimeoutMs: 3_000 }),
    ]);
    expect(reset.ok).toBe(true);
    expect(noReset).toMatchObject({ ok: false, error: { code: -32001, message: expect.stringContaining('no answer within 2000 ms') } });
    expect(capped).toMatchObject({ ok: false, error: { code: -32001, message: expect.stringContaining('maximum of 3000 ms') } });
    await client.until(() => client.events.filter((e) => e.kind === 'frame' && e.method === 'notifications/cancelled').length >= 2);
  });
});
