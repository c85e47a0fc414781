/**
 * The Playground through the hub (hub-playground.ts), with stand-in sockets as in hub.test.ts and
 * the scripted model servers (e2e/fixtures/llm-*.mjs) as child processes: a typed key becomes a
 * reference, a call is recorded as a `provider` event in the session's trace with the key masked,
 * the environment's keys are listed by name, and no message to a page carries a key.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hub } from './hub.ts';
import { asWs, FakeSocket } from '../../testing/socket.ts';
import { configurePlayground } from './playground.ts';
import { startLlmFixture, stopChild } from '../../testing/children.ts';

const KEY = 'test-key';
const started: ChildProcess[] = [];
let openai = '';
let anthropic = '';


const startFixture = async (file: string): Promise<string> => `${await startLlmFixture(file, started)}/v1`;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startFixture('llm-openai.mjs'), startFixture('llm-anthropic.mjs')]);
}, 90_000);

afterAll(() => Promise.all(started.map(stopChild)));

/** A hub whose environment holds `env`, one session (never started: its trace is what counts), and a tab. */
function setUp(env: Record<string, string> = {}) {
  const hub = new Hub();
  configurePlayground(hub, { env });
  const session = hub.createSession({ kind: 'stdio', command: 'x', args: [], env: {} });
  const tab = new FakeSocket();
  hub.attach(asWs(tab));
  return { hub, session, tab };
}

const call = (requestId: string, session: string, config: Record<string, unknown>, stream: boolean, text = 'hello') => ({
  type: 'playground-call',
  requestId,
  session,
  config: { model: 'script-text', ...config },
  request: { system: 'Be brief.', messages: [{ role: 'user', text }], tools: [] },
  stream,
});

