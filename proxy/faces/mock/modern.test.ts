/**
 * The mock of a 2026-07-28 recording (issue 12; proxy/faces/mock/mock.ts, proxy/faces/mock/modern.ts): a real
 * session with the v2 fixture is recorded with `--record`'s writer (record.ts), read back, and
 * served over stateless Streamable HTTP and over stdio to the v2 SDK's own Client pinned to
 * 2026-07-28, which must get what the real server said, rounds included; a 2025 client is refused
 * with -32022, and the HTTP face keeps the rules of a stateless server on loopback.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as LegacyTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTrace, type ImportedTrace } from '../../../lib/trace/read-trace.ts';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import type { SessionInfo } from '../../../lib/wire/wire.ts';
import { openFaceSession } from '../cli/face-session.ts';
import { startMock, type RunningMock } from './mock.ts';
import { startRecording, type Recording } from '../../engine/record.ts';
import { StreamClientTransport } from '../../testing/stream-transport.ts';

const ROOT = join(import.meta.dirname, '../../..');
const MODERN: ServerConfig = { kind: 'stdio', command: process.execPath, args: [join(ROOT, 'e2e/fixtures/modern-server.mjs'), '--stdio', '--modern-only'], env: {}, protocol: '2026-07-28' };
const ECHO = { name: 'echo', arguments: { message: 'hi' } };
const CONFIRM = { name: 'confirm-delete', arguments: { path: '/a' } };
const ADD = { name: 'add', arguments: { a: 2, b: 3 } };
const ACCEPT = { action: 'accept' as const, content: { confirm: true } };

/** What the real server answered, by step. */
const recorded: Record<string, Record<string, unknown>> = {};
let traceFile = '';

beforeAll(async () => {
  traceFile = join(mkdtempSync(join(tmpdir(), 'loupe-mock-modern-')), 'modern.jsonl');
  let recording: Recording | undefined;
  const info = { id: 's1', name: 'modern', config: MODERN, status: 'connecting', since: Date.now() } as SessionInfo;
  const opened = await openFaceSession(MODERN, {
    policy: (request) => (request.method === 'elicitation/create' ? { ok: true, result: ACCEPT } : { ok: false, error: { code: -32601, message: 'not here' } }),
    onTrace: (trace) => (recording = startRecording(traceFile, trace, info)),
  });
  try {
    if (!opened.ok) throw new Error(opened.error.message);
    const step = async (name: string, method: string, params?: Record<string, unknown>) => {
      const outcome = await opened.session.request(name, method, params);
      if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
      recorded[name] = outcome.result as Record<string, unknown>;
    };
    await step('list', 'tools/list');
    await step('echo', 'tools/call', ECHO);
    await step('confirm', 'tools/call', CONFIRM);
    await step('add', 'tools/call', ADD);
  } finally {
    await opened.close();
    recording?.close();
  }
});

function readTrace(): ImportedTrace {
  const parsed = parseTrace(readFileSync(traceFile, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.trace;
}

const mocks: RunningMock[] = [];
const clients: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

async function mock(options: Parameters<typeof startMock>[1] = {}): Promise<RunningMock> {
  const running = await startMock(readTrace(), options);
  mocks.push(running);
  return running;
}

/** What a client of an HTTP mock sends: the token the mock gave (mock-guard.test.ts tests the refusals). */
const withToken = (running: RunningMock) => ({ requestInit: { headers: { authorization: `Bearer ${running.token}` } } });

/**
 * A v2 client pinned to 2026-07-28 that declines every elicitation (and keeps them): not what the
 * recording's user answered, so a re-sent round matches without its inputs.
 */
async function modernClient(transport: Transport) {
  const client = new Client({ name: 'client-under-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const asked: unknown[] = [];
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params);
    return { action: 'decline' as const };
  });
  clients.push(client);
  await client.connect(transport);
  return { client, asked };
}

/** The recording, asked again through the v2 client: each answer must be the recorded one. */
async function replaysTheRecording(client: Client, asked: unknown[]) {
  expect(client.getProtocolEra()).toBe('modern');
  expect(client.getDiscoverResult()?.supportedVersions).toEqual(['2026-07-28']);
  expect(client.getServerVersion()?.name).toBe('modern-fixture');
  expect((await client.listTools()).tools).toEqual(recorded.list.tools);
  expect(await client.callTool(ECHO)).toMatchObject({ content: recorded.echo.content });
  expect(recorded.echo.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
  // The rounds: the mock asks as the server did, and the re-sent call gets the recorded final answer
  // whatever this client answered (the recording's user accepted; this one declines).
  const confirmed = await client.callTool(CONFIRM);
  expect(confirmed).toMatchObject({ content: [{ type: 'text', text: 'Deleted /a' }] });
  expect(asked).toHaveLength(1);
  expect(JSON.stringify(asked[0])).toContain('Delete /a?');
  expect(await client.callTool(ADD)).toMatchObject({ content: recorded.add.content });
  // Unmatched: the nearest recorded request is named.
  const unmatched = await client.callTool({ name: 'echo', arguments: { message: 'bye' } }).catch((error: unknown) => error);
  expect(unmatched).toMatchObject({ code: -32602, message: expect.stringContaining('Loupe mock: no recorded answer for tools/call {"name":"echo","arguments":{"message":"bye"}}; nearest recorded: tools/call {"name":"echo","arguments":{"message":"hi"}}') });
}

/** A 2025 client (SDK 1.x): its initialize must be refused with -32022 naming 2026-07-28. */
async function legacyRefused(transport: LegacyTransport) {
  const client = new LegacyClient({ name: 'old-client', version: '1.0.0' });
  clients.push(client);
  const failed = await client.connect(transport).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(McpError);
  expect(failed).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: expect.stringMatching(/^2025-/) } });
  expect((failed as McpError).message).toContain('this mock replays a 2026-07-28 recording, which has no initialize');
}

