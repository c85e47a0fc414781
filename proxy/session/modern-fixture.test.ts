/**
 * The 2026-07-28 fixtures (issue 12) do what the e2e specs and the proxy's tests rely on:
 * e2e/fixtures/modern-server.mjs (SDK-built, HTTP modern-only / dual, stdio) driven with the v2
 * client and, for the 2025 side, the 1.x client; e2e/fixtures/modern-raw.mjs (hand-written,
 * variants good and broken) driven with plain fetch where the point is a rule the SDK keeps.
 */
import { stopChild } from '../testing/children.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const fixture = (name: string) => fileURLToPath(new URL(`../../e2e/fixtures/${name}`, import.meta.url));
const MODERN_SERVER = fixture('modern-server.mjs');
const MODERN_RAW = fixture('modern-raw.mjs');
const VERSION = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const TOOL_NAMES = ['echo', 'add', 'confirm-delete', 'ask-model', 'show-roots', 'count-slowly', 'bump-counter'];

// ---- processes: every one started here is stopped in afterAll -------------------------------

const children: ChildProcess[] = [];
const clients: Array<{ close(): Promise<void> }> = [];

async function startHttp(script: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [script, ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.resume();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(out);
    if (ready) return ready[1];
    if (child.exitCode !== null) break;
    await sleep(20);
  }
  throw new Error(`${script} ${args.join(' ')} did not print its ready line; stdout: ${out}`);
}

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await Promise.all(children.map(stopChild));
});

// ---- clients -------------------------------------------------------------------------------

interface Answers {
  elicit: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> };
  roots: Array<{ uri: string }>;
}

/** A v2 client that answers input requests from `answers` and keeps every notification. */
async function modernClient(transport: Transport, mode: 'auto' | 'pin' = 'pin') {
  const answers: Answers = { elicit: { action: 'accept', content: { confirm: true } }, roots: [{ uri: 'file:///work/a' }, { uri: 'file:///work/b' }] };
  const notes: Array<{ method: string; params?: Record<string, unknown> }> = [];
  const client = new Client(
    { name: 'modern-fixture-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} }, versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: VERSION } } },
  );
  client.setRequestHandler('elicitation/create', () => answers.elicit);
  client.setRequestHandler('sampling/createMessage', () => ({ model: 'test-model', role: 'assistant' as const, content: { type: 'text' as const, text: 'forty-two' } }));
  client.setRequestHandler('roots/list', () => ({ roots: answers.roots }));
  for (const method of ['notifications/resources/updated', 'notifications/tools/list_changed', 'notifications/message'] as const) {
    client.setNotificationHandler(method, (note) => void notes.push(note as (typeof notes)[number]));
  }
  clients.push(client);
  await client.connect(transport);
  return { client, answers, notes };
}

function legacyClient() {
  const client = new LegacyClient({ name: 'legacy-fixture-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  clients.push(client);
  return client;
}

const stdio = (...args: string[]) => new StdioClientTransport({ command: process.execPath, args: [MODERN_SERVER, '--stdio', ...args], stderr: 'ignore' });
const http = (url: string) => new StreamableHTTPClientTransport(new URL(url));

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
}

async function waitFor<T>(find: () => T | undefined, what: string, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- hand-made modern requests, for what the SDK client would never send --------------------

let nextId = 1;
function envelope(extensions?: Record<string, object>) {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': extensions ? { extensions } : {},
  };
}

/** POSTs one request with the headers a v2 client would derive, overridden by `headers`. */
async function post(url: string, method: string, params: Record<string, unknown> = {}, options: { headers?: Record<string, string>; extensions?: Record<string, object>; bare?: boolean } = {}) {
  const name = params.name ?? params.uri ?? params.taskId;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(options.bare ? {} : { 'mcp-protocol-version': VERSION, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}) }),
    ...options.headers,
  };
  const body = { jsonrpc: '2.0', id: nextId++, method, params: options.bare ? params : { ...params, _meta: envelope(options.extensions) } };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
  return { status: response.status, headers: response.headers, ...json };
}

const INITIALIZE_2025 = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } };

// ---- modern-server.mjs ---------------------------------------------------------------------

