/**
 * Integration (issue 21, the trust standard): the HTTP mock serves a recording, which may hold what
 * its user would not publish, so it asks what the gateway asks (mcp-endpoint-guard.ts): the
 * per-launch bearer token, no Origin but its own (not even a page on another loopback port), and a
 * JSON body within bounds (gateway-body.ts). Real HTTP against real mocks of both generations (a
 * 2025-11-25 recording of server-everything, a 2026-07-28 one of the modern fixture, both made by
 * the built CLI's `--record`); then the built CLI: the token printed next to the URL with client
 * configs to paste, a client that uses one of them, the token on no command line, and
 * `--mock-no-auth` warned about.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTrace } from '../../../lib/trace/read-trace.ts';
import { startMock, type RunningMock } from './mock.ts';
import { runBuiltCli, stopChild } from '../../testing/children.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const MODERN = ['--protocol', '2026-07-28', process.execPath, join(ROOT, 'e2e/fixtures/modern-server.mjs'), '--stdio', '--modern-only'];

const children: ChildProcess[] = [];
const mocks: RunningMock[] = [];
const clients: Array<{ close(): Promise<void> }> = [];
const uploads: ClientRequest[] = [];
afterEach(async () => {
  for (const upload of uploads.splice(0)) upload.destroy();
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(mocks.splice(0).map((m) => m.close()));
  await Promise.all(children.splice(0).map(stopChild));
});
afterAll(async () => {
  await Promise.all(children.map(stopChild));
});

const dir = mkdtempSync(join(tmpdir(), 'loupe-mock-guard-'));
/** Each generation's recording of tools/list, and what the real server answered. */
const recordings = {
  '2025-11-25': { file: join(dir, 'everything.jsonl'), tools: [] as unknown[] },
  '2026-07-28': { file: join(dir, 'modern.jsonl'), tools: [] as unknown[] },
};
type Generation = keyof typeof recordings;

beforeAll(async () => {
  const runs = await Promise.all([
    runBuiltCli(['--cli', '--record', recordings['2025-11-25'].file, '--method', 'tools/list', ...EVERYTHING], children),
    runBuiltCli(['--cli', '--record', recordings['2026-07-28'].file, '--method', 'tools/list', ...MODERN], children),
  ]);
  for (const [run, recording] of [
    [runs[0], recordings['2025-11-25']],
    [runs[1], recordings['2026-07-28']],
  ] as const) {
    expect(run.code, run.stderr).toBe(0);
    recording.tools = (JSON.parse(run.stdout) as { tools: unknown[] }).tools;
    expect(recording.tools.length).toBeGreaterThan(0);
  }
}, 120_000);

async function mock(generation: Generation, options: Parameters<typeof startMock>[1] = {}) {
  const parsed = parseTrace(readFileSync(recordings[generation].file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  const log: string[] = [];
  const running = await startMock(parsed.trace, { port: 0, log: (line) => void log.push(line), ...options });
  mocks.push(running);
  return { running, url: running.url!, token: running.token, log };
}

interface Answer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const target = new URL(url);
  return new Promise((done, fail) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** A POST that declares a body of `length` bytes and sends none of it yet: the answer it gets before. */
function declaredUpload(url: string, headers: Record<string, string>, length: number): Promise<Answer> {
  const target = new URL(url);
  const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...headers, 'content-length': String(length) } });
  uploads.push(req);
  const answer = new Promise<Answer>((done, fail) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', fail);
  });
  req.flushHeaders();
  return answer;
}

/** The first request of a client of each generation: initialize (2025), tools/list stamped 2026-07-28. */
const FIRST: Record<Generation, string> = {
  '2025-11-25': JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
  '2026-07-28': JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
};
const JSON_POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const bearer = (token: string | undefined) => ({ authorization: `Bearer ${token}` });
const messageOf = (answer: Answer) => (JSON.parse(answer.text) as { error: { message: string } }).error.message;
/** Nothing of the recording went out: a JSON-RPC error and no result. */
const answeredNothing = (answer: Answer) => !answer.text.includes('"result"') && !answer.text.includes('serverInfo') && messageOf(answer).length > 0;