describe('keys', () => {
  it('the environment keys are in the snapshot by name, never by value', () => {
    const { tab } = setUp({ OPENAI_API_KEY: 'sk-from-the-environment', GROQ_API_KEY: '  ', ANTHROPIC_API_KEY: 'sk-ant-environment', PATH: '/usr/bin' });
    const snapshot = tab.sent[0];
    expect(snapshot.type === 'snapshot' && snapshot.playgroundKeys).toEqual({
      env: [
        { name: 'ANTHROPIC_API_KEY', provider: 'anthropic', label: 'Anthropic', baseUrl: 'https://api.anthropic.com/v1' },
        { name: 'OPENAI_API_KEY', provider: 'openai-compatible', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1' },
      ],
      memory: [],
    });
    expect(tab.texts.join('\n')).not.toMatch(/sk-from-the-environment|sk-ant-environment/);
  });

  it('a typed key becomes a memory reference, every tab hears of it, and forgetting it takes it away', async () => {
    const { hub, session, tab } = setUp();
    const other = new FakeSocket();
    hub.attach(asWs(other));
    tab.receive({ type: 'playground-set-key', requestId: 'k1', provider: 'openai-compatible', baseUrl: openai, key: ` ${KEY}\n` });
    const set = await tab.next('playground-key-set', 'k1');
    expect(set.apiKeyRef).toMatch(/^memory:[A-Za-z0-9_-]{16}$/);
    const keys = await other.next('playground-keys');
    expect(keys.memory).toEqual([{ apiKeyRef: set.apiKeyRef, provider: 'openai-compatible', origin: new URL(openai).origin }]);

    // Another origin may not use it (a changed base URL must not carry the key elsewhere).
    tab.receive(call('c0', session.id, { kind: 'openai-compatible', baseUrl: anthropic, apiKeyRef: set.apiKeyRef }, false));
    expect((await tab.next('playground-reply', 'c0')).error).toEqual({ code: 'NO_KEY', message: `The API key was typed for ${new URL(openai).origin}, and the base URL now points elsewhere: type the key again for the new base URL.` });

    tab.receive({ type: 'playground-forget-key', apiKeyRef: set.apiKeyRef });
    await new Promise((r) => setTimeout(r, 50));
    expect(other.sent.filter((m) => m.type === 'playground-keys').at(-1)).toMatchObject({ memory: [] });
    tab.receive(call('c1', session.id, { kind: 'openai-compatible', baseUrl: openai, apiKeyRef: set.apiKeyRef }, false));
    expect((await tab.next('playground-reply', 'c1')).error?.message).toBe('Loupe no longer holds the API key typed for this provider (it was forgotten, or Loupe was restarted): type it again.');
    expect([...tab.texts, ...other.texts].join('\n')).not.toContain(KEY);
  });

  it('refuses an empty key, an unset variable and a variable that is not an API key, in words', async () => {
    const { session, tab } = setUp({ PATH: '/usr/bin' });
    tab.receive({ type: 'playground-set-key', requestId: 'k', provider: 'anthropic', baseUrl: '', key: '  ' });
    expect((await tab.next('playground-key-set', 'k')).error?.message).toBe('The API key is empty: paste the key, or leave it out for a server that takes none.');
    tab.receive(call('a', session.id, { kind: 'anthropic', baseUrl: anthropic, apiKeyRef: 'env:ANTHROPIC_API_KEY' }, false));
    expect((await tab.next('playground-reply', 'a')).error?.message).toBe("ANTHROPIC_API_KEY is not set in Loupe's environment: set it and restart Loupe, or type the key into the page.");
    tab.receive(call('b', session.id, { kind: 'anthropic', baseUrl: anthropic, apiKeyRef: 'env:PATH' }, false));
    expect((await tab.next('playground-reply', 'b')).error?.code).toBe('NO_KEY');
  });
});

describe('calls', () => {
  it('a streamed call: deltas, then the reply with the seq of its provider event, the key masked there', async () => {
    const { session, tab } = setUp();
    tab.receive({ type: 'subscribe', sessions: ['*'] });
    tab.receive({ type: 'playground-set-key', requestId: 'k', provider: 'openai-compatible', baseUrl: openai, key: KEY });
    const { apiKeyRef } = await tab.next('playground-key-set', 'k');
    tab.receive(call('c', session.id, { kind: 'openai-compatible', baseUrl: openai, apiKeyRef }, true, 'hello there'));
    const reply = await tab.next('playground-reply', 'c');
    expect(reply.error).toBeUndefined();
    expect(reply.reply?.message.parts).toEqual([{ type: 'text', text: 'You said: hello there' }]);
    expect(reply.latencyMs).toBeGreaterThan(0);
    // Deltas are batched: fewer messages than deltas, all of them before the reply.
    const deltaMessages = tab.sent.filter((m) => m.type === 'playground-delta');
    const deltas = deltaMessages.flatMap((m) => m.deltas);
    expect(deltas.map((d) => (d.type === 'text' ? d.text : '')).join('')).toBe('You said: hello there');
    expect(deltaMessages.length).toBeLessThan(deltas.length);
    expect(tab.sent.indexOf(deltaMessages.at(-1)!)).toBeLessThan(tab.sent.indexOf(reply));

    const event = session.trace.all().find((e) => e.seq === reply.exchangeSeq);
    expect(event).toMatchObject({ kind: 'provider', exchange: 'chat', provider: 'openai-compatible', model: 'script-text', status: 200, stream: true });
    expect(event?.kind === 'provider' && event.requestHeaders.authorization).toBe('Bearer •••• (8 chars, secret)');
    // The tab subscribed: the event reaches it too, and nothing it got holds the key.
    await new Promise((r) => setTimeout(r, 100));
    expect(tab.sent.some((m) => m.type === 'events' && m.events.some((e) => e.kind === 'provider'))).toBe(true);
    expect(JSON.stringify(session.trace.all())).not.toContain(KEY);
    expect(tab.texts.join('\n')).not.toContain(KEY);
  });

  it('a key from the environment, a model list recorded in the session, and failures as words', async () => {
    // A variable named for no provider: ANTHROPIC_API_KEY itself goes to api.anthropic.com only (playground-keys.ts).
    const { session, tab } = setUp({ FIXTURE_API_KEY: KEY });
    const config = { kind: 'anthropic', baseUrl: anthropic, apiKeyRef: 'env:FIXTURE_API_KEY' };
    tab.receive({ type: 'playground-models', requestId: 'm', session: session.id, config: { ...config, model: '' } });
    const models = await tab.next('playground-models-result', 'm');
    expect(models.models?.map((m) => m.id)).toContain('script-two-tools');
    expect(session.trace.all().find((e) => e.seq === models.exchangeSeq)).toMatchObject({ kind: 'provider', exchange: 'models', status: 200 });

    tab.receive(call('ok', session.id, config, false));
    expect((await tab.next('playground-reply', 'ok')).reply?.stopReason).toBe('end');
    tab.receive(call('429', session.id, { ...config, model: 'fail-429' }, false));
    const limited = await tab.next('playground-reply', '429');
    expect(limited.error?.message).toMatch(/^The Anthropic API is limiting requests \(HTTP 429: rate_limit_error: .*\)\. Wait a little, then send again\.$/);
    expect(session.trace.all().find((e) => e.seq === limited.exchangeSeq)).toMatchObject({ kind: 'provider', status: 429, error: limited.error?.message });
    expect(JSON.stringify(session.trace.all())).not.toContain(KEY);
    expect(tab.texts.join('\n')).not.toContain(KEY);
  });

  it('Stop through the hub cancels a call in flight', async () => {
    const { session, tab } = setUp({ FIXTURE_API_KEY: KEY });
    const before = Date.now();
    tab.receive(call('slow', session.id, { kind: 'openai-compatible', baseUrl: openai, apiKeyRef: 'env:FIXTURE_API_KEY', model: 'script-slow-reply' }, true));
    await new Promise((r) => setTimeout(r, 200));
    tab.receive({ type: 'playground-cancel', requestId: 'slow' });
    const reply = await tab.next('playground-reply', 'slow');
    expect(reply.error).toEqual({ code: 'CANCELLED', message: 'Stopped: Loupe cancelled the call to the model.' });
    expect(Date.now() - before, 'stopped, not the reply 30 s later').toBeLessThan(20_000);
    expect(session.trace.all().find((e) => e.seq === reply.exchangeSeq)).toMatchObject({ kind: 'provider', error: 'Stopped: Loupe cancelled the call to the model.' });
  });

  it('a call for a session that is not there is answered, not dropped', async () => {
    const { tab } = setUp();
    tab.receive(call('x', 's404', { kind: 'openai-compatible', baseUrl: openai }, false));
    expect((await tab.next('playground-reply', 'x')).error?.code).toBe('NO_SESSION');
  });
});
