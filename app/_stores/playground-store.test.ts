import { describe, expect, it } from 'vitest';
import type { ModelReply, PlaygroundTool } from '../../lib/playground/types.ts';
import type { ClientMessage } from '../../lib/wire/wire.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';
import type { RunHost } from './playground-run.ts';
import { keySource, PlaygroundStore, type SendContext } from './playground-store.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';

/** The fixture host, with the session request path: the test answers each request. */
class Host extends MessageHostFixture implements RunHost {
  readonly requests: { session: string; method: string; params?: Record<string, unknown>; id: string; answer(outcome: RequestOutcome): void }[] = [];
  readonly cancels: { session: string; id: string }[] = [];
  request(session: string, method: string, params?: Record<string, unknown>, id = 'x'): Promise<RequestOutcome> {
    return new Promise((answer) => this.requests.push({ session, method, params, id, answer }));
  }
  cancel(session: string, id: string): void {
    this.cancels.push({ session, id });
  }
  last<T extends ClientMessage['type']>(type: T): Extract<ClientMessage, { type: T }> {
    const found = this.sent.filter((m) => m.type === type).at(-1);
    if (!found) throw new Error(`no ${type} sent`);
    return found as Extract<ClientMessage, { type: T }>;
  }
  count(type: ClientMessage['type']): number {
    return this.sent.filter((m) => m.type === type).length;
  }
}

const ECHO: PlaygroundTool = { name: 'echo', server: 'everything', tool: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }, readOnly: false };
const CTX: SendContext = { tools: [ECHO], sessions: { everything: 's1' }, record: 's1' };
const callsEcho = (id: string): ModelReply => ({ message: { role: 'assistant', parts: [{ type: 'text', text: 'Let me echo.' }, { type: 'tool_call', call: { id, name: 'echo', arguments: { message: 'hi' }, argumentsText: '{"message":"hi"}' } }] }, stopReason: 'tool_use', usage: { inputTokens: 10, outputTokens: 5 } });
const says = (text: string): ModelReply => ({ message: { role: 'assistant', parts: [{ type: 'text', text }] }, stopReason: 'end', usage: { inputTokens: 20, outputTokens: 7 } });

function setUp() {
  const host = new Host();
  const store = new PlaygroundStore(host);
  store.setProvider(0, { model: 'script-echo', baseUrl: 'http://127.0.0.1:9/v1' });
  return { host, store };
}

