/**
 * Integration (issue 21, items 4 and 6): what the gateway demands before it starts anything
 * (mcp-endpoint-guard.ts, gateway-body.ts; the mock's side is mock-guard.test.ts). Real HTTP
 * requests against a gateway whose target writes a marker file when it starts, so that "nothing was
 * started" is seen on disk, not inferred: no token, a foreign Origin, a body that is not JSON, a
 * body too large, too many bodies at once, a body too slow. And that a client with the token (or
 * any client under `--gateway-no-auth`) gets through.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import type { GatewayOptions } from './gateway.ts';
import { launch, type RunningLoupe } from '../../launch.ts';
import { stopChild } from '../../testing/children.ts';
import { testUiRoot } from '../../testing/harness.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const uiRoot = testUiRoot();
const running: RunningLoupe[] = [];
const clients: Client[] = [];
const children: ChildProcess[] = [];
const uploads: ClientRequest[] = [];

afterEach(async () => {
  for (const upload of uploads.splice(0)) upload.destroy();
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((l) => l.close()));
  await Promise.all(children.splice(0).map(stopChild));
});

/** server-everything over stdio, behind a shell that first leaves a marker: the proof it was started. */
function markedTarget(): { config: ServerConfig; started: () => boolean } {
  const marker = join(mkdtempSync(join(tmpdir(), 'loupe-gateway-guard-')), 'started');
  const script = `echo started >> "$1"; exec "$2" "$3" stdio`;
  return { config: { kind: 'stdio', command: 'sh', args: ['-c', script, 'sh', marker, process.execPath, EVERYTHING], env: {} }, started: () => existsSync(marker) };
}

async function startGateway(gateway: Omit<GatewayOptions, 'config'> = {}) {
  const target = markedTarget();
  const loupe = await launch({ config: target.config, gateway: { port: 0, ...gateway }, port: 0, uiRoot });
  running.push(loupe);
  const url = loupe.gatewayUrl!;
  const gatewaySessions = () => loupe.hub.engine.sessionList().filter((s) => s.snapshot().relay?.kind === 'gateway');
  /** Nothing was started: no marker, no session in the page. */
  const untouched = () => !target.started() && gatewaySessions().length === 0;
  return { loupe, url, token: loupe.gatewayToken, started: target.started, untouched, port: new URL(url).port };
}

interface Answer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

function raw(url: string, headers: Record<string, string>, body?: string, method = 'POST'): Promise<Answer> {
  const target = new URL(url);
  return new Promise((done, fail) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
const JSON_POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const bearer = (token: string | undefined) => ({ authorization: `Bearer ${token}` });
const messageOf = (answer: Answer) => (JSON.parse(answer.text) as { error: { message: string } }).error.message;

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'guarded-client', version: '1.0.0' }, { capabilities: {} });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/**
 * An upload that sends `first` bytes of a body (declaring `declared` bytes, or chunked), then waits:
 * what a slow client, or one holding the gateway's memory on purpose, does.
 */
