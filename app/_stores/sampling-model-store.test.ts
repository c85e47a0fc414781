import { describe, expect, it } from 'vitest';
import { parseSampling } from '../../lib/client/sampling.ts';
import type { ClientMessage, ServerMessage, ServerRequest } from '../../lib/wire/wire.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';
import type { RunHost } from './playground-run.ts';
import { PlaygroundStore } from './playground-store.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';
import { askSetup, SamplingModelStore } from './sampling-model-store.ts';

/** The fixture host, with the run path the Playground store needs and room for both stores' listeners. */
class Host extends MessageHostFixture implements RunHost {
  private readonly listeners = new Set<(message: ServerMessage) => void>();
  override onMessage(listener: (message: ServerMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  override deliver(message: ServerMessage): void {
    this.listeners.forEach((listener) => listener(message));
  }
  request(): Promise<RequestOutcome> {
    return new Promise(() => undefined);
  }
  cancel(): void {}
  last<T extends ClientMessage['type']>(type: T): Extract<ClientMessage, { type: T }> {
    const found = this.sent.filter((m) => m.type === type).at(-1);
    if (!found) throw new Error(`no ${type} sent`);
    return found as Extract<ClientMessage, { type: T }>;
  }
}

const PARAMS = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], systemPrompt: 'Be brief.', maxTokens: 100, temperature: 0.7, modelPreferences: { hints: [{ name: 'text' }] } };
const REQUEST: ServerRequest = { session: 's1', requestId: 'r1', rpcId: 3, method: 'sampling/createMessage', params: PARAMS, receivedAt: 1, deadline: 60_000 };
const VIEW = parseSampling(PARAMS);

function setUp(model = 'script-echo') {
  const host = new Host();
  const playground = new PlaygroundStore(host);
  playground.setProvider(0, { baseUrl: 'http://127.0.0.1:9/v1', model });
  const store = new SamplingModelStore(host, playground);
  return { host, playground, store };
}

describe('SamplingModelStore', () => {
  it('asks the Playground’s model in the requesting session’s trace, and keeps its answer as a suggestion only', () => {
    const { host, playground, store } = setUp();
    // The hint "text" matches a model the endpoint listed when the person pressed List models.
    playground.fetchModels(0);
    host.deliver({ type: 'playground-models-result', requestId: host.last('playground-models').requestId, models: [{ id: 'script-echo' }, { id: 'script-text' }] });
    expect(store.ask(REQUEST, VIEW)).toBe(true);
    const call = host.last('playground-call');
    expect(call).toMatchObject({ session: 's1', stream: false, config: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'script-text', maxTokens: 100 }, request: { system: 'Be brief.', messages: [{ role: 'user', text: 'Say hi' }] } });
    const asking = store.getSnapshot()['s1/r1'];
    expect(asking).toMatchObject({ status: 'asking', choice: { model: 'script-text', why: expect.stringContaining('“text”') } });
    expect(asking.notes.join(' ')).toContain('temperature 0.7 is not passed on');

    host.deliver({ type: 'playground-reply', requestId: call.requestId, reply: { message: { role: 'assistant', parts: [{ type: 'text', text: 'Hi!' }] }, stopReason: 'end', stopReasonRaw: 'stop', model: 'script-text' }, latencyMs: 12, exchangeSeq: 40 });
    expect(store.getSnapshot()['s1/r1']).toMatchObject({ status: 'answered', exchangeSeq: 40, suggestion: { draft: { role: 'assistant', kind: 'text', text: 'Hi!', model: 'script-text', stopReason: 'endTurn' } } });
    // Nothing was answered to the server: that is the person's click in the reply editor.
    expect(host.sent.some((m) => m.type === 'respond')).toBe(false);
  });

  it('shows a provider’s refusal in words, and says so when no model is set up', () => {
    const { host, store } = setUp();
    store.ask(REQUEST, VIEW);
    host.deliver({ type: 'playground-reply', requestId: host.last('playground-call').requestId, error: { code: 'UNAUTHORIZED', status: 401, message: 'The provider refused the API key (HTTP 401). Check the key.' }, latencyMs: 3, exchangeSeq: 7 });
    expect(store.getSnapshot()['s1/r1']).toMatchObject({ status: 'failed', error: 'The provider refused the API key (HTTP 401). Check the key.', exchangeSeq: 7 });

    const bare = setUp('');
    expect(askSetup(bare.playground.getSnapshot())).toEqual({ ready: false, words: expect.stringContaining('No model is set up in the Playground') });
    expect(bare.store.ask(REQUEST, VIEW)).toBe(false);
    expect(bare.store.getSnapshot()['s1/r1'].error).toContain('No model is set up in the Playground');
    expect(bare.host.sent.some((m) => m.type === 'playground-call')).toBe(false);
  });

  it('stops the call when the request ends elsewhere, and fails it when the socket is replaced', () => {
    const { host, store } = setUp();
    store.ask(REQUEST, VIEW);
    const first = host.last('playground-call').requestId;
    host.deliver({ type: 'server-request-done', session: 's1', requestId: 'r1', how: 'timed-out' });
    expect(host.last('playground-cancel').requestId).toBe(first);
    expect(store.getSnapshot()['s1/r1']).toBeUndefined();
    // A late reply to the stopped call changes nothing.
    host.deliver({ type: 'playground-reply', requestId: first, reply: { message: { role: 'assistant', parts: [] }, stopReason: 'end' }, latencyMs: 1 });
    expect(store.getSnapshot()['s1/r1']).toBeUndefined();

    store.ask(REQUEST, VIEW);
    host.deliver({ type: 'snapshot', sessions: [], order: [], serverRequests: [] } as never);
    expect(store.getSnapshot()['s1/r1']).toMatchObject({ status: 'failed', error: expect.stringContaining('dropped') });
    host.open = false;
    expect(store.ask(REQUEST, VIEW)).toBe(false);
    expect(store.getSnapshot()['s1/r1'].error).toContain('Not connected to Loupe');
  });

  it('says which endpoint, key and model it will use', () => {
    const { playground } = setUp();
    expect(askSetup(playground.getSnapshot()).words).toBe('Uses the Playground’s OpenAI-compatible endpoint http://127.0.0.1:9/v1 with no key; model script-echo unless a hint of the server matches another.');
  });
});
