/**
 * The Playground's provider calls (playground-provider.ts) against real HTTP: the two scripted model
 * servers (e2e/fixtures/llm-openai.mjs, llm-anthropic.mjs) as child processes, plus a slow server
 * started here for what the fixtures do not do (a stream that stalls, a runaway body). Checks the
 * words users see for every failure, and that the key is only ever in the request header.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, type ProviderConfig, type ProviderKind, type StreamDelta } from '../../lib/playground/types.ts';
import { callModel, listModels, RECORDED_BODY_LIMIT } from './provider.ts';
import { startLlmFixture, stopChild } from '../testing/children.ts';

const KEY = 'test-key';
const started: ChildProcess[] = [];
const bases: Record<ProviderKind, string> = { anthropic: '', 'openai-compatible': '' };
let slow: Server;
let slowBase = '';

const startFixture = (file: string): Promise<string> => startLlmFixture(file, started);

/**
 * `/v1/messages` streams the start of a reply, then stalls; `/v1/models` refuses the key and quotes
 * it back (as some providers do); `/v1/chat/completions` sends 2 MB that is not JSON.
 */
function startSlowServer(): Promise<string> {
  slow = createServer((req, res) => {
    if (req.url === '/v1/messages') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'slow', usage: { input_tokens: 1, output_tokens: 0 } } })}\n\n`);
      res.write(`event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`);
      res.write(`event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Thinking' } })}\n\n`);
      return;
    }
    if (req.url === '/v1/models') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${String(req.headers['x-api-key'])}` } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('x'.repeat(2 * 1024 * 1024));
  });
  return new Promise((done) => slow.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`)));
}

beforeAll(async () => {
  [bases.anthropic, bases['openai-compatible'], slowBase] = await Promise.all([startFixture('llm-anthropic.mjs'), startFixture('llm-openai.mjs'), startSlowServer()]);
  bases.anthropic += '/v1';
  bases['openai-compatible'] += '/v1';
}, 90_000);

afterAll(async () => {
  slow?.closeAllConnections();
  slow?.close();
  await Promise.all(started.map(stopChild));
});

const config = (kind: ProviderKind, model: string): ProviderConfig => ({ kind, baseUrl: bases[kind], model, apiKeyRef: 'env:TEST_API_KEY' });
const hi = { messages: [{ role: 'user' as const, text: 'hello there' }], tools: [] };
const echoTool = { name: 'echo', server: 'everything', tool: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } } }, readOnly: false };

