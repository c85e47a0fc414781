/**
 * Integration: the gateway (issue 13) in front of server-everything over stdio, driven by the SDK's
 * own Client over Streamable HTTP, several at once; each client session is a session in Loupe.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import { defaultServer } from '../../default-server.ts';
import { launch, type RunningLoupe } from '../../launch.ts';
import type { Session } from '../../session/session.ts';
import { stopChild } from '../../testing/children.ts';
import { testUiRoot } from '../../testing/harness.ts';
import { processAlive } from '../../system/process-group.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const uiRoot = testUiRoot();
const running: RunningLoupe[] = [];
const clients: Client[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((l) => l.close()));
  await Promise.all(children.splice(0).map(stopChild));
});

/** The token of the gateway a test started last: its clients send it, as a client configured from the printed lines does. */
let token = '';

async function startGateway(gateway: { idleMs?: number; maxSessions?: number; label?: string } = {}, config: ServerConfig = defaultServer()) {
  const loupe = await launch({ config, gateway: { port: 0, ...gateway }, port: 0, uiRoot });
  running.push(loupe);
  expect(loupe.gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  token = loupe.gatewayToken!;
  return { loupe, url: loupe.gatewayUrl!, engine: loupe.hub.engine };
}

async function connect(url: string, name: string, capabilities: Record<string, unknown> = {}) {
  const client = new Client({ name, version: '1.2.3' }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

async function until<T>(check: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const gatewaySessions = (engine: RunningLoupe['hub']['engine']): Session[] => engine.sessionList().filter((s) => s.snapshot().relay?.kind === 'gateway');

/** The live child processes of `pid` whose command line mentions `what`, from /proc (Linux). */
function childrenOf(pid: number, what: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && Number(ppid) === pid && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(what);
      } catch {
        return false;
      }
    });
}

function raw(url: string, headers: Record<string, string>, body?: string, method = 'POST'): Promise<{ status: number; text: string }> {
  return rawWithHeaders(url, headers, body, method);
}

function rawWithHeaders(url: string, headers: Record<string, string>, body?: string, method = 'POST'): Promise<{ status: number; text: string; headers: import('node:http').IncomingHttpHeaders }> {
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
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** A JSON POST's headers with the token of the gateway started last. */
const POST = () => ({ ...POST_HEADERS, authorization: `Bearer ${token}` });

describe('the gateway in front of server-everything over stdio', () => {
  it('serves two clients at once, each its own session and server, progress to the right call', async () => {
    const { url, engine } = await startGateway();
    const [a, b] = await Promise.all([connect(url, 'client-a', { sampling: {}, elicitation: {} }), connect(url, 'client-b')]);

    const sessions = await until(() => {
      const list = gatewaySessions(engine);
      return list.length === 2 && list.every((s) => s.snapshot().relay?.client) && list;
    }, 'two gateway sessions named by their clients');
    expect(sessions.map((s) => s.snapshot().relay?.label).sort()).toEqual(['client-a 1.2.3', 'client-b 1.2.3']);
    expect(sessions.map((s) => s.snapshot().name).sort()).toEqual(['client-a 1.2.3', 'client-b 1.2.3']);
    const pids = sessions.map((s) => s.snapshot().relay?.pid);
    expect(new Set(pids).size).toBe(2);
    expect(a.client.getServerVersion()?.name).toBeTruthy();

    const [toolsA, toolsB] = await Promise.all([a.client.listTools(), b.client.listTools()]);
    expect(toolsA.tools.map((t) => t.name)).toContain('echo');
    expect(toolsB.tools.map((t) => t.name)).toContain('echo');
    const echoed = await Promise.all([
      a.client.callTool({ name: 'echo', arguments: { message: 'from a' } }),
      b.client.callTool({ name: 'echo', arguments: { message: 'from b' } }),
    ]);
    expect(JSON.stringify(echoed[0].content)).toContain('from a');
    expect(JSON.stringify(echoed[1].content)).toContain('from b');

    // Two long calls on one client at once, one on the other: each progress reaches its own call.
    const progress: Record<string, number[]> = { a1: [], a2: [], b1: [] };
    const long = (c: Client, tag: string, steps: number) =>
      c.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps } }, undefined, { onprogress: (p) => progress[tag].push(p.progress) });
    const done = await Promise.all([long(a.client, 'a1', 3), long(a.client, 'a2', 4), long(b.client, 'b1', 2)]);
    expect(progress).toEqual({ a1: [1, 2, 3], a2: [1, 2, 3, 4], b1: [1, 2] });
    expect(JSON.stringify(done[1].content)).toContain('Steps: 4');

    // The server asks the client in the middle of a call: sampling and elicitation go back and forth.
    a.client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      model: 'test-model',
      role: 'assistant',
      content: { type: 'text', text: `sampled: ${JSON.stringify(request.params.messages[0].content)}` },
    }));
    a.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    const tools = (await a.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('trigger-sampling-request');
    const sampled = await a.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello gateway', maxTokens: 20 } });
    expect(JSON.stringify(sampled.content)).toContain('sampled:');
    expect(JSON.stringify(sampled.content)).toContain('hello gateway');
    const elicited = await a.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(elicited.content)).toMatch(/decline/i);

    // The trace of each session holds its own client's frames, recorded on the way to the server.
    const frames = sessions.map((s) => s.trace.all().filter((e) => e.kind === 'frame').map((e) => (e.kind === 'frame' ? e.raw : '')).join('\n'));
    const [ofA, ofB] = sessions[0].snapshot().relay?.label === 'client-a 1.2.3' ? frames : [frames[1], frames[0]];
    expect(ofA).toContain('from a');
    expect(ofA).not.toContain('from b');
    expect(ofB).toContain('from b');

    // Nothing outlives Loupe: closing it stops both servers.
    await running.splice(0)[0].close();
    for (const pid of pids) expect(processAlive(pid!)).toBe(false);
  });

  it('sends a call’s progress on that call’s own stream, with two calls in flight', async () => {
    const { url } = await startGateway();
    const init = await rawWithHeaders(url, POST(), INIT);
    const sessionId = init.headers['mcp-session-id'] as string;
    expect(init.text).toContain('serverInfo');
    const headers = { ...POST(), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    expect((await raw(url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
    const call = (id: number, token: string, steps: number) =>
      raw(url, headers, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 0.4, steps }, _meta: { progressToken: token } } }));
    const [first, second] = await Promise.all([call(10, 'first', 2), call(11, 'second', 3)]);
    const progressOf = (text: string) => [...text.matchAll(/"progressToken":"(\w+)"/g)].map((m) => m[1]);
    expect(progressOf(first.text)).toEqual(['first', 'first']);
    expect(progressOf(second.text)).toEqual(['second', 'second', 'second']);
    expect(first.text).toContain('Steps: 2');
    expect(second.text).toContain('Steps: 3');
  });

  it('applies Loupe’s interception rules to a gateway session', async () => {
    const { url, engine } = await startGateway();
    engine.setRules([{ id: 'gate', name: 'no echo', match: { direction: 'to-server', method: 'tools/call', name: 'echo' }, action: { type: 'deny' } }]);
    const { client } = await connect(url, 'guarded');
    const refused = await client.callTool({ name: 'echo', arguments: { message: 'let me through' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('refused this call to echo');
    // Other calls go on as before, and the refused one never reached the server.
    const sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    expect(JSON.stringify(sum.content)).toContain('5');
    const session = gatewaySessions(engine)[0];
    const events = session.trace.all();
    expect(events.some((e) => e.kind === 'intervention')).toBe(true);
    expect(events.some((e) => e.kind === 'frame' && e.dir === 'out' && e.raw.includes('let me through'))).toBe(false);
  });

  it('reaps a client that disappears without DELETE, and its server process is gone', async () => {
    const { url, engine } = await startGateway({ idleMs: 1000 });
    const { client, transport } = await connect(url, 'vanishing');
    await client.listTools();
    const session = await until(() => gatewaySessions(engine)[0], 'the gateway session');
    const pid = session.snapshot().relay!.pid!;
    expect(processAlive(pid)).toBe(true);
    const sessionId = transport.sessionId!;
    // Gone without a word: its connections close, no DELETE is sent.
    await transport.close();
    await until(() => session.snapshot().status === 'disconnected', 'the reaped session', 8000);
    await until(() => !processAlive(pid), 'the server process to end', 5000);
    const note = session.trace.all().find((e) => e.kind === 'transport' && e.message.includes('without a request'));
    expect(note && note.kind === 'transport' && note.message).toBe('Gateway: Closed after 1 second without a request from the client.');
    const later = await raw(url, { ...POST(), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
    expect(later.status).toBe(404);
  });

  it('keeps a session that waits on a long call, however idle', async () => {
    const { url, engine } = await startGateway({ idleMs: 1000 });
    const { client } = await connect(url, 'patient');
    const result = await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 2 } });
    expect(JSON.stringify(result.content)).toContain('completed');
    expect(gatewaySessions(engine)[0].snapshot().status).toBe('connected');
  });

  it('ends the session on DELETE, stops its server, and answers 404 after', async () => {
    const { url, engine } = await startGateway();
    const { client, transport } = await connect(url, 'polite');
    await client.ping();
    const session = await until(() => gatewaySessions(engine)[0], 'the gateway session');
    const pid = session.snapshot().relay!.pid!;
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await until(() => session.snapshot().status === 'disconnected', 'the ended session');
    await until(() => !processAlive(pid), 'the server process to end', 5000);
    expect(session.trace.all().some((e) => e.kind === 'transport' && e.message === 'Gateway: The client ended its session (DELETE).')).toBe(true);
    const later = await raw(url, { ...POST(), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }));
    expect(later.status).toBe(404);
    expect(JSON.parse(later.text).error.code).toBe(-32001);
  });

  it('closes the client session when Loupe’s page removes it', async () => {
    const { url, engine } = await startGateway();
    const { client } = await connect(url, 'removed');
    await client.ping();
    const session = await until(() => gatewaySessions(engine)[0], 'the gateway session');
    const pid = session.snapshot().relay!.pid!;
    await engine.removeSession(session.id);
    await until(() => !processAlive(pid), 'the server process to end', 5000);
    await expect(client.ping()).rejects.toThrow(/404|Session not found/);
  });

  it('at the cap, ends the session unused longest with nothing in flight, says so, and opens the new one', async () => {
    const { url, engine } = await startGateway({ maxSessions: 2 });
    const one = await connect(url, 'one');
    const two = await connect(url, 'two');
    await one.client.ping();
    // "two" is now the one unused longest: it is the one ended, whatever the order they opened in.
    await one.client.ping();
    const before = gatewaySessions(engine);
    const three = await connect(url, 'three');
    await three.client.ping();
    await one.client.ping();
    await expect(two.client.ping()).rejects.toThrow(/404|Session not found/);
    const ended = before.find((s) => s.trace.all().some((e) => e.kind === 'transport' && e.message.startsWith('Gateway: Closed to make room')));
    expect(ended, 'a page session that says it was closed to make room').toBeDefined();
    const note = ended!.trace.all().find((e) => e.kind === 'transport' && e.message.startsWith('Gateway: Closed to make room'));
    expect(note && note.kind === 'transport' && note.message).toBe('Gateway: Closed to make room for a new client session: the gateway keeps 2 at most (--gateway-max-sessions), and this one had gone unused longest with nothing in flight.');
    expect(ended!.trace.all().some((e) => e.kind === 'frame' && e.raw.includes('"two"'))).toBe(true);
  });

  it('refuses a session over the cap in plain words when every session has a call in flight', async () => {
    const { url } = await startGateway({ maxSessions: 2 });
    const busy = await Promise.all(['one', 'two'].map((name) => connect(url, name)));
    const calls = busy.map(({ client }) => client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 2 } }));
    await new Promise((r) => setTimeout(r, 300));
    const third = await raw(url, POST(), INIT);
    expect(third.status).toBe(503);
    expect(JSON.parse(third.text).error.message).toBe("Loupe's gateway has 2 sessions open, each with a request in flight, its limit (--gateway-max-sessions); wait for one to finish, close one or raise the limit.");
    // Neither busy session was harmed.
    for (const result of await Promise.all(calls)) expect(JSON.stringify(result)).toContain('Long running operation completed');
  });

  it('answers 502 in plain words when the target cannot start, and the page shows why', async () => {
    const { url, engine } = await startGateway({}, { kind: 'stdio', command: 'no-such-server-command-xyz', args: [], env: {} });
    const answer = await raw(url, POST(), INIT);
    expect(answer.status).toBe(502);
    const body = JSON.parse(answer.text) as { id: number; error: { message: string } };
    expect(body.id).toBe(1);
    expect(body.error.message).toBe("Loupe's gateway could not open a session with its server: Command not found: no-such-server-command-xyz Install it, or give its full path.");
    await expect(connect(url, 'hopeful')).rejects.toThrow(/could not open a session with its server: Command not found/);
    const failed = await until(() => gatewaySessions(engine).find((s) => s.snapshot().status === 'failed'), 'a failed session');
    expect(failed.snapshot().error?.message).toBe('Command not found: no-such-server-command-xyz');
  });

  it('answers 502 with the exit when the server dies before answering initialize', async () => {
    const dies: ServerConfig = { kind: 'stdio', command: process.execPath, args: ['-e', 'process.stderr.write("no config here\\n"); process.exit(3)'], env: {} };
    const { url } = await startGateway({}, dies);
    const answer = await raw(url, POST(), INIT);
    expect(answer.status).toBe(502);
    const error = (JSON.parse(answer.text) as { error: { message: string; data?: { stderrTail?: string } } }).error;
    expect(error.message).toBe("Loupe's gateway could not open a session with its server: The server exited with code 3 before it answered initialize.");
    expect(error.data?.stderrTail).toBe('no config here');
  });

  it('refuses a foreign Host or Origin, another loopback page included, and lets its own origin in', async () => {
    const { url } = await startGateway();
    const port = new URL(url).port;
    expect((await raw(url, { ...POST(), host: 'evil.example.com' }, INIT)).status).toBe(403);
    expect((await raw(url, { ...POST(), host: `evil.example.com:${port}` }, INIT)).status).toBe(403);
    const foreign = await raw(url, { ...POST(), origin: 'http://evil.example.com' }, INIT);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text).error.message).toMatch(/takes no requests from web pages/);
    expect((await raw(url, { ...POST(), host: `localhost:${port}`, origin: 'http://localhost:5173' }, INIT)).status).toBe(403);
    const own = await raw(url, { ...POST(), host: `localhost:${port}`, origin: `http://localhost:${port}` }, INIT);
    expect(own.status).toBe(200);
    expect(own.text).toContain('serverInfo');
  });

  it('says what to do for a request without a session and for another path', async () => {
    const { url } = await startGateway();
    const noSession = await raw(url, POST(), JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.text).error.message).toMatch(/Mcp-Session-Id header is required/);
    expect((await raw(url.replace('/mcp', '/other'), POST(), INIT)).status).toBe(404);
  });
});