describe('modern-server --http --modern-only', () => {
  let url: string;
  beforeAll(async () => {
    url = await startHttp(MODERN_SERVER, ['--http', '--modern-only']);
  });

  it('prints its ready line and answers server/discover with its info, instructions and capabilities', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client } = await modernClient(http(url));
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
    expect(client.getServerVersion()).toEqual({ name: 'modern-fixture', version: '1.0.0' });
    expect(client.getInstructions()).toBe("A 2026-07-28 fixture for Loupe's tests.");
    expect(client.getDiscoverResult()?.supportedVersions).toEqual([VERSION]);
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true } });
  });

  it('lists its tools, resources, template and prompt, the lists with the cache hint', async () => {
    const { client } = await modernClient(http(url));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['fixture://readme', 'fixture://counter']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['fixture://items/{id}']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    const wire = await post(url, 'tools/list');
    expect(wire.result).toMatchObject({ resultType: 'complete', ttlMs: 30_000, cacheScope: 'public' });
    expect((await post(url, 'resources/read', { uri: 'fixture://counter' })).result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('answers echo, add, reads and the prompt', async () => {
    const { client } = await modernClient(http(url));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'hi' } }))).toBe('echo: hi');
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }))).toBe('42');
    expect((await client.readResource({ uri: 'fixture://readme' })).contents[0]).toMatchObject({ text: 'Modern fixture readme' });
    expect((await client.readResource({ uri: 'fixture://items/7' })).contents[0]).toMatchObject({ text: 'item 7' });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
  });

  it('confirm-delete asks with an input_required elicitation, and the answer decides', async () => {
    const first = await post(url, 'tools/call', { name: 'confirm-delete', arguments: { path: '/tmp/x' } });
    // Without the elicitation capability declared, the server may not ask at all.
    expect(first.status).toBe(400);
    expect(first.error?.code).toBe(-32021);
    const { client, answers } = await modernClient(http(url));
    expect(textOf(await client.callTool({ name: 'confirm-delete', arguments: { path: '/tmp/x' } }))).toBe('Deleted /tmp/x');
    answers.elicit = { action: 'accept', content: { confirm: false } };
    expect(textOf(await client.callTool({ name: 'confirm-delete', arguments: { path: '/tmp/x' } }))).toBe('Kept /tmp/x');
    answers.elicit = { action: 'decline' };
    expect(textOf(await client.callTool({ name: 'confirm-delete', arguments: { path: '/tmp/y' } }))).toBe('Kept /tmp/y');
  });

  it('ask-model goes through sampling and show-roots through roots', async () => {
    const { client, answers } = await modernClient(http(url));
    expect(textOf(await client.callTool({ name: 'ask-model', arguments: { question: 'The answer?' } }))).toBe('The model said: forty-two');
    expect(textOf(await client.callTool({ name: 'show-roots', arguments: {} }))).toBe('file:///work/a\nfile:///work/b');
    answers.roots = [];
    expect(textOf(await client.callTool({ name: 'show-roots', arguments: {} }))).toBe('No roots');
  });

  it('count-slowly sends progress and, at the requested log level, log notifications', async () => {
    const { client, notes } = await modernClient(http(url));
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'count-slowly', arguments: { steps: 3 }, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } },
      { onprogress: (p) => void progress.push(p.progress) },
    );
    expect(textOf(result)).toBe('Counted to 3');
    expect(progress).toEqual([1, 2, 3]);
    expect(notes.filter((n) => n.method === 'notifications/message').map((n) => n.params?.data)).toEqual(['Counted 1', 'Counted 2', 'Counted 3']);
  });

  it('a subscriptions/listen stream gets resources/updated and tools/list_changed after bump-counter', async () => {
    const { client, notes } = await modernClient(http(url));
    const subscription = await client.listen({ resourceSubscriptions: ['fixture://counter'], toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['fixture://counter'], toolsListChanged: true });
    expect(textOf(await client.callTool({ name: 'bump-counter', arguments: {} }))).toBe('count: 1');
    // Read by another per-request instance: the count lives in the process, not in the instance.
    expect((await client.readResource({ uri: 'fixture://counter' })).contents[0]).toMatchObject({ text: 'count: 1' });
    const updated = await waitFor(() => notes.find((n) => n.method === 'notifications/resources/updated'), 'resources/updated');
    expect(updated.params).toMatchObject({ uri: 'fixture://counter', _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } });
    await waitFor(() => notes.find((n) => n.method === 'notifications/tools/list_changed'), 'tools/list_changed');
    await subscription.close();
    expect(await subscription.closed).toBe('local');
  });

  it('refuses a 2025 initialize with -32022 naming 2026-07-28', async () => {
    await expect(legacyClient().connect(new LegacyHttpTransport(new URL(url)))).rejects.toThrow(/-32022/);
    const wire = await post(url, 'initialize', INITIALIZE_2025, { bare: true });
    expect(wire.error).toMatchObject({ code: -32022, data: { supported: [VERSION], requested: '2025-11-25' } });
  });
});

describe('modern-server --http (both eras)', () => {
  let url: string;
  beforeAll(async () => {
    url = await startHttp(MODERN_SERVER, ['--http']);
  });

  it('serves a 2025 client statelessly, without a session id', async () => {
    const client = legacyClient();
    const transport = new LegacyHttpTransport(new URL(url));
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'modern-fixture' });
    expect(transport.sessionId).toBeUndefined();
    const result = await client.callTool({ name: 'echo', arguments: { message: 'old' } });
    expect(textOf(result)).toBe('echo: old');
  });

  it('picks 2026-07-28 for a v2 client in auto mode', async () => {
    const { client } = await modernClient(http(url), 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'new' } }))).toBe('echo: new');
  });
});

