/**
 * Issue 8, "Stop means stop" and "pending requests die with their transport": real processes,
 * counted by process group after every way of stopping a session or Loupe itself.
 * - in this process (LoupeHarness): disconnect / reconnect during connect, the connect timeout, a
 *   call pending when the server exits, a 20 MB argument the server dies of;
 * - the built CLI (dist/proxy/cli.js, `npm run build:proxy` first): SIGINT / SIGTERM / SIGHUP while
 *   connecting, connected and disconnecting, and SIGKILL of Loupe itself (the watchdog).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import { WireTestClient } from '../testing/client.ts';
import { LoupeHarness } from '../testing/harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'e2e', 'fixtures');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const fixture = (name: string, ...args: string[]): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [join(FIXTURES, name), ...args], env: {} });

// ---------------------------------------------------------------------------------------------
// The process table

interface Row {
  pid: number;
  ppid: number;
  pgid: number;
  stat: string;
  args: string;
}

function processTable(): Row[] {
  const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return text.split('\n').flatMap((line) => {
    const m = line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s*(.*)$/);
    return m ? [{ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), stat: m[4], args: m[5] }] : [];
  });
}

/** Live (not zombie) descendants of `pid`. */
function descendants(pid: number): Row[] {
  const table = processTable();
  const found: Row[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of table) {
      if (row.ppid !== parent || found.includes(row)) continue;
      found.push(row);
      queue.push(row.pid);
    }
  }
  return found.filter((r) => !r.stat.startsWith('Z'));
}