describe('the command line', () => {
  it('prints the gateway line, and a client gets through it', async () => {
    const everything = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    const child = spawn(process.execPath, [join(ROOT, 'dist/proxy/cli.js'), '--gateway', '--gateway-port', '0', '--no-open', '--port', '0', process.execPath, everything], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    const url = await until(() => /^Gateway for MCP clients: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stdout)?.[1], 'the gateway line', 20_000);
    // The token as a user reads it: from the line that prints it, then from each ready-to-paste config
    // (the server named after its command's file, index.js).
    token = await until(() => /^Gateway token \(.*\): ([A-Za-z0-9_-]{43})$/m.exec(stdout)?.[1], 'the token line');
    await until(() => stdout.includes('Cursor'), 'the client configs');
    expect(stdout).toContain(`  Claude Code:                claude mcp add --transport http index-js ${url} --header "Authorization: Bearer ${token}"`);
    const vscode = JSON.parse(/^ {2}VS Code \(\.vscode\/mcp\.json\): (.*)$/m.exec(stdout)![1]) as unknown;
    expect(vscode).toEqual({ servers: { 'index-js': { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } });
    const cursor = JSON.parse(/^ {2}Cursor \(mcp\.json\): +(.*)$/m.exec(stdout)![1]) as unknown;
    expect(cursor).toEqual({ mcpServers: { 'index-js': { url, headers: { Authorization: `Bearer ${token}` } } } });
    // Nowhere on Loupe's own command line.
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).not.toContain(token);
    const { client } = await connect(url, 'cli-client');
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'through the built CLI' } });
    expect(JSON.stringify(echoed.content)).toContain('through the built CLI');
    // The server the gateway started for this client goes when Loupe does.
    const servers = childrenOf(child.pid!, 'server-everything');
    expect(servers.length).toBe(1);
    await stopChild(child);
    await until(() => servers.every((pid) => !processAlive(pid)), 'the gateway’s server to end with Loupe', 5000);
  });
});