describe('modern-server --stdio', () => {
  it('speaks 2026-07-28: elicitation rounds and a listen stream over the pipe', async () => {
    const { client, notes } = await modernClient(stdio());
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(textOf(await client.callTool({ name: 'confirm-delete', arguments: { path: '/p' } }))).toBe('Deleted /p');
    const subscription = await client.listen({ resourceSubscriptions: ['fixture://counter'] });
    expect(textOf(await client.callTool({ name: 'bump-counter', arguments: {} }))).toBe('count: 1');
    const updated = await waitFor(() => notes.find((n) => n.method === 'notifications/resources/updated'), 'resources/updated');
    expect(updated.params).toMatchObject({ uri: 'fixture://counter' });
    await subscription.close();
  });

  it('serves a 2025 client too, the elicitation as a real server→client request', async () => {
    const client = legacyClient();
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: 'decline' };
    });
    await client.connect(new LegacyStdioTransport({ command: process.execPath, args: [MODERN_SERVER, '--stdio'], stderr: 'ignore' }));
    expect(textOf(await client.callTool({ name: 'confirm-delete', arguments: { path: '/q' } }))).toBe('Kept /q');
    expect(asked).toHaveLength(1);
  });

  it('with --modern-only refuses a 2025 client with -32022, and auto negotiation lands on 2026-07-28', async () => {
    const refused = legacyClient().connect(new LegacyStdioTransport({ command: process.execPath, args: [MODERN_SERVER, '--stdio', '--modern-only'], stderr: 'ignore' }));
    await expect(refused).rejects.toThrow(/-32022/);
    const { client } = await modernClient(stdio('--modern-only'), 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'pipe' } }))).toBe('echo: pipe');
  });
});

// ---- modern-raw.mjs ------------------------------------------------------------------------

describe('modern-raw --variant good', () => {
  let url: string;
  beforeAll(async () => {
    url = await startHttp(MODERN_RAW, ['--variant', 'good']);
  });

  it('is a server the v2 client can use: discover, tools, echo', async () => {
    const { client } = await modernClient(http(url));
    expect(client.getServerVersion()).toEqual({ name: 'modern-raw', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, extensions: { [TASKS]: {} } });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'long-job']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'raw' } }))).toBe('echo: raw');
  });

  it('rejects a wrong Mcp-Method or Mcp-Name with 400 and -32020', async () => {
    const method = await post(url, 'tools/list', {}, { headers: { 'mcp-method': 'tools/call' } });
    expect(method.status).toBe(400);
    expect(method.error?.code).toBe(-32020);
    const name = await post(url, 'tools/call', { name: 'echo', arguments: { message: 'x' } }, { headers: { 'mcp-name': 'long-job' } });
    expect([name.status, name.error?.code]).toEqual([400, -32020]);
    expect((await post(url, 'tools/list')).status).toBe(200);
  });

  it('answers a 2025 initialize with HTTP 200 and -32022, does not serve ping, and has no GET stream', async () => {
    const wire = await post(url, 'initialize', INITIALIZE_2025, { bare: true });
    expect(wire.status).toBe(200);
    expect(wire.error).toMatchObject({ code: -32022, data: { supported: [VERSION], requested: '2025-11-25' } });
    expect((await post(url, 'ping')).error?.code).toBe(-32601);
    expect((await fetch(url)).status).toBe(405);
  });

  it('runs long-job as a task for a client with the tasks extension, and plainly without it', async () => {
    const created = await post(url, 'tools/call', { name: 'long-job', arguments: { seconds: 0.3 } }, { extensions: { [TASKS]: {} } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 200 });
    const taskId = created.result!.taskId as string;
    let task = (await post(url, 'tasks/get', { taskId })).result!;
    expect(task).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    await sleep(400);
    task = (await post(url, 'tasks/get', { taskId })).result!;
    expect(task).toMatchObject({ status: 'completed' });
    expect(textOf(task.result)).toBe('Job done after 0.3 s');
    const plain = await post(url, 'tools/call', { name: 'long-job', arguments: { seconds: 0 } });
    expect(plain.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(plain.result)).toBe('Job done after 0 s');
  });

  it('cancels a task', async () => {
    const created = await post(url, 'tools/call', { name: 'long-job', arguments: { seconds: 30 } }, { extensions: { [TASKS]: {} } });
    const taskId = created.result!.taskId as string;
    expect((await post(url, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await post(url, 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
  });
});

describe('modern-raw --variant broken', () => {
  let url: string;
  beforeAll(async () => {
    url = await startHttp(MODERN_RAW, ['--variant', 'broken']);
  });

  it('answers a wrong Mcp-Method normally, with a session id, and tools/list with a resultType that does not fit', async () => {
    const wire = await post(url, 'tools/list', {}, { headers: { 'mcp-method': 'tools/call' } });
    expect(wire.status).toBe(200);
    expect(wire.headers.get('mcp-session-id')).toBe('broken-session-1');
    expect(wire.result).toMatchObject({ resultType: 'input_required', tools: [{ name: 'echo' }, { name: 'long-job' }] });
    expect(wire.result).not.toHaveProperty('inputRequests');
    expect(wire.result).not.toHaveProperty('requestState');
  });

  it('answers ping as in 2025', async () => {
    const wire = await post(url, 'ping');
    expect([wire.status, wire.result]).toEqual([200, {}]);
  });
});
