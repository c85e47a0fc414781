/**
 * The Playground's adapters and loop against real HTTP: the two fixture model servers
 * (e2e/fixtures/llm-openai.mjs, llm-anthropic.mjs) run as child processes, each request is built by
 * the adapter, sent with fetch, and read back by the adapter (streamed and not); the tool calls go
 * to a real server-everything over stdio. What the proxy will do, minus the page.
 */
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, createLoop, loopSteps, type LoopEffect, type LoopState } from '../../lib/playground/loop.ts';
import { buildToolset, jsonOf, textOf, type ModelReply, type ModelRequest, type Outcome, type ProviderAdapter, type ProviderConfig, type StreamDelta } from '../../lib/playground/types.ts';
import { anthropicAdapter } from '../../lib/providers/anthropic.ts';
import { openaiAdapter } from '../../lib/providers/openai.ts';
import { startLlmFixture, stopChild } from '../testing/children.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const KEY = 'test-key';
const started: ChildProcess[] = [];

const startFixture = (file: string): Promise<string> => startLlmFixture(file, started);

interface Provider {
  label: string;
  adapter: ProviderAdapter;
  base: string;
}
const providers: Provider[] = [
  { label: 'Anthropic', adapter: anthropicAdapter, base: '' },
  { label: 'OpenAI-compatible', adapter: openaiAdapter, base: '' },
];
let client: Client;
let tools: Awaited<ReturnType<Client['listTools']>>['tools'];

beforeAll(async () => {
  const [anthropic, openai] = await Promise.all([startFixture('llm-anthropic.mjs'), startFixture('llm-openai.mjs')]);
  providers[0].base = `${anthropic}/v1`;
  providers[1].base = `${openai}/v1`;
  client = new Client({ name: 'llm-fixtures-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')], stderr: 'ignore' }));
  tools = (await client.listTools()).tools;
}, 90_000);

afterAll(async () => {
  await client?.close();
  await Promise.all(started.map(stopChild));
});

const configOf = (p: Provider, model: string): ProviderConfig => ({ kind: p.adapter.kind, baseUrl: p.base, model, apiKeyRef: 'env:TEST' });

/** One model call, as the proxy makes it: the adapter builds it, fetch sends it, the adapter reads it. */
async function callModel(p: Provider, config: ProviderConfig, request: ModelRequest, stream: boolean, key = KEY): Promise<{ outcome: Outcome<ModelReply>; deltas: StreamDelta[] }> {
  const response = await fetch(p.adapter.url(config.baseUrl, 'chat'), { method: 'POST', headers: p.adapter.headers(key), body: JSON.stringify(p.adapter.body(config, request, stream)) });
  if (!response.ok) return { outcome: { ok: false, error: p.adapter.httpError(response.status, await response.text()) }, deltas: [] };
  if (!stream) return { outcome: p.adapter.parseReply(jsonOf(await response.text())), deltas: [] };
  const reader = p.adapter.stream();
  const deltas: StreamDelta[] = [];
  const body = response.body!.getReader();
  for (let read = await body.read(); !read.done; read = await body.read()) deltas.push(...reader.push(read.value));
  return { outcome: reader.end(), deltas };
}

/** Runs the loop to its end: every call approved, tools called on server-everything. */
async function converse(p: Provider, model: string, text: string, stream: boolean, options = {}): Promise<{ state: LoopState; effects: LoopEffect[] }> {
  const config = configOf(p, model);
  let state = createLoop({ tools: buildToolset([{ name: 'everything', tools }]).tools, system: 'Use the tools.', options });
  const effects: LoopEffect[] = [];
  const first = advance(state, { type: 'user-message', text, at: Date.now() });
  state = first.state;
  const queue = [...first.effects];
  while (queue.length > 0) {
    const effect = queue.shift()!;
    effects.push(effect);
    let next;
    if (effect.type === 'call-model') {
      const { outcome } = await callModel(p, config, effect.request, stream);
      next = advance(state, outcome.ok ? { type: 'model-reply', reply: outcome.value, at: Date.now() } : { type: 'model-error', message: outcome.error.message, at: Date.now() });
    } else if (effect.type === 'ask-approval') {
      for (const callId of effect.callIds) {
        const step = advance(state, { type: 'approval', callId, decision: 'approve', at: Date.now() });
        state = step.state;
        queue.push(...step.effects);
      }
      continue;
    } else if (effect.type === 'call-tool') {
      const result = await client.callTool({ name: effect.tool, arguments: effect.arguments });
      next = advance(state, { type: 'tool-result', callId: effect.callId, result: { content: result.content as never, isError: result.isError === true }, at: Date.now() });
    } else continue;
    state = next.state;
    queue.push(...next.effects);
  }
  return { state, effects };
}