describe('PlaygroundStore', () => {
  it('hands a typed key to the proxy and keeps only the reference it answers with', () => {
    const { host, store } = setUp();
    expect(store.setKey(0, 'sk-secret-123')).toBe(true);
    // Not even while the proxy's answer is awaited.
    expect(JSON.stringify(store.getSnapshot())).not.toContain('sk-secret-123');
    const asked = host.last('playground-set-key');
    expect(asked).toMatchObject({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', key: 'sk-secret-123' });
    host.deliver({ type: 'playground-key-set', requestId: asked.requestId, apiKeyRef: 'memory:abc' });
    expect(store.getSnapshot().providers[0].apiKeyRef).toBe('memory:abc');
    expect(JSON.stringify(store.getSnapshot())).not.toContain('sk-secret-123');
    // No model list is asked for by itself (Loupe calls no provider on its own); List models asks, with the reference.
    expect(host.count('playground-models')).toBe(0);
    store.fetchModels(0);
    expect(host.last('playground-models').config.apiKeyRef).toBe('memory:abc');
    host.deliver({ type: 'playground-models-result', requestId: host.last('playground-models').requestId, models: [{ id: 'script-echo' }, { id: 'script-text' }] });
    expect(store.getSnapshot().providers[0].models?.ids).toEqual(['script-echo', 'script-text']);
  });

  it('says which environment key fits, and a typed key bound to another origin is not used', () => {
    const keys = { env: [{ name: 'OPENAI_API_KEY', provider: 'openai-compatible' as const, label: 'OpenAI', baseUrl: 'https://api.openai.com/v1' }], memory: [{ apiKeyRef: 'memory:m', provider: 'openai-compatible' as const, origin: 'http://127.0.0.1:9' }] };
    expect(keySource({ kind: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', model: '' }, keys)).toEqual({ kind: 'env', name: 'OPENAI_API_KEY' });
    expect(keySource({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: '' }, keys)).toEqual({ kind: 'none' });
    expect(keySource({ kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: '' }, keys)).toEqual({ kind: 'typed', apiKeyRef: 'memory:m' });
    expect(keySource({ kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:10/v1', model: '', apiKeyRef: 'memory:m' }, keys)).toEqual({ kind: 'typed-elsewhere', origin: 'http://127.0.0.1:9' });
  });

  it('runs a turn: streamed call, approval, tools/call on the tool’s session, the result back to the model', async () => {
    const { host, store } = setUp();
    const run = store.runs[0];
    expect(store.send('hi', CTX)).toBe(true);
    const call = host.last('playground-call');
    expect(call).toMatchObject({ session: 's1', stream: true, config: { kind: 'openai-compatible', model: 'script-echo' }, request: { messages: [{ role: 'user', text: 'hi' }] } });
    host.deliver({ type: 'playground-delta', requestId: call.requestId, deltas: [{ type: 'text', text: 'Let me' }, { type: 'text', text: ' echo.' }, { type: 'tool_call_start', index: 0, id: 'c1', name: 'echo' }, { type: 'tool_call_arguments', index: 0, fragment: '{"mess' }] });
    expect(run.getSnapshot().streaming).toEqual({ text: 'Let me echo.', calls: [{ name: 'echo', arguments: '{"mess' }] });
    host.deliver({ type: 'playground-reply', requestId: call.requestId, reply: callsEcho('c1'), latencyMs: 12, exchangeSeq: 40 });
    expect(run.getSnapshot().loop.status).toBe('awaiting-approval');
    expect(run.getSnapshot().exchanges[0]).toEqual({ session: 's1', seq: 40 });
    expect(host.requests).toHaveLength(0);

    store.decide(0, 'c1', 'approve');
    expect(host.requests).toHaveLength(1);
    const req = host.requests[0];
    expect(req).toMatchObject({ session: 's1', method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } });
    host.deliver({ type: 'response', id: req.id, session: 's1', ok: true, result: { content: [{ type: 'text', text: 'Echo: hi' }] }, durationMs: 3, rpcId: 7 });
    expect(run.getSnapshot().links.c1).toEqual({ session: 's1', requestId: req.id, rpcId: 7 });
    req.answer({ ok: true, result: { content: [{ type: 'text', text: 'Echo: hi' }] }, durationMs: 3 });
    await Promise.resolve();
    await Promise.resolve();

    const second = host.last('playground-call');
    expect(second.requestId).not.toBe(call.requestId);
    expect(second.request.messages.at(-1)).toEqual({ role: 'tool', results: [{ callId: 'c1', content: [{ type: 'text', text: 'Echo: hi' }], isError: false }] });
    host.deliver({ type: 'playground-reply', requestId: second.requestId, reply: says('The tool said: Echo: hi'), latencyMs: 5 });
    expect(run.getSnapshot().loop.status).toBe('done');
  });

  it('Stop cancels the tool call in flight with the usual cancel, and a model call with playground-cancel', () => {
    const { host, store } = setUp();
    store.setOptions({ approveEvery: true });
    store.send('hi', CTX);
    host.deliver({ type: 'playground-reply', requestId: host.last('playground-call').requestId, reply: callsEcho('c1'), latencyMs: 1 });
    expect(host.requests).toHaveLength(1);
    store.stop();
    expect(host.cancels).toEqual([{ session: 's1', id: host.requests[0].id }]);
    expect(store.runs[0].getSnapshot().loop.turns[0].calls[0].status).toBe('cancelled');

    store.send('again', CTX);
    const call = host.last('playground-call');
    store.stop();
    expect(host.last('playground-cancel')).toEqual({ type: 'playground-cancel', requestId: call.requestId });
    // The CANCELLED answer that follows changes nothing.
    host.deliver({ type: 'playground-reply', requestId: call.requestId, error: { code: 'CANCELLED', message: 'Stopped.' }, latencyMs: 2 });
    expect(store.runs[0].getSnapshot().loop.status).toBe('stopped');
  });

  it('a provider failure ends the turn in the proxy’s words; a dropped socket ends a model call', () => {
    const { host, store } = setUp();
    store.send('hi', CTX);
    host.deliver({ type: 'playground-reply', requestId: host.last('playground-call').requestId, error: { code: 'UNAUTHORIZED', message: 'OpenAI-compatible API refused the API key (HTTP 401).', status: 401 }, latencyMs: 2 });
    expect(store.runs[0].getSnapshot().loop.turns[0].error).toMatch(/refused the API key/);
    store.send('again', CTX);
    host.deliver({ type: 'snapshot', sessions: [], order: [], events: [], stats: [] } as never);
    expect(store.runs[0].getSnapshot().loop.status).toBe('failed');
    expect(store.runs[0].getSnapshot().loop.reason).toMatch(/connection to Loupe dropped/);
  });

  it('Compare sends the message to both models, each with its own settings', () => {
    const { host, store } = setUp();
    store.setCompare(true);
    expect(store.sendProblem(CTX)).toMatch(/Second model/);
    store.setKind(1, 'anthropic');
    store.setProvider(1, { model: 'script-two-tools' });
    store.send('hi', CTX);
    const calls = host.sent.filter((m) => m.type === 'playground-call');
    expect(calls.map((c) => [c.config.kind, c.config.model, c.config.baseUrl])).toEqual([
      ['openai-compatible', 'script-echo', 'http://127.0.0.1:9/v1'],
      ['anthropic', 'script-two-tools', 'https://api.anthropic.com/v1'],
    ]);
  });

  it("a view's message goes into its own conversation only, once that conversation can take it", () => {
    const { host, store } = setUp();
    store.setCompare(true);
    store.setProvider(1, { model: 'script-text' });
    expect(store.messageProblem(0, undefined)).toMatch(/Connect a server/);
    store.send('hi', CTX);
    expect(store.messageProblem(0, CTX)).toMatch(/busy/);
    expect(store.sendTo(0, 'Hello from the view', CTX)).toBe(false);
    for (const call of host.sent.filter((m) => m.type === 'playground-call')) host.deliver({ type: 'playground-reply', requestId: call.requestId, reply: says('Hello.'), latencyMs: 2 });
    expect(store.messageProblem(1, CTX)).toBeUndefined();
    expect(store.sendTo(1, '  ', CTX)).toBe(false);
    expect(store.sendTo(1, 'Hello from the view', CTX)).toBe(true);
    expect(host.last('playground-call').config.model).toBe('script-text');
    expect(store.runs[1].getSnapshot().loop.messages.at(-1)).toEqual({ role: 'user', text: 'Hello from the view' });
    expect(store.runs[0].getSnapshot().loop.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    store.setProvider(0, { model: '' });
    expect(store.messageProblem(0, CTX)).toMatch(/Model/);
  });

  it('exports without any key, imports, and Re-run sends the user messages again one after another', () => {
    const { host, store } = setUp();
    store.setKey(0, 'sk-secret-123');
    host.deliver({ type: 'playground-key-set', requestId: host.last('playground-set-key').requestId, apiKeyRef: 'memory:abc' });
    store.send('first', CTX);
    host.deliver({ type: 'playground-reply', requestId: host.last('playground-call').requestId, reply: says('one'), latencyMs: 1 });
    store.send('second', CTX);
    host.deliver({ type: 'playground-reply', requestId: host.last('playground-call').requestId, reply: says('two'), latencyMs: 1 });
    const text = store.exportText(CTX.tools);
    expect(text).not.toContain('sk-secret-123');
    expect(text).not.toContain('memory:abc');
    expect(text).not.toContain('apiKeyRef');
    const file = JSON.parse(text);
    expect(file.conversations[0].usage).toEqual({ inputTokens: 40, outputTokens: 14 });
    expect(file.tools.map((t: PlaygroundTool) => t.name)).toEqual(['echo']);

    const other = new PlaygroundStore(new Host());
    expect(other.importText('bad.json', '{"format": "nope"}')).toBe(false);
    expect(other.getSnapshot().importError).toMatch(/^bad\.json: The file is not a Playground conversation/);
    const fresh = setUp();
    expect(fresh.store.importText('conversation.json', text)).toBe(true);
    expect(fresh.store.getSnapshot().providers[0]).toMatchObject({ model: 'script-echo', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(fresh.store.rerun(CTX)).toBe(true);
    const texts = () => fresh.host.sent.flatMap((m) => (m.type === 'playground-call' ? [m.request.messages.filter((x) => x.role === 'user').map((x) => (x as { text: string }).text)] : []));
    expect(texts()).toEqual([['first']]);
    fresh.host.deliver({ type: 'playground-reply', requestId: fresh.host.last('playground-call').requestId, reply: says('one'), latencyMs: 1 });
    expect(texts()).toEqual([['first'], ['first', 'second']]);
  });
});
