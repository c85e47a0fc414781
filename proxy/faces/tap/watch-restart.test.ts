/**
 * Integration: `mcp-loupe --tap --watch DIR -- node DIR/server.mjs` (issue 25) as a host runs it
 * (the BUILT cli, so a test needs a current build), with a scripted host that writes JSON-RPC lines
 * and reads what comes back. The server is a small SDK server written to a temp folder; the test
 * rewrites it and the host must be told `list_changed`, never get a second initialize answer, find
 * the new tool, and get an error for the call the restart cut off. No process outlives the tap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from '../../../lib/wire/wire.ts';
import { groupAlive, processAlive } from '../../system/process-group.ts';
import { stopChild } from '../../testing/children.ts';
import { LoupeHarness } from '../../testing/harness.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const SDK = pathToFileURL(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server')).href;

const harness = new LoupeHarness();
const started: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map(stopChild));
  await harness.closeAll();
});

const temp = () => mkdtempSync(join(tmpdir(), 'loupe-tap-watch-'));

/** An SDK server with these tools (`name: body of the handler`); it says its pid on stderr. */
function serverSource(tools: Record<string, string>): string {
  const registered = Object.entries(tools).map(([name, body]) => `server.registerTool(${JSON.stringify(name)}, { description: ${JSON.stringify(name)} }, async () => { ${body} });`);
  return [
    `import { McpServer } from '${SDK}/mcp.js';`,
    `import { StdioServerTransport } from '${SDK}/stdio.js';`,
    "process.stderr.write(`server pid ${process.pid}\\n`);",
    "const server = new McpServer({ name: 'watched', version: '1.0.0' });",
    ...registered,
    'await server.connect(new StdioServerTransport());',
  ].join('\n');
}

const TEXT = (text: string) => `return { content: [{ type: 'text', text: ${JSON.stringify(text)} }] };`;
const SLOW = "await new Promise((r) => setTimeout(r, 60_000)); return { content: [{ type: 'text', text: 'late' }] };";

interface Message {
  id?: number | string;
  method?: string;
  result?: { tools?: { name: string }[] } & Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The built tap with a scripted host on its stdio: lines out, messages in, stderr kept. */
function scriptedHost(args: string[], env: Record<string, string> = {}) {
  const attach = args.includes('--attach') ? [] : ['--no-attach'];
  const child = spawn(process.execPath, [CLI, '--tap', ...attach, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  started.push(child);
  const received: Message[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (line) => received.push(JSON.parse(line) as Message));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const send = (message: object) => void child.stdin!.write(`${JSON.stringify(message)}\n`);
  const until = <T>(check: () => T | undefined, what: string) => poll(check, () => `${what}; stderr:\n${stderr}\nreceived: ${JSON.stringify(received)}`);
  const answer = (id: number) => until(() => received.find((m) => m.id === id && m.method === undefined), `no answer to ${id}`);
  const request = (id: number, method: string, params: object = {}) => (send({ jsonrpc: '2.0', id, method, params }), answer(id));
  const serverPids = () => [...stderr.matchAll(/server pid (\d+)/g)].map((m) => Number(m[1]));
  return { child, received, send, until, answer, request, exited, serverPids, stderr: () => stderr };
}

async function initialize(host: ReturnType<typeof scriptedHost>): Promise<string> {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'scripted-host', version: '1.0.0' } } };
  const answer = await host.request(1, 'initialize', init.params);
  expect(answer.result?.serverInfo).toMatchObject({ name: 'watched' });
  host.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return JSON.stringify(init);
}

