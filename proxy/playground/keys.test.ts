/**
 * Where a Playground key may go (playground-keys.ts, issue 21 item 9): a provider's key from the
 * environment to that provider's own API only, a typed key to the origin it was typed for. Checked
 * on the key store, then through the hub against a scripted model server (e2e/fixtures/llm-openai.mjs)
 * that records every request it gets: a refused key never leaves Loupe.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hub } from '../faces/web/hub.ts';
import { configurePlayground } from '../faces/web/playground.ts';
import { KeyStore } from './keys.ts';
import { startLlmFixture, stopChild } from '../testing/children.ts';
import { asWs, FakeSocket } from '../testing/socket.ts';

const KEY = 'test-key';
const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: 'sk-ant-env', GROQ_API_KEY: 'gsk-env', MY_GATEWAY_API_KEY: KEY };

describe('KeyStore.resolve: keys from the environment', () => {
  const keys = new KeyStore(env);
  const resolve = (kind: 'openai-compatible' | 'anthropic', baseUrl: string, apiKeyRef?: string) => keys.resolve({ kind, baseUrl, apiKeyRef });

  it("a provider's key goes to its own API, named or picked by the base URL", () => {
    expect(resolve('openai-compatible', 'https://api.openai.com/v1', 'env:OPENAI_API_KEY')).toEqual({ ok: true, key: KEY });
    expect(resolve('openai-compatible', '', 'env:OPENAI_API_KEY')).toEqual({ ok: true, key: KEY });
    expect(resolve('anthropic', '', 'env:ANTHROPIC_API_KEY')).toEqual({ ok: true, key: 'sk-ant-env' });
    expect(resolve('openai-compatible', 'https://api.groq.com/openai/v1', 'env:GROQ_API_KEY')).toEqual({ ok: true, key: 'gsk-env' });
    expect(resolve('openai-compatible', 'https://api.groq.com/openai/v1')).toEqual({ ok: true, key: 'gsk-env' });
  });

  it('and nowhere else: another host, plain http, another port, another provider', () => {
    for (const [kind, baseUrl, ref] of [
      ['openai-compatible', 'http://127.0.0.1:11434/v1', 'env:OPENAI_API_KEY'],
      ['openai-compatible', 'https://api.openai.com.evil.example/v1', 'env:OPENAI_API_KEY'],
      ['openai-compatible', 'http://api.openai.com/v1', 'env:OPENAI_API_KEY'],
      ['openai-compatible', 'https://api.openai.com:8443/v1', 'env:OPENAI_API_KEY'],
      ['anthropic', '', 'env:OPENAI_API_KEY'],
      ['openai-compatible', 'https://api.groq.com/openai/v1', 'env:OPENAI_API_KEY'],
    ] as const) {
      const got = resolve(kind, baseUrl, ref);
      expect(got.ok, `${kind} ${baseUrl}`).toBe(false);
      if (!got.ok) expect(got.error).toEqual({ code: 'NO_KEY', message: expect.stringMatching(/^OPENAI_API_KEY is OpenAI's key: Loupe sends it to https:\/\/api\.openai\.com only, not to .+\. Type the key for this base URL into the page instead\.$/) });
    }
    // Without a reference, a look-alike over plain http gets no key either.
    expect(resolve('openai-compatible', 'http://api.openai.com/v1')).toEqual({ ok: true, key: undefined });
  });

  it('a variable named for no provider goes where its reference is used', () => {
    expect(resolve('openai-compatible', 'http://127.0.0.1:11434/v1', 'env:MY_GATEWAY_API_KEY')).toEqual({ ok: true, key: KEY });
  });
});

describe('through the hub, against a model server that records what it gets', () => {
  const started: ChildProcess[] = [];
  let origin = '';
  beforeAll(async () => {
    origin = await startLlmFixture('llm-openai.mjs', started);
  }, 90_000);
  afterAll(() => Promise.all(started.map(stopChild)));

  const received = async () => (await (await fetch(`${origin}/debug/requests`)).json()) as { headers: Record<string, string> }[];

  it("OPENAI_API_KEY never reaches a local server; a key meant for it does", async () => {
    await fetch(`${origin}/debug/requests`, { method: 'DELETE' });
    const hub = new Hub();
    configurePlayground(hub, { env });
    const session = hub.createSession({ kind: 'stdio', command: 'x', args: [], env: {} });
    const tab = new FakeSocket();
    hub.attach(asWs(tab));
    const call = (requestId: string, apiKeyRef: string) =>
      tab.receive({ type: 'playground-call', requestId, session: session.id, config: { kind: 'openai-compatible', baseUrl: `${origin}/v1`, model: 'script-text', apiKeyRef }, request: { messages: [{ role: 'user', text: 'hi' }], tools: [] }, stream: false });

    call('refused', 'env:OPENAI_API_KEY');
    expect((await tab.next('playground-reply', 'refused')).error).toMatchObject({ code: 'NO_KEY', message: expect.stringContaining("OPENAI_API_KEY is OpenAI's key") });
    expect(await received()).toEqual([]);

    call('meant', 'env:MY_GATEWAY_API_KEY');
    expect((await tab.next('playground-reply', 'meant')).reply?.stopReason).toBe('end');
    expect(await received()).toHaveLength(1);
  });
});