async function requestsSeen(p: Provider): Promise<{ path: string; headers: Record<string, string>; bodyText: string; body: Record<string, unknown> }[]> {
  return (await fetch(p.base.replace(/\/v1$/, '/debug/requests'))).json();
}

describe.each(providers.map((p, i) => [p.label, i] as const))('%s fixture', (_label, i) => {
  const p = providers[i];

  describe.each([false, true])('stream: %s', (stream) => {
    it('a two-step conversation: the model calls echo on server-everything, then quotes its result', async () => {
      const { state } = await converse(p, 'script-echo', 'hello loupe', stream);
      expect(state.status).toBe('done');
      expect(loopSteps(state).map((s) => `${s.kind}: ${s.kind === 'act' ? `${s.call.call.name} ${JSON.stringify(s.call.call.arguments)}` : s.text}`)).toEqual([
        'think: Let me echo that.',
        'act: echo {"message":"hello loupe"}',
        'observe: Echo: hello loupe',
        'think: The tool said: Echo: hello loupe',
      ]);
      expect(state.turns.every((t) => (t.usage?.inputTokens ?? 0) > 0 && (t.usage?.outputTokens ?? 0) > 0)).toBe(true);
    });

    it('parallel calls are assembled, run, and their results all go back', async () => {
      const { state, effects } = await converse(p, 'script-two-tools', 'two at once', stream);
      expect(effects.filter((e) => e.type === 'call-tool').map((e) => e.type === 'call-tool' && [e.tool, e.arguments])).toEqual([
        ['echo', { message: 'first' }],
        ['get-sum', { a: 2, b: 3 }],
      ]);
      const last = state.turns.at(-1)!.reply!;
      expect(textOf(last.message)).toBe('The tool said: Echo: first | The sum of 2 and 3 is 5.');
    });

    it('arguments that fail the schema, or are not JSON, go back to the model as errors, not to the server', async () => {
      for (const script of ['script-bad-args', 'script-broken-json']) {
        const { state, effects } = await converse(p, script, 'bad', stream, { approveEvery: true });
        expect(effects.some((e) => e.type === 'call-tool')).toBe(false);
        expect(state.turns[0].calls[0].status).toBe('rejected');
        expect(textOf(state.turns[1].reply!.message)).toMatch(/^The tool said: (error: )?(Error: )?The call to "echo" was not made: /);
      }
    });

    it('failures in plain words: a wrong key, 429, 500, a broken body', async () => {
      const request: ModelRequest = { messages: [{ role: 'user', text: 'hi' }], tools: [] };
      const wrongKey = await callModel(p, configOf(p, 'script-text'), request, stream, 'wrong');
      expect(wrongKey.outcome).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED', status: 401 } });
      const codes = [];
      for (const model of ['fail-429', 'fail-500', 'bad-stream']) {
        const { outcome } = await callModel(p, configOf(p, model), request, stream);
        codes.push(outcome.ok ? 'ok' : outcome.error.code);
      }
      expect(codes).toEqual(['RATE_LIMITED', 'SERVER_ERROR', stream ? 'BAD_STREAM' : 'BAD_RESPONSE']);
    });
  });

  it('streams text as it arrives', async () => {
    const { outcome, deltas } = await callModel(p, configOf(p, 'script-text'), { messages: [{ role: 'user', text: 'hello there' }], tools: [] }, true);
    expect(outcome.ok && textOf(outcome.value.message)).toBe('You said: hello there');
    expect(deltas.filter((d) => d.type === 'text').length).toBeGreaterThan(3);
  });

  it('the key goes in its header only, never in the URL or the body', async () => {
    await fetch(p.base.replace(/\/v1$/, '/debug/requests'), { method: 'DELETE' });
    await converse(p, 'script-echo', 'where is the key', true);
    const seen = await requestsSeen(p);
    expect(seen.length).toBe(2);
    for (const request of seen) {
      expect(request.headers[p.adapter.kind === 'anthropic' ? 'x-api-key' : 'authorization']).toMatch(/^(Bearer )?\*\*\*$/);
      expect(`${request.path} ${request.bodyText}`).not.toContain(KEY);
    }
    // The second request carries the call and its result in the API's own shape.
    const messages = seen[1].body.messages as unknown[];
    if (p.adapter.kind === 'anthropic') expect(messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', content: [{ type: 'text', text: 'Echo: where is the key' }] }] });
    else expect(messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: where is the key' });
  });

  it('lists models', async () => {
    const response = await fetch(p.adapter.url(p.base, 'models'), { headers: p.adapter.headers(KEY) });
    const models = p.adapter.parseModels(await response.json());
    expect(models.ok && models.value.map((m) => m.id)).toContain('script-echo');
  });
});