/** Live processes in any of `groups`. */
function liveIn(groups: Set<number>): Row[] {
  return processTable().filter((r) => groups.has(r.pgid) && !r.stat.startsWith('Z'));
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function until<T>(check: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Waits for processes under `root` whose command lines match every pattern; returns their groups (and the watchdogs'). */
async function groupsOnceRunning(root: number, patterns: RegExp[]): Promise<{ groups: Set<number>; rows: Row[] }> {
  const rows = await until(() => {
    const rows = descendants(root);
    const ok = patterns.every((p) => rows.some((r) => p.test(r.args))) && rows.some((r) => r.args.includes('loupe-watchdog'));
    return ok && rows;
  }, 15_000, `processes ${patterns.join(', ')} and a watchdog`);
  // Every group Loupe started is its own (detached): leave out the group Loupe itself runs in.
  const rootGroup = processTable().find((r) => r.pid === root)?.pgid;
  return { groups: new Set(rows.filter((r) => r.pgid !== rootGroup).map((r) => r.pgid)), rows };
}

/** never-initialize.mjs says so on stderr once its signal traps are set (before that, SIGTERM would kill it). */
async function trapsSet(client: WireTestClient): Promise<void> {
  await client.until(() => client.events.some((e) => e.kind === 'stderr' && e.text.includes('will never answer initialize')), 10_000);
}

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

// ---------------------------------------------------------------------------------------------
// In this process

describe('connect lifecycle (in process)', () => {
  it('disconnect while connecting kills the still-initializing server at once, and says it was cancelled', async () => {
    const { loupe, client } = await harness.start({ config: fixture('never-initialize.mjs') });
    const id = loupe.hub.primary!;
    await client.waitForStatus(id, ['connecting']);
    await trapsSet(client);
    const { groups } = await groupsOnceRunning(process.pid, [/never-initialize\.mjs/]);
    const started = Date.now();
    client.send({ type: 'disconnect', session: id });
    // SIGTERM ignored: SIGKILL after the grace (2 s), where a missing kill would leave it connecting
    // for ever. The bound only tells the two apart (issue 22: no test depends on a quiet machine).
    const info = await client.waitForStatus(id, ['disconnected'], 30_000);
    expect(Date.now() - started, 'SIGTERM ignored: SIGKILL after the grace').toBeLessThan(30_000);
    expect(info.error).toMatchObject({ code: 'CANCELLED', message: expect.stringContaining('Cancelled by you') });
    expect(liveIn(groups)).toEqual([]);
  });

  it('reconnect while connecting kills the first child before the second starts', async () => {
    const { loupe, client } = await harness.start({ config: fixture('never-initialize.mjs') });
    const id = loupe.hub.primary!;
    const first = await groupsOnceRunning(process.pid, [/never-initialize\.mjs/]);
    const firstServer = first.rows.find((r) => r.args.includes('never-initialize.mjs'))!;
    client.send({ type: 'connect', session: id, config: fixture('stubborn-tree.mjs') });
    const info = await client.waitForStatus(id, ['connected', 'failed'], 10_000);
    expect(info.status).toBe('connected');
    expect(liveIn(new Set([firstServer.pgid])), 'the first server is gone').toEqual([]);
    expect(descendants(process.pid).filter((r) => r.args.includes('never-initialize.mjs'))).toEqual([]);
  });

  it('the connect timeout is an option, and its message names it', async () => {
    const { loupe, client } = await harness.start({ config: fixture('never-initialize.mjs'), connectTimeoutMs: 700 });
    const id = loupe.hub.primary!;
    expect((await client.waitForStatus(id, ['connecting'])).connectTimeoutMs).toBe(700);
    const { groups } = await groupsOnceRunning(process.pid, [/never-initialize\.mjs/]);
    const info = await client.waitForStatus(id, ['failed'], 5_000);
    expect(info.error?.message).toBe('The server did not answer initialize within 0.7 s (--connect-timeout / the Connect timeout field).');
    await until(() => liveIn(groups).length === 0, 4_000, 'the timed-out server to be stopped');
  });

  it('the page sets the connect timeout in the connect message; the session keeps it', async () => {
    const { loupe, client } = await harness.start({ config: fixture('never-initialize.mjs'), connectTimeoutMs: 60_000 });
    const id = loupe.hub.primary!;
    await client.waitForStatus(id, ['connecting']);
    const started = Date.now();
    client.send({ type: 'connect', session: id, config: fixture('never-initialize.mjs'), connectTimeoutMs: 1_200 });
    await client.until(() => client.status(id)?.status === 'connecting' && client.status(id)?.connectTimeoutMs === 1_200, 5_000);
    // The connect timeout given (1.2 s), not the default (30 s) nor none: the sentence names it.
    const again = await client.waitForStatus(id, ['failed'], 25_000);
    expect(again.error?.message).toContain('within 1.2 s');
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('the leader exits on SIGTERM, a grandchild ignoring it is SIGKILLed after the grace', async () => {
    const { loupe, client } = await harness.start({ config: fixture('stubborn-tree.mjs') });
    const id = loupe.hub.primary!;
    await client.waitForStatus(id, ['connected'], 10_000);
    const { groups } = await groupsOnceRunning(process.pid, [/stubborn-tree\.mjs grandchild/]);
    client.send({ type: 'disconnect', session: id });
    await client.waitForStatus(id, ['disconnected'], 5_000);
    await until(() => liveIn(groups).length === 0, 3_000, `group ${[...groups]} to be empty: ${JSON.stringify(liveIn(groups))}`);
  });
});

describe('pending requests die with their transport', () => {
  it('a call pending when the server exits fails at once with the exit code and the stderr tail', async () => {
    const { loupe, client } = await harness.start({ config: fixture('exit-mid-call.mjs') });
    const id = loupe.hub.primary!;
    await client.waitForStatus(id, ['connected'], 10_000);
    const started = Date.now();
    const answer = await client.request(id, 'tools/call', { name: 'crash', arguments: {} });
    expect(Date.now() - started, 'not the 60 s request timeout').toBeLessThan(30_000);
    expect(answer).toMatchObject({ ok: false, error: { code: 'EXITED', message: 'The server exited with code 3 while this request was pending.' } });
    const error = (answer as { error: { detail?: { stderrTail?: string; exitCode?: number } } }).error;
    expect(error.detail).toMatchObject({ exitCode: 3, stderrTail: expect.stringContaining('fatal: out of widgets') });
    expect(client.status(id)?.status).toBe('failed');
  });

  it('a 20 MB argument the server dies of (EPIPE, no drain) gets an answer at once', async () => {
    const { loupe, client } = await harness.start({ config: fixture('exit-on-huge-line.mjs') });
    const id = loupe.hub.primary!;
    await client.waitForStatus(id, ['connected'], 10_000);
    const started = Date.now();
    const answer = await client.request(id, 'tools/call', { name: 'take_text', arguments: { text: 'x'.repeat(20 * 1024 * 1024) } });
    // At once, not at the 60 s request timeout (10 s was seen here with every suite running at once).
    expect(Date.now() - started, 'not the 60 s request timeout').toBeLessThan(30_000);
    expect(answer).toMatchObject({ ok: false, error: { message: expect.stringContaining('exited with code 4') } });
    expect(JSON.stringify(answer)).toContain('a line over 1048576 bytes');
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI, stopped by signals

interface Cli {
  child: ChildProcess;
  pid: number;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startCli(target: string[], options: string[] = []): Promise<Cli> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build:proxy\` first`);
  const child = spawn(process.execPath, [CLI, '--no-open', '--port', '0', ...options, ...target], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const url = await until(() => out.match(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/)?.[0], 15_000, 'the start-up line');
  return { child, pid: child.pid!, url, output: () => out, exited };
}

async function wire(cli: Cli): Promise<WireTestClient> {
  const u = new URL(cli.url);
  return WireTestClient.open(`ws://${u.host}/ws?token=${u.searchParams.get('token')}`);
}

/** Stops the CLI with `signal`; expects exit 0 within 5 s and nothing left in any of `groups`. */
async function expectCleanStop(cli: Cli, signal: NodeJS.Signals, groups: Set<number>): Promise<void> {
  const started = Date.now();
  cli.child.kill(signal);
  const exit = await Promise.race([cli.exited, sleep(8_000).then(() => undefined)]);
  const took = Date.now() - started;
  if (!exit) cli.child.kill('SIGKILL');
  expect(exit, cli.output()).toEqual({ code: 0, signal: null });
  expect(took, 'Loupe exits within 5 s').toBeLessThan(5_000);
  expect(liveIn(groups), cli.output()).toEqual([]);
}

describe('stopping the CLI kills every process group it started', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} while the server is still initializing (and ignores SIGTERM)`, async () => {
      const cli = await startCli(['node', join(FIXTURES, 'never-initialize.mjs')]);
      const client = await wire(cli);
      await trapsSet(client);
      client.close();
      const { groups } = await groupsOnceRunning(cli.pid, [/never-initialize\.mjs/]);
      await expectCleanStop(cli, signal, groups);
    });

    it(`${signal} while connected, with a grandchild that ignores SIGTERM`, async () => {
      const cli = await startCli(['node', join(FIXTURES, 'stubborn-tree.mjs')]);
      const client = await wire(cli);
      await client.waitForStatus('s1', ['connected'], 10_000);
      const { groups } = await groupsOnceRunning(cli.pid, [/stubborn-tree\.mjs grandchild/]);
      client.close();
      await expectCleanStop(cli, signal, groups);
    });
  }

  it('SIGTERM while a disconnect is still waiting for a stubborn server', async () => {
    const cli = await startCli(['node', join(FIXTURES, 'spawn-wrapper.mjs')]);
    const client = await wire(cli);
    await client.waitForStatus('s1', ['connected'], 10_000);
    const { groups } = await groupsOnceRunning(cli.pid, [/noisy-stdout\.mjs --ignore-sigterm/]);
    client.send({ type: 'disconnect', session: 's1' });
    await sleep(300);
    client.close();
    await expectCleanStop(cli, 'SIGTERM', groups);
  });

  for (const state of ['connecting', 'connected'] as const) {
    it(`SIGKILL of Loupe itself while ${state}: the watchdog stops the server's group`, async () => {
      const cli = await startCli(['node', join(FIXTURES, state === 'connecting' ? 'never-initialize.mjs' : 'stubborn-tree.mjs')]);
      const client = await wire(cli);
      if (state === 'connecting') await trapsSet(client);
      else await client.waitForStatus('s1', ['connected'], 10_000);
      client.close();
      const { groups } = await groupsOnceRunning(cli.pid, [state === 'connecting' ? /never-initialize\.mjs/ : /stubborn-tree\.mjs grandchild/]);
      expect(groups.size, 'the server group and the watchdog').toBeGreaterThanOrEqual(2);
      cli.child.kill('SIGKILL');
      await cli.exited;
      await until(() => liveIn(groups).length === 0, 5_000, `nothing left in groups ${[...groups]}: ${JSON.stringify(liveIn(groups))}`);
    });
  }
});
