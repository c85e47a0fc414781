/**
 * Integration: `mcp-loupe --tap` as a host runs it (the BUILT cli, so a test needs a current
 * build): a bare SDK Client over stdio drives server-everything through it, the recording holds
 * every frame byte for byte, raw bytes go through unchanged, the exit code comes back, a Loupe in
 * this process shows the session, and a Loupe that goes away mid-session disturbs nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from '../../../lib/wire/wire.ts';
import { groupAlive, processAlive } from '../../system/process-group.ts';
import { stopChild } from '../../testing/children.ts';
import { LoupeHarness } from '../../testing/harness.ts';
import { writeRuntimeState } from '../../system/runtime-state.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

const harness = new LoupeHarness();
const started: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(started.splice(0).map(stopChild));
  await harness.closeAll();
});

const temp = () => mkdtempSync(join(tmpdir(), 'loupe-tap-'));

/** What the client sent (exactly as the SDK serialised it) and received, in order. */
class WatchedTransport implements Transport {
  readonly sent: string[] = [];
  readonly received: JSONRPCMessage[] = [];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(readonly inner: StdioClientTransport) {
    inner.onmessage = (message) => {
      this.received.push(message);
      this.onmessage?.(message);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start = () => this.inner.start();
  close = () => this.inner.close();
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(JSON.stringify(message));
    await this.inner.send(message);
  }
}

async function tapClient(tapArgs: string[], env: Record<string, string> = {}) {
  const inner = new StdioClientTransport({ command: process.execPath, args: [CLI, '--tap', ...tapArgs, '--', ...EVERYTHING], stderr: 'pipe', env: { PATH: process.env.PATH ?? '', ...env }, cwd: ROOT });
  let stderr = '';
  inner.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const transport = new WatchedTransport(inner);
  const client = new Client({ name: 'tap-test-host', version: '4.5.6' }, { capabilities: {} });
  clients.push(client);
  await client.connect(transport);
  return { client, transport, pid: inner.pid!, stderr: () => stderr };
}

async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 200 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  if (processAlive(pid)) throw new Error(`process ${pid} is still running`);
}

function readRecording(path: string): TraceEvent[] {
  const [, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  return lines.map((line) => JSON.parse(line) as TraceEvent);
}

const serverPidOf = (events: TraceEvent[]) => {
  const started = events.find((e) => e.kind === 'transport' && e.message.startsWith('Started'));
  return Number(/\(pid (\d+)\)/.exec(started?.kind === 'transport' ? started.message : '')?.[1]);
};

/** The built CLI with raw pipes: what a host's bytes become. */
function rawTap(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [CLI, '--tap', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env });
  started.push(child);
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return { child, out, exited, stderr: () => stderr };
}

const echo = async (client: Client, message: string) => {
  const result = await client.callTool({ name: 'echo', arguments: { message } });
  expect(result).toMatchObject({ content: [{ type: 'text', text: `Echo: ${message}` }] });
};