/** A client of the generation, sending `headers` on every request; its tools/list. */
async function listTools(generation: Generation, url: string, headers: Record<string, string>): Promise<unknown[]> {
  if (generation === '2025-11-25') {
    const client = new LegacyClient({ name: 'client-under-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(new LegacyHttpTransport(new URL(url), { requestInit: { headers } }));
    return (await client.listTools()).tools;
  }
  const client = new Client({ name: 'client-under-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return (await client.listTools()).tools;
}

describe.each(['2025-11-25', '2026-07-28'] as const)('the HTTP mock of a %s recording', (generation) => {
  it('answers 401 with WWW-Authenticate: Bearer without the token or with a wrong one, and answers nothing', async () => {
    const { url, token, log } = await mock(generation);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const none = await post(url, JSON_POST, FIRST[generation]);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="mcp-loupe-mock"');
    expect(messageOf(none)).toBe('Unauthorized: Loupe’s mock needs the token it printed at start, as the header "Authorization: Bearer <token>" (a new token at every launch).');
    expect(answeredNothing(none)).toBe(true);
    const wrong = await post(url, { ...JSON_POST, ...bearer(`${token!.slice(1)}x`) }, FIRST[generation]);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="mcp-loupe-mock", error="invalid_token"');
    expect(answeredNothing(wrong)).toBe(true);
    // Nor the token of another scheme, nor in the query.
    expect((await post(url, { ...JSON_POST, authorization: `Basic ${token}` }, FIRST[generation])).status).toBe(401);
    expect((await post(`${url}?token=${token}`, JSON_POST, FIRST[generation])).status).toBe(401);
    expect(log.filter((l) => /connected|no recorded answer/.test(l))).toEqual([]);
  });

  it('refuses a page on another loopback port (403) and a text/plain POST (415), even with the token', async () => {
    const { url, token, log } = await mock(generation);
    const page = await post(url, { ...JSON_POST, ...bearer(token), origin: 'http://localhost:3000' }, FIRST[generation]);
    expect(page.status).toBe(403);
    expect(messageOf(page)).toBe('Forbidden: Loupe’s mock takes no requests from web pages (Origin http://localhost:3000); only its own origin, or none, as MCP clients send.');
    expect(answeredNothing(page)).toBe(true);
    // The "simple" request a page can send without a preflight.
    const plain = await post(url, { ...JSON_POST, ...bearer(token), 'content-type': 'text/plain' }, FIRST[generation]);
    expect(plain.status).toBe(415);
    expect(messageOf(plain)).toBe('Unsupported Media Type: Loupe’s mock takes POST bodies of Content-Type application/json only.');
    expect(answeredNothing(plain)).toBe(true);
    expect(log.filter((l) => /connected|no recorded answer/.test(l))).toEqual([]);
  });

  it('refuses a body over 4 MiB with 413 in words, before reading it', async () => {
    const { url, token } = await mock(generation);
    const over = await declaredUpload(url, { ...JSON_POST, ...bearer(token) }, 4 * 1024 * 1024 + 1);
    expect(over.status).toBe(413);
    expect(messageOf(over)).toBe('Payload too large: Loupe’s mock reads request bodies of at most 4 MiB.');
  });

  it('gives a token, and answers the SDK client that sends it as the server did', async () => {
    const { url, token } = await mock(generation);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await listTools(generation, url, bearer(token))).toEqual(recordings[generation].tools);
  });

  it('asks for no token under noAuth (--mock-no-auth), and still refuses pages and text/plain', async () => {
    const { url, token } = await mock(generation, { noAuth: true });
    expect(token).toBeUndefined();
    expect(await listTools(generation, url, {})).toEqual(recordings[generation].tools);
    expect((await post(url, { ...JSON_POST, origin: 'http://localhost:3000' }, FIRST[generation])).status).toBe(403);
    expect((await post(url, { ...JSON_POST, 'content-type': 'text/plain' }, FIRST[generation])).status).toBe(415);
  });
});

/** The built CLI as a terminal runs it: resolves once `pattern` is in what it wrote on stderr. */
function startCliMock(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const waitFor = async (pattern: RegExp, what: string): Promise<RegExpExecArray> => {
    for (const end = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 25))) {
      const found = pattern.exec(out.stderr);
      if (found) return found;
      if (Date.now() > end || child.exitCode !== null) throw new Error(`no ${what}; stderr: ${out.stderr}`);
    }
  };
  return { child, out, waitFor };
}

/** Every command line of this machine that this user can read, words joined by spaces. */
function everyCommandLine(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return lines;
}

describe('mcp-loupe --mock FILE --mock-port N', () => {
  it('prints the token next to the URL with client configs; a client given one of them gets the recording; the token is on no command line', async () => {
    const { file } = recordings['2025-11-25'];
    const mock = startCliMock(['--mock', file, '--mock-port', '0']);
    const url = (await mock.waitFor(/listening at (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 'URL'))[1];
    const token = (await mock.waitFor(/^Mock token \(new at every launch; clients send it as the header "Authorization: Bearer <token>"\): ([A-Za-z0-9_-]{43})$/m, 'token line'))[1];
    const cursorLine = (await mock.waitFor(/^ {2}Cursor \(mcp\.json\): +(.*)$/m, 'Cursor config'))[1];
    // The URL, then the token, on the lines that follow it; stdout stays empty (it is the protocol's over stdio).
    expect(mock.out.stderr.indexOf(token)).toBeGreaterThan(mock.out.stderr.indexOf(url));
    expect(mock.out.stderr).toContain(`  Claude Code:                claude mcp add --transport http everything ${url} --header "Authorization: Bearer ${token}"`);
    const vscode = JSON.parse(/^ {2}VS Code \(\.vscode\/mcp\.json\): (.*)$/m.exec(mock.out.stderr)![1]) as unknown;
    expect(vscode).toEqual({ servers: { everything: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } });
    expect(JSON.parse(cursorLine)).toEqual({ mcpServers: { everything: { url, headers: { Authorization: `Bearer ${token}` } } } });
    expect(mock.out.stdout).toBe('');

    // Without the token, a client is refused and told why; with the pasted config, it is answered.
    expect((await post(url, JSON_POST, FIRST['2025-11-25'])).status).toBe(401);
    const config = join(dir, 'mcp.json');
    writeFileSync(config, cursorLine, { mode: 0o600 });
    const listed = await runBuiltCli(['--cli', '--method', 'tools/list', '--config', config], children);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { tools: unknown[] }).tools).toEqual(recordings['2025-11-25'].tools);

    const lines = everyCommandLine();
    expect(lines.some((line) => line.includes(file))).toBe(true);
    expect(lines.filter((line) => line.includes(token))).toEqual([]);
  }, 120_000);

  it('--mock-no-auth warns in words on stderr, prints no token, and a client without one gets the recording', async () => {
    const { file } = recordings['2026-07-28'];
    const mock = startCliMock(['--mock', file, '--mock-port', '0', '--mock-no-auth']);
    const url = (await mock.waitFor(/listening at (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 'URL'))[1];
    expect(mock.out.stderr).toContain(
      `mcp-loupe: WARNING: --mock-no-auth: the mock at ${url} asks for no token: anyone on this machine (any local user or program) can read the recording ${file} through it.`,
    );
    expect(mock.out.stderr).not.toMatch(/Bearer|Mock token/);
    expect(await listTools('2026-07-28', url, {})).toEqual(recordings['2026-07-28'].tools);
  }, 120_000);

  it('refuses --mock-no-auth without --mock-port (over stdio only its parent can talk to the mock)', async () => {
    const run = await runBuiltCli(['--mock', recordings['2025-11-25'].file, '--mock-no-auth'], children);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--mock-no-auth is for the HTTP mock (--mock-port N)');
  });
});