function slowUpload(url: string, headers: Record<string, string>, first: number, declared?: number): { answer: Promise<Answer>; more(bytes: number): void } {
  const target = new URL(url);
  const req = httpRequest({
    host: target.hostname,
    port: target.port,
    path: target.pathname,
    method: 'POST',
    headers: { ...JSON_POST, ...headers, ...(declared !== undefined ? { 'content-length': String(declared) } : {}) },
  });
  uploads.push(req);
  const answer = new Promise<Answer>((done, fail) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    // The gateway may close the connection once it has answered: the rest of the body has nowhere to go.
    req.on('error', (error) => setTimeout(() => fail(error), 500));
  });
  // An upload the test gives up on (destroyed after it) fails: that is no error of the test's.
  answer.catch(() => undefined);
  req.flushHeaders();
  const more = (bytes: number) => void req.write(Buffer.alloc(bytes, 0x20));
  if (first > 0) more(first);
  return { answer, more };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the gateway’s credential', () => {
  it('answers 401 with WWW-Authenticate: Bearer without the token or with a wrong one, and starts nothing', async () => {
    const { url, token, untouched } = await startGateway();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const none = await raw(url, JSON_POST, INIT);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(messageOf(none)).toBe('Unauthorized: Loupe’s gateway needs the token it printed at start, as the header "Authorization: Bearer <token>" (a new token at every launch).');
    const wrong = await raw(url, { ...JSON_POST, ...bearer(`${token!.slice(0, -1)}x`) }, INIT);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');
    // Nor for the other methods, nor for a session id someone guessed.
    expect((await raw(url, { accept: 'text/event-stream', 'mcp-session-id': 'guess' }, undefined, 'GET')).status).toBe(401);
    expect((await raw(url, { 'mcp-session-id': 'guess' }, undefined, 'DELETE')).status).toBe(401);
    await settle(300);
    expect(untouched()).toBe(true);
  });

  it('lets a client with the token through, and that starts the target', async () => {
    const { url, token, started } = await startGateway();
    const client = await connect(url, bearer(token));
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'with the token' } });
    expect(JSON.stringify(echoed.content)).toContain('with the token');
    expect(started()).toBe(true);
  });

  it('takes a token given by the caller, and none at all when told so (noAuth), the other checks staying on', async () => {
    const given = await startGateway({ token: 'a-token-given-by-the-test-0123456789abcdefgh' });
    expect(given.token).toBe('a-token-given-by-the-test-0123456789abcdefgh');
    expect((await raw(given.url, JSON_POST, INIT)).status).toBe(401);

    const open = await startGateway({ noAuth: true });
    expect(open.token).toBeUndefined();
    expect((await raw(open.url, { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, INIT)).status).toBe(415);
    expect((await raw(open.url, { ...JSON_POST, origin: 'http://localhost:3000' }, INIT)).status).toBe(403);
    expect((await raw(open.url, { ...JSON_POST, host: 'evil.example.com' }, INIT)).status).toBe(403);
    await settle(300);
    expect(open.untouched()).toBe(true);
    const client = await connect(open.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('what a web page on this machine can make the gateway do', () => {
  it('refuses a text/plain POST (a request without preflight) with 415, token or not, and starts nothing', async () => {
    const { url, token, untouched } = await startGateway();
    const plain = await raw(url, { 'content-type': 'text/plain;charset=UTF-8', accept: 'application/json, text/event-stream', ...bearer(token) }, INIT);
    expect(plain.status).toBe(415);
    expect(messageOf(plain)).toBe('Unsupported Media Type: Loupe’s gateway takes POST bodies of Content-Type application/json only.');
    const none = await raw(url, { accept: 'application/json, text/event-stream', ...bearer(token) }, INIT);
    expect(none.status).toBe(415);
    await settle(300);
    expect(untouched()).toBe(true);
  });

  it('refuses a page on another loopback port (the issue’s http://localhost:3000) with 403, and starts nothing', async () => {
    const { url, token, untouched, port } = await startGateway();
    // What the browser sent in the report: text/plain, no token, from the page's origin.
    const page = await raw(url, { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://localhost:3000', host: `localhost:${port}` }, INIT);
    expect(page.status).toBe(403);
    // Even with the token and JSON (a page the user pasted the token into is still another site).
    const withToken = await raw(url, { ...JSON_POST, ...bearer(token), origin: 'http://localhost:3000' }, INIT);
    expect(withToken.status).toBe(403);
    expect(messageOf(withToken)).toBe(`Forbidden: Loupe’s gateway takes no requests from web pages (Origin http://localhost:3000); only its own origin, or none, as MCP clients send.`);
    expect((await raw(url, { ...JSON_POST, ...bearer(token), origin: 'null' }, INIT)).status).toBe(403);
    expect((await raw(url, { ...bearer(token), origin: 'http://localhost:3000', 'access-control-request-method': 'POST' }, undefined, 'OPTIONS')).status).toBe(403);
    await settle(300);
    expect(untouched()).toBe(true);
    // Its own origin (what the conformance suite's DNS rebinding check sends) is not a foreign page.
    const own = await raw(url, { ...JSON_POST, ...bearer(token), origin: `http://127.0.0.1:${port}` }, INIT);
    expect(own.status).toBe(200);
    expect(own.text).toContain('serverInfo');
  });
});

describe('the bodies the gateway reads', () => {
  it('refuses one body over the limit with 413 in words, declared or sent, and starts nothing', async () => {
    const { url, token, untouched } = await startGateway({ bodies: { maxBytes: 64 * 1024 } });
    const declared = slowUpload(url, bearer(token), 0, 64 * 1024 + 1);
    const tooLarge = await declared.answer;
    expect(tooLarge.status).toBe(413);
    expect(messageOf(tooLarge)).toBe('Payload too large: Loupe’s gateway reads request bodies of at most 64 KiB.');
    const chunked = slowUpload(url, bearer(token), 40 * 1024);
    await settle(100);
    chunked.more(40 * 1024);
    expect((await chunked.answer).status).toBe(413);
    expect(untouched()).toBe(true);
  });

  it('holds at most the total it allows across concurrent slow uploads: the others get 503 with Retry-After', async () => {
    const { url, token, untouched } = await startGateway({ bodies: { maxBytes: 256 * 1024, maxTotalBytes: 512 * 1024, timeoutMs: 60_000 } });
    // Two slow bodies of 200 KiB each fit in 512 KiB; the third and fourth do not while those are read.
    const slow = [slowUpload(url, bearer(token), 100 * 1024, 200 * 1024), slowUpload(url, bearer(token), 100 * 1024, 200 * 1024)];
    await settle(300);
    const refused = await Promise.all([slowUpload(url, bearer(token), 0, 200 * 1024).answer, slowUpload(url, bearer(token), 0, 200 * 1024).answer]);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(messageOf(answer)).toBe('Service unavailable: Loupe’s gateway is reading 512 KiB of request bodies at once, its limit; try again in a moment.');
    }
    // Chunked bodies count as they arrive: one that grows past what is left (112 KiB) is refused too.
    const chunked = slowUpload(url, bearer(token), 150 * 1024);
    expect((await chunked.answer).status).toBe(503);
    // The slow ones finish (their bytes are padding: not JSON) and free their share.
    for (const upload of slow) upload.more(100 * 1024);
    for (const upload of slow) expect((await upload.answer).status).toBe(400);
    expect(untouched()).toBe(true);
    expect((await raw(url, { ...JSON_POST, ...bearer(token) }, INIT)).status).toBe(200);
  });

  it('gives up on a body that does not arrive in time (408), and its share is free again', async () => {
    const { url, token, untouched } = await startGateway({ bodies: { maxBytes: 256 * 1024, maxTotalBytes: 256 * 1024, timeoutMs: 1_000 } });
    const started = Date.now();
    const stalled = slowUpload(url, bearer(token), 10, 200 * 1024);
    const answer = await stalled.answer;
    expect(answer.status).toBe(408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(messageOf(answer)).toBe('Request timeout: the body did not arrive within 1 second; Loupe’s gateway does not wait longer for a request body.');
    expect(untouched()).toBe(true);
    expect((await raw(url, { ...JSON_POST, ...bearer(token) }, INIT)).status).toBe(200);
  });

  it('by default reads at most 16 MiB of bodies at once: four slow 4 MiB uploads, the fifth is refused', async () => {
    const { url, token, untouched } = await startGateway();
    const held = Array.from({ length: 4 }, () => slowUpload(url, bearer(token), 1024, 4 * 1024 * 1024));
    await settle(300);
    const fifth = await slowUpload(url, bearer(token), 0, 4 * 1024 * 1024).answer;
    expect(fifth.status).toBe(503);
    const over = await slowUpload(url, bearer(token), 0, 4 * 1024 * 1024 + 1).answer;
    expect(over.status).toBe(413);
    expect(messageOf(over)).toBe('Payload too large: Loupe’s gateway reads request bodies of at most 4 MiB.');
    for (const upload of uploads.splice(0)) upload.destroy();
    void held;
    await settle(300);
    expect(untouched()).toBe(true);
    expect((await raw(url, { ...JSON_POST, ...bearer(token) }, INIT)).status).toBe(200);
  });
});

describe('the command line', () => {
  it('--gateway-no-auth warns in words on stderr, and a client without a token gets through', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/proxy/cli.js'), '--gateway', '--gateway-no-auth', '--gateway-port', '0', '--no-open', '--port', '0', process.execPath, EVERYTHING, 'stdio'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const deadline = Date.now() + 20_000;
    let url: string | undefined;
    while (!(url = /^Gateway for MCP clients: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stdout)?.[1]) && Date.now() < deadline) await settle(50);
    expect(url).toBeDefined();
    // Written to stderr before the URL reaches stdout, but two pipes are read in no set order.
    while (!stderr.includes('WARNING') && Date.now() < deadline) await settle(50);
    expect(stderr).toContain(`mcp-loupe: WARNING: --gateway-no-auth: the gateway at ${url} asks for no token: anyone on this machine (any local user or program) can start `);
    expect(stderr).toMatch(/can start .*server-everything.* as you through it\./);
    expect(stdout).not.toMatch(/Bearer/);
    const client = await connect(url!);
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'no token asked' } });
    expect(JSON.stringify(echoed.content)).toContain('no token asked');
  });
});