describe('mcp-loupe --tap with an SDK client (server-everything)', () => {
  it('relays every call, and the recording holds every frame exactly as sent and received', async () => {
    const record = join(temp(), 'tap.jsonl');
    const { client, transport, pid } = await tapClient(['--no-attach', '--record', record]);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    await echo(client, 'héllo €, "quoted"\\n');
    const resources = await client.listResources();
    const uri = resources.resources[0].uri;
    const read = await client.readResource({ uri });
    expect(read.contents[0].uri).toBe(uri);
    const prompts = await client.listPrompts();
    const simple = prompts.prompts.find((p) => !p.arguments?.some((a) => a.required))!;
    const prompt = await client.getPrompt({ name: simple.name });
    expect(prompt.messages.length).toBeGreaterThan(0);
    await client.close();
    await gone(pid);

    const events = readRecording(record);
    const frames = events.filter((e): e is FrameEvent => e.kind === 'frame');
    // Out: the very text the SDK wrote, in order. In: what the client got, frame by frame.
    expect(frames.filter((f) => f.dir === 'out').map((f) => f.raw)).toEqual(transport.sent);
    expect(frames.filter((f) => f.dir === 'in').map((f) => JSON.parse(f.raw))).toEqual(transport.received);
    expect(frames.find((f) => f.method === 'initialize')).toMatchObject({ rpc: 'request', dir: 'out' });
    expect(events.some((e) => e.kind === 'stderr')).toBe(true);
    expect(events.at(-1)).toMatchObject({ kind: 'exit', code: 0, signal: null });
    // The tap's server (and its group) went with it.
    expect(groupAlive(serverPidOf(events))).toBe(false);
  });

  it('answers a call stopped by a permission gate of --rules with an isError result', async () => {
    const dir = temp();
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, JSON.stringify({ rules: [{ id: 'gate', name: 'no echo', match: { method: 'tools/call', name: 'echo' }, action: { type: 'deny' } }] }));
    const record = join(dir, 'tap.jsonl');
    const { client, pid } = await tapClient(['--no-attach', '--rules', rules, '--record', record]);
    const refused = await client.callTool({ name: 'echo', arguments: { message: 'no' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('permission gate');
    // Other calls go on.
    const sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    expect(JSON.stringify(sum.content)).toContain('5');
    await client.close();
    await gone(pid);
    const events = readRecording(record);
    expect(events.some((e) => e.kind === 'intervention' && e.action === 'answered')).toBe(true);
    // The refused call never reached the server.
    expect(events.some((e) => e.kind === 'frame' && e.dir === 'out' && e.raw.includes('"name":"echo"'))).toBe(false);
  });
});

describe('mcp-loupe --tap attached to a running Loupe', () => {
  it('shows the session named by the host, with its frames, and goes on when that Loupe closes', async () => {
    const { loupe, client: page } = await harness.start({});
    // The address on the command line, the token in the environment (never in argv: issue 21).
    const { client, pid } = await tapClient(['--attach', loupe.origin], { MCP_LOUPE_TOKEN: loupe.token });
    await echo(client, 'seen by Loupe');
    // The host's initialize names the session; the server's answer to it comes in a later update.
    const session = await page.until(() => [...page.sessions.values()].find((s) => s.relay?.kind === 'tap' && s.relay.client?.name === 'tap-test-host' && s.serverInfo !== undefined));
    expect(session.name).toBe('tap-test-host 4.5.6');
    expect(session.status).toBe('connected');
    expect(session.serverInfo?.name).toBe('mcp-servers/everything');
    await page.until(() => page.events.some((e) => e.session === session.id && e.kind === 'frame' && e.dir === 'in' && e.raw.includes('Echo: seen by Loupe')));
    const frames = page.events.filter((e): e is FrameEvent => e.session === session.id && e.kind === 'frame');
    expect(frames[0]).toMatchObject({ dir: 'out', method: 'initialize' });

    await harness.closeAll();
    await echo(client, 'after Loupe went');
    await client.listTools();
    await client.close();
    await gone(pid);
  });

  it('finds Loupe through the runtime state file, and ends the session with the server', async () => {
    const { loupe, client: page } = await harness.start({});
    const runtime = temp();
    const remove = writeRuntimeState({ url: loupe.url, pid: process.pid, version: 'test' }, join(runtime, 'mcp-loupe'));
    try {
      const { client, pid } = await tapClient(['--label', 'my host'], { XDG_RUNTIME_DIR: runtime });
      await echo(client, 'via the state file');
      const session = await page.until(() => [...page.sessions.values()].find((s) => s.relay?.kind === 'tap'));
      expect(session.name).toBe('my host');
      await client.close();
      await gone(pid);
      const ended = await page.until(() => (page.sessions.get(session.id)?.status === 'disconnected' ? page.sessions.get(session.id) : undefined));
      expect(ended.error).toBeUndefined();
      expect(page.events.some((e) => e.session === session.id && e.kind === 'exit' && e.code === 0)).toBe(true);
    } finally {
      remove();
    }
  });
});

describe('mcp-loupe --tap with the rules of the Loupe it attached to', () => {
  async function attached() {
    const { loupe, client: page } = await harness.start({});
    const tap = await tapClient(['--attach', loupe.origin], { MCP_LOUPE_TOKEN: loupe.token });
    await echo(tap.client, 'attached');
    await page.until(() => [...page.sessions.values()].find((s) => s.relay?.kind === 'tap' && s.relay.client));
    return { engine: loupe.hub.engine, ...tap };
  }
  const gate = { id: 'gate', match: { method: 'tools/call', name: 'echo' }, action: { type: 'deny' as const } };
  const pause = { id: 'bp', name: 'hold sums', match: { method: 'tools/call', name: 'get-sum' }, action: { type: 'pause' as const } };

  /** Rules reach the tap a moment after they change: call echo until the gate answers (or stops answering). */
  async function untilGate(client: Client, refused: boolean): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'gate?' } });
      if (Boolean(result.isError) === refused) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the gate never became ${refused ? 'active' : 'inactive'}`);
  }

  it('applies a rule set in Loupe, and lets a person answer a frame it holds', async () => {
    const { engine, client } = await attached();
    engine.setRules([gate, pause]);
    await untilGate(client, true);
    const sum = client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    const held = await until(() => engine.holds.list()[0]);
    expect(held).toMatchObject({ dir: 'to-server', method: 'tools/call', isRequest: true, rule: { id: 'bp' } });
    const id = (JSON.parse(held.raw) as { id: number }).id;
    engine.holds.decide(held.holdId, { action: 'respond', raw: JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'answered by a person' }] } }) });
    expect(await sum).toMatchObject({ content: [{ type: 'text', text: 'answered by a person' }] });
    engine.setRules([]);
    await untilGate(client, false);
  });

  it('lets a held frame go on as it was when that Loupe closes, and the session goes on', async () => {
    const { engine, client } = await attached();
    engine.setRules([gate, pause]);
    await untilGate(client, true);
    const sum = client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    await until(() => engine.holds.list()[0]);
    await harness.closeAll();
    expect(JSON.stringify((await sum).content)).toContain('5');
    // That Loupe's gate went with it.
    await echo(client, 'no gate any more');
  });
});

async function until<T>(check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('mcp-loupe --tap with raw bytes', () => {
  const cat = ['--no-attach', '--', process.execPath, '-e', 'process.stdin.pipe(process.stdout)'];

  it('passes any bytes through unchanged, records each line, and gives the server end of input when the host closes', async () => {
    const record = join(temp(), 'raw.jsonl');
    const tap = rawTap(['--record', record, ...cat]);
    const bytes = Buffer.from('{"jsonrpc":"2.0","method":"a"}\r\nnot json at all\n\n  {"x": "é€"}  \n{"last":1}');
    // Split mid-line and mid-character, as a pipe may.
    for (const [from, to] of [[0, 5], [5, 40], [40, 52], [52, bytes.length]]) {
      tap.child.stdin!.write(bytes.subarray(from, to));
      await new Promise((r) => setTimeout(r, 20));
    }
    tap.child.stdin!.end();
    expect(await tap.exited).toBe(0);
    expect(Buffer.concat(tap.out).equals(bytes)).toBe(true);
    const events = readRecording(record);
    const outs = events.filter((e): e is FrameEvent => e.kind === 'frame' && e.dir === 'out').map((f) => f.raw);
    expect(outs).toEqual(['{"jsonrpc":"2.0","method":"a"}', 'not json at all', '  {"x": "é€"}  ', '{"last":1}']);
    const back = events.filter((e) => e.kind === 'frame' || e.kind === 'noise').filter((e) => e.kind === 'noise' || (e as FrameEvent).dir === 'in');
    expect(back.map((e) => (e.kind === 'noise' ? e.text : (e as FrameEvent).raw))).toEqual(outs);
  });

  it('exits with the server’s exit code, and 128 + n when a signal ended it', async () => {
    expect(await rawTap(['--no-attach', '--', process.execPath, '-e', 'process.exit(7)']).exited).toBe(7);
    expect(await rawTap(['--no-attach', '--', process.execPath, '-e', 'process.kill(process.pid, "SIGKILL")']).exited).toBe(137);
    const missing = rawTap(['--no-attach', '--', 'no-such-command-for-the-tap']);
    expect(await missing.exited).toBe(127);
    expect(missing.stderr()).toContain('Command not found: no-such-command-for-the-tap');
  });

  it('stops the server’s whole group on SIGTERM, even one that ignores end of input', async () => {
    const record = join(temp(), 'term.jsonl');
    const stubborn = 'process.on("SIGTERM", () => process.exit(3)); require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); setInterval(() => {}, 1000); console.log("ready")';
    const tap = rawTap(['--no-attach', '--record', record, '--', process.execPath, '-e', stubborn]);
    await new Promise<void>((r) => tap.child.stdout!.once('data', () => r()));
    tap.child.kill('SIGTERM');
    expect(await tap.exited).toBe(3);
    const events = readRecording(record);
    expect(groupAlive(serverPidOf(events))).toBe(false);
  });
});