describe.each(['anthropic', 'openai-compatible'] as const)('%s', (kind) => {
  const header = kind === 'anthropic' ? 'x-api-key' : 'authorization';

  it('a call that is not streamed: the reply, and the exchange with the key masked', async () => {
    const { outcome, event, latencyMs } = await callModel({ config: config(kind, 'script-text'), key: KEY, request: hi, stream: false });
    expect(outcome.ok && textOf(outcome.value.message)).toBe('You said: hello there');
    expect(latencyMs).toBeGreaterThan(0);
    expect(event).toMatchObject({ kind: 'provider', exchange: 'chat', provider: kind, model: 'script-text', stream: false, status: 200, url: `${bases[kind]}/${kind === 'anthropic' ? 'messages' : 'chat/completions'}` });
    expect(event.requestHeaders[header]).toBe(kind === 'anthropic' ? '•••• (8 chars, secret)' : 'Bearer •••• (8 chars, secret)');
    expect(JSON.parse(event.requestBody)).toMatchObject({ model: 'script-text' });
    expect(event.responseBody).toContain('You said: hello there');
    expect(event.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('a streamed call: the deltas arrive as they come, and the raw stream is recorded', async () => {
    const deltas: StreamDelta[] = [];
    const { outcome, event } = await callModel({ config: config(kind, 'script-echo'), key: KEY, request: { messages: [{ role: 'user', text: 'hi loupe' }], tools: [echoTool] }, stream: true, onDeltas: (d) => deltas.push(...d) });
    expect(outcome.ok && outcome.value.message.parts).toEqual([
      { type: 'text', text: 'Let me echo that.' },
      { type: 'tool_call', call: expect.objectContaining({ name: 'echo', arguments: { message: 'hi loupe' } }) },
    ]);
    expect(deltas.filter((d) => d.type === 'text').length).toBeGreaterThan(3);
    expect(deltas.filter((d) => d.type === 'tool_call_start')).toEqual([expect.objectContaining({ name: 'echo' })]);
    expect(deltas.flatMap((d) => (d.type === 'tool_call_arguments' ? [d.fragment] : [])).join('')).toBe('{"message":"hi loupe"}');
    expect(event).toMatchObject({ stream: true, status: 200 });
    expect(event.responseBody).toMatch(/^(event: message_start\n)?data: /);
  });

  it('lists the models, recorded as a models exchange', async () => {
    const { outcome, event } = await listModels({ config: config(kind, ''), key: KEY });
    expect(outcome.ok && outcome.value.map((m) => m.id)).toContain('script-echo');
    expect(event).toMatchObject({ exchange: 'models', status: 200, requestBody: '' });
    expect(event.model).toBeUndefined();
  });

  it('a wrong key, 429, 500 and a broken stream, in plain words', async () => {
    const wrong = await callModel({ config: config(kind, 'script-text'), key: 'wrong-key-1234', request: hi, stream: true });
    expect(wrong.outcome).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED', status: 401 } });
    expect(!wrong.outcome.ok && wrong.outcome.error.message).toMatch(/refused the API key \(HTTP 401: .+\)\. Check the key, or the environment variable it comes from\.$/);
    expect(JSON.stringify(wrong)).not.toContain('wrong-key-1234');
    expect(wrong.event).toMatchObject({ status: 401, error: expect.stringContaining('refused the API key') });
    const words: string[] = [];
    for (const model of ['fail-429', 'fail-500', 'bad-stream']) {
      const { outcome } = await callModel({ config: config(kind, model), key: KEY, request: hi, stream: true });
      words.push(outcome.ok ? 'ok' : outcome.error.message);
    }
    expect(words[0]).toMatch(/is limiting requests \(HTTP 429: .*\)\. Wait a little, then send again\.$/);
    expect(words[1]).toMatch(/failed on its side \(HTTP 500: .*\)\. Try again in a moment\.$/);
    expect(words[2]).toMatch(/stream broke off or could not be read: .*\. Send the message again\.$/);
  });

  it('the key is in the request header the fixture saw, and nowhere in the recorded exchanges', async () => {
    const debug = bases[kind].replace(/\/v1$/, '/debug/requests');
    await fetch(debug, { method: 'DELETE' });
    const events = [
      (await callModel({ config: config(kind, 'script-echo'), key: KEY, request: { messages: [{ role: 'user', text: 'where is the key' }], tools: [echoTool] }, stream: true })).event,
      (await callModel({ config: config(kind, 'fail-500'), key: KEY, request: hi, stream: false })).event,
      (await listModels({ config: config(kind, ''), key: KEY })).event,
    ];
    for (const event of events) expect(JSON.stringify(event)).not.toContain(KEY);
    const seen = (await (await fetch(debug)).json()) as { path: string; headers: Record<string, string>; bodyText: string }[];
    expect(seen.length).toBe(3);
    for (const request of seen) {
      // The fixture masks the key it received as ***: a header that held it reads so.
      expect(request.headers[header]).toBe(kind === 'anthropic' ? '***' : 'Bearer ***');
      expect(`${request.path} ${request.bodyText}`).not.toContain(KEY);
    }
  });
});

describe('failures of the connection', () => {
  it('an unreachable provider: who could not be reached, and what to check', async () => {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const { outcome, event } = await callModel({ config: { kind: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }, key: undefined, request: hi, stream: false });
    expect(outcome).toEqual({ ok: false, error: { code: 'UNREACHABLE', message: `Loupe could not reach http://127.0.0.1:${port}/v1/chat/completions: connection refused. Is the server running?` } });
    expect(event.status).toBeUndefined();
    expect(event.error).toContain('connection refused');
    expect(event.requestHeaders.authorization).toBeUndefined();
  });

  it('a base URL that is not http gets words, not a request', async () => {
    const { outcome } = await listModels({ config: { kind: 'openai-compatible', baseUrl: 'ftp://example.com/v1', model: '' }, key: KEY });
    expect(!outcome.ok && outcome.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('is not an http or https URL') });
  });

  it('a provider that does not answer in time: the first-byte timeout', async () => {
    const { outcome } = await callModel({ config: config('openai-compatible', 'script-slow-reply'), key: KEY, request: hi, stream: true, timeouts: { firstByteMs: 300 } });
    expect(!outcome.ok && outcome.error).toEqual({ code: 'TIMEOUT', message: `${bases['openai-compatible']}/chat/completions did not answer within 0.3 s: check that the server is running and the base URL is right, then send again.` });
  });

  it('a stream that stalls: the overall timeout, with what had come recorded', async () => {
    const deltas: StreamDelta[] = [];
    const { outcome, event } = await callModel({ config: { kind: 'anthropic', baseUrl: slowBase, model: 'slow' }, key: KEY, request: hi, stream: true, onDeltas: (d) => deltas.push(...d), timeouts: { totalMs: 400 } });
    expect(!outcome.ok && outcome.error).toEqual({ code: 'TIMEOUT', message: "The model's reply took longer than 0.4 s, so Loupe stopped waiting: send again, or ask for a shorter answer." });
    expect(deltas).toEqual([{ type: 'text', text: 'Thinking' }]);
    expect(event.responseBody).toContain('"text":"Thinking"');
  });

  it('Stop mid-stream cancels the call', async () => {
    const stop = new AbortController();
    const deltas: StreamDelta[] = [];
    const started = Date.now();
    const { outcome, event } = await callModel({
      config: { kind: 'anthropic', baseUrl: slowBase, model: 'slow' },
      key: KEY,
      request: hi,
      stream: true,
      signal: stop.signal,
      onDeltas: (d) => {
        deltas.push(...d);
        stop.abort();
      },
    });
    expect(Date.now() - started, 'stopped, not the reply 30 s later').toBeLessThan(20_000);
    expect(outcome).toEqual({ ok: false, error: { code: 'CANCELLED', message: 'Stopped: Loupe cancelled the call to the model.' } });
    expect(deltas).toEqual([{ type: 'text', text: 'Thinking' }]);
    expect(event).toMatchObject({ status: 200, error: 'Stopped: Loupe cancelled the call to the model.' });
  });

  it('a key the provider quotes back in its refusal is scrubbed from the words and the record', async () => {
    const { outcome, event } = await listModels({ config: { kind: 'anthropic', baseUrl: slowBase, model: '' }, key: 'sk-quoted-back-9876' });
    expect(!outcome.ok && outcome.error.message).toBe('The Anthropic API refused the API key (HTTP 401: authentication_error: invalid x-api-key •••• (19 chars, secret)). Check the key, or the environment variable it comes from.');
    expect(event.responseBody).toContain('invalid x-api-key •••• (19 chars, secret)');
    expect(JSON.stringify({ outcome, event })).not.toContain('sk-quoted-back-9876');
  });

  it('a key quoted back in any encoding (JSON-escaped, \\/, URL-encoded, base64, after Bearer) is scrubbed from the words and the record', async () => {
    // Visible ASCII, as a typed key may be, with the characters JSON and URLs escape.
    const key = 'sk-live/"quoted"+back\\key=0123456789abcdef';
    const base64 = Buffer.from(`key:${key}`).toString('base64');
    const forms = [key, JSON.stringify(key).slice(1, -1), JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/'), encodeURIComponent(key), base64.slice(4, 40), base64.slice(4, 40).replace(/\+/g, '-').replace(/\//g, '_'), key.slice(0, 10)];
    for (const kind of ['anthropic', 'openai-compatible'] as const) {
      const { outcome, event } = await callModel({ config: { kind, baseUrl: bases[kind].replace(/\/v1$/, '/echo-key/v1'), model: 'm' }, key, request: hi, stream: false });
      const texts = [!outcome.ok ? outcome.error.message : '', event.responseBody, event.error ?? '', ...Object.values(event.requestHeaders)];
      for (const form of forms) for (const text of texts) expect(text.includes(form), `${kind}: ${form} in ${text}`).toBe(false);
      expect(!outcome.ok && outcome.error.message).toMatch(/refused the API key \(HTTP 401: .*Incorrect API key provided: •••• \(\d+ chars, secret\)/);
      expect(event.responseBody).toContain('"received":"Authorization: Bearer •••• (');
    }
  });

  it('a body larger than the trace keeps is cut, and the cut said', async () => {
    const { outcome, event } = await callModel({ config: { kind: 'openai-compatible', baseUrl: slowBase, model: 'big' }, key: undefined, request: hi, stream: false });
    expect(!outcome.ok && outcome.error.code).toBe('BAD_RESPONSE');
    expect(event.responseBody.length).toBeLessThan(RECORDED_BODY_LIMIT + 200);
    expect(event.responseBody).toMatch(/\n… \[Loupe recorded the first 1 MB of this body; 1048576 more bytes were not kept\]$/);
  });
});