async function poll<T>(check: () => T | undefined, explain: () => string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(explain());
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function gone(pid: number): Promise<void> {
  await poll(() => (groupAlive(pid) || processAlive(pid) ? undefined : true), () => `process ${pid} (or its group) is still running`, 5_000);
}

function readRecording(path: string): TraceEvent[] {
  const [, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  return lines.map((line) => JSON.parse(line) as TraceEvent);
}

describe('mcp-loupe --tap --watch', () => {
  it('restarts the server when its file changes, replays the host’s initialize, and tells the host list_changed', async () => {
    const dir = temp();
    const script = join(dir, 'server.mjs');
    writeFileSync(script, serverSource({ wait: SLOW }));
    const record = join(temp(), 'tap.jsonl');
    const host = scriptedHost(['--record', record, '--watch', dir, '--', process.execPath, script]);
    const initLine = await initialize(host);
    expect((await host.request(2, 'tools/list')).result?.tools?.map((t) => t.name)).toEqual(['wait']);
    await host.until(() => (host.stderr().includes('a change restarts the server') ? true : undefined), 'not watching');
    const [oldPid] = host.serverPids();

    // A call in flight when the file changes.
    host.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'wait', arguments: {} } });
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(script, serverSource({ wait: SLOW, second: TEXT('two') }));

    const cut = await host.answer(3);
    expect(cut.error).toMatchObject({ code: -32603 });
    expect(cut.error!.message).toMatch(/restarted because its files changed \(.*server\.mjs changed\)/);
    const changed = await host.until(() => host.received.find((m) => m.method === 'notifications/tools/list_changed'), 'no tools/list_changed');
    expect(host.received.indexOf(cut)).toBeLessThan(host.received.indexOf(changed));
    expect(host.stderr()).toMatch(/mcp-loupe: .*server\.mjs changed: restarting the server/);
    // The old server's whole group is gone; the new one answers.
    await gone(oldPid);
    expect((await host.request(4, 'tools/list')).result?.tools?.map((t) => t.name)).toEqual(['wait', 'second']);
    expect((await host.request(5, 'tools/call', { name: 'second', arguments: {} })).result).toMatchObject({ content: [{ type: 'text', text: 'two' }] });
    // One answer to the host's initialize, ever: the new server's went no further.
    expect(host.received.filter((m) => m.id === 1)).toHaveLength(1);
    expect(host.received.filter((m) => m.method?.startsWith('notifications/'))).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    const [, newPid] = host.serverPids();
    expect(newPid).not.toBe(oldPid);

    host.child.stdin!.end();
    expect(await host.exited).toBe(0);
    await gone(newPid);

    // The record: the replayed initialize exactly as the host wrote it, marked; the swallowed answer; the restart.
    const events = readRecording(record);
    const frames = events.filter((e): e is FrameEvent => e.kind === 'frame');
    const replays = frames.filter((f) => f.origin === 'replay');
    expect(replays.map((f) => f.method)).toEqual(['initialize', 'notifications/initialized']);
    expect(replays[0].raw).toBe(initLine);
    expect(frames.filter((f) => f.dir === 'in' && f.id === 1)).toHaveLength(2);
    const said = events.filter((e) => e.kind === 'transport').map((e) => (e.kind === 'transport' ? e.message : ''));
    expect(said.some((m) => /^Restarted: .*server\.mjs changed; the host was told notifications\/tools\/list_changed/.test(m))).toBe(true);
    expect(said.filter((m) => m.startsWith('Started '))).toHaveLength(2);
    expect(events.filter((e) => e.kind === 'exit')).toEqual([expect.objectContaining({ code: 0 })]);
  });

  it('goes on when a restart fails, answering requests with why, and still exits with the server’s own code', async () => {
    const dir = temp();
    const script = join(dir, 'server.mjs');
    writeFileSync(script, serverSource({ exit: 'process.exit(3);' }));
    const host = scriptedHost(['--watch', dir, '--', process.execPath, script]);
    await initialize(host);
    await host.until(() => (host.stderr().includes('a change restarts the server') ? true : undefined), 'not watching');

    writeFileSync(script, "throw new Error('broken on purpose');\n");
    await host.until(() => (host.stderr().includes('the server did not restart') ? true : undefined), 'no failed restart said');
    expect(host.stderr()).toMatch(/the server did not restart: it exited \(code 1\) before it answered initialize; still watching/);
    const refused = await host.request(2, 'tools/list');
    expect(refused.error?.message).toMatch(/^The server is not running: it did not restart after .*server\.mjs changed/);
    expect(host.child.exitCode).toBeNull();

    writeFileSync(script, serverSource({ exit: 'process.exit(7);', hello: TEXT('hi') }));
    await host.until(() => host.received.find((m) => m.method === 'notifications/tools/list_changed'), 'no tools/list_changed');
    expect((await host.request(3, 'tools/list')).result?.tools?.map((t) => t.name)).toEqual(['exit', 'hello']);
    const pid = host.serverPids().at(-1)!;
    // The server ends on its own (no restart under way): the tap ends with its code.
    host.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'exit', arguments: {} } });
    expect(await host.exited).toBe(7);
    await gone(pid);
  });

  it('shows the restart in the Loupe it is attached to: the replayed initialize, the new server, the session still connected', async () => {
    const { loupe, client: page } = await harness.start({});
    const dir = temp();
    const script = join(dir, 'server.mjs');
    writeFileSync(script, serverSource({ first: TEXT('one') }));
    const host = scriptedHost(['--attach', loupe.origin, '--watch', dir, '--', process.execPath, script], { MCP_LOUPE_TOKEN: loupe.token });
    await initialize(host);
    const session = await page.until(() => [...page.sessions.values()].find((s) => s.relay?.kind === 'tap' && s.serverInfo?.name === 'watched'));
    await host.until(() => (host.stderr().includes('a change restarts the server') ? true : undefined), 'not watching');
    writeFileSync(script, serverSource({ first: TEXT('one'), second: TEXT('two') }).replace("version: '1.0.0'", "version: '2.0.0'"));
    await host.until(() => host.received.find((m) => m.method === 'notifications/tools/list_changed'), 'no tools/list_changed');
    const replay = await page.until(() => page.events.find((e): e is FrameEvent => e.session === session.id && e.kind === 'frame' && e.origin === 'replay' && e.method === 'initialize'));
    expect(replay.dir).toBe('out');
    await page.until(() => page.events.find((e) => e.session === session.id && e.kind === 'transport' && e.message.startsWith('Restarted: ')));
    const now = await page.until(() => (page.sessions.get(session.id)?.serverInfo?.version === '2.0.0' ? page.sessions.get(session.id) : undefined));
    expect(now.status).toBe('connected');
    host.child.stdin!.end();
    expect(await host.exited).toBe(0);
  });
});