describe('the recording', () => {
  it('is of a 2026-07-28 session with a call in rounds', () => {
    const frames = readTrace().events.filter((e) => e.kind === 'frame');
    expect(frames.some((f) => f.dir === 'out' && f.method === 'initialize')).toBe(false);
    expect(frames.filter((f) => f.dir === 'out' && f.method === 'server/discover')).toHaveLength(1);
    expect(frames.filter((f) => f.round !== undefined)).toHaveLength(1);
    expect(recorded.confirm.content).toEqual([{ type: 'text', text: 'Deleted /a' }]);
  });
});

describe('over Streamable HTTP', () => {
  it('answers the v2 client as the server did, at /mcp on 127.0.0.1', async () => {
    const running = await mock({ port: 0 });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(running.recorded).toEqual({ answers: 6, methods: ['server/discover', 'tools/list', 'tools/call'], protocolVersion: '2026-07-28' });
    const { client, asked } = await modernClient(new StreamableHTTPClientTransport(new URL(running.url!), withToken(running)));
    await replaysTheRecording(client, asked);
  });

  it('refuses a 2025 client\'s initialize with -32022', async () => {
    const running = await mock({ port: 0 });
    await legacyRefused(new LegacyHttpTransport(new URL(running.url!), withToken(running)));
  });

  it('keeps to POST on /mcp, from loopback names and no page but its own', async () => {
    const running = await mock({ port: 0 });
    const port = new URL(running.url!).port;
    const send = (method: string, headers: Record<string, string> = {}, body?: string, path = '/mcp') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${running.token}`, ...headers } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });

    const get = await send('GET');
    expect(get.status).toBe(405);
    expect(JSON.parse(get.body).error.message).toBe('Loupe mock: a 2026-07-28 server is stateless: POST each request (subscriptions/listen replaces the GET stream).');
    expect((await send('DELETE')).status).toBe(405);

    const rebound = await send('POST', { host: `evil.example:${port}` }, list);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('this Host header is not allowed');
    expect((await send('POST', { origin: 'http://evil.example' }, list)).status).toBe(403);
    expect((await send('POST', {}, list, '/other')).status).toBe(404);
    const notJson = await send('POST', {}, '{nope');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
    expect((await send('POST', {}, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }))).status).toBe(202);

    // A page on another loopback port is a web page too (issue 21); the same request from a loopback
    // name and the mock's own origin is answered, as JSON.
    expect((await send('POST', { host: `localhost:${port}`, origin: 'http://localhost:3000' }, list)).status).toBe(403);
    const answered = await send('POST', { host: `localhost:${port}`, origin: `http://localhost:${port}` }, list);
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toEqual({ jsonrpc: '2.0', id: 1, result: recorded.list });
  });
});


describe('over stdio', () => {
  it('answers the v2 client as the server did, and writes nothing but JSON-RPC lines', async () => {
    const [toMock, fromMock] = [new PassThrough(), new PassThrough()];
    const written: string[] = [];
    fromMock.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    const logged: string[] = [];
    const running = await mock({ input: toMock, output: fromMock, log: (line) => logged.push(line) });
    expect(running.url).toBeUndefined();
    expect(running.recorded.protocolVersion).toBe('2026-07-28');
    const { client, asked } = await modernClient(new StreamClientTransport(fromMock, toMock) as unknown as Transport);
    await replaysTheRecording(client, asked);
    for (const line of written.join('').split('\n').filter((l) => l !== '')) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(logged.some((l) => l.startsWith('Loupe mock: no recorded answer for tools/call {"name":"echo","arguments":{"message":"bye"}}'))).toBe(true);
  });

  it('refuses a 2025 client\'s initialize with -32022, and says so on its log', async () => {
    const [toMock, fromMock] = [new PassThrough(), new PassThrough()];
    const logged: string[] = [];
    await mock({ input: toMock, output: fromMock, log: (line) => logged.push(line) });
    await legacyRefused(new StreamClientTransport(fromMock, toMock) as unknown as LegacyTransport);
    expect(logged).toContain('Loupe mock: refused a 2025 initialize (this recording is of a 2026-07-28 session).');
  });
});
