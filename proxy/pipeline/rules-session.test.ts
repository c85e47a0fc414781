/**
 * Integration (issue 13): every rule action through a real session of Loupe's engine against
 * server-everything (stdio, and Streamable HTTP for the text Loupe must post as written), a
 * 2026-07-28 session against the modern fixture, and `--cli --rules FILE` of the built CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Rule } from '../../lib/model/rules.ts';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { FrameEvent, InterventionEvent } from '../../lib/wire/wire.ts';
import { defaultServer } from '../default-server.ts';
import { Engine } from '../engine/engine.ts';
import type { Session } from '../session/session.ts';
import { runBuiltCli, stopChild } from '../testing/children.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const MODERN: ServerConfig = { kind: 'stdio', name: 'modern', command: process.execPath, args: [join(ROOT, 'e2e/fixtures/modern-server.mjs'), '--stdio', '--modern-only'], env: {}, protocol: '2026-07-28' };

const engines: Engine[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.shutdown()));
  await Promise.all(children.splice(0).map(stopChild));
});

async function open(rules: Rule[], config: ServerConfig = defaultServer()): Promise<{ engine: Engine; session: Session }> {
  const engine = new Engine({ connectTimeoutMs: 20_000 });
  engines.push(engine);
  engine.setRules(rules);
  const session = engine.createSession(config);
  await engine.start(session);
  expect(session.snapshot().error).toBeUndefined();
  expect(session.status).toBe('connected');
  return { engine, session };
}

const echo = (session: Session, message: string, timeoutMs = 10_000) => session.request(`ui-${message}`, 'tools/call', { name: 'echo', arguments: { message } }, { timeoutMs });
const interventions = (session: Session) => session.trace.all().filter((e): e is InterventionEvent => e.kind === 'intervention');
const frames = (session: Session, dir: 'in' | 'out') => session.trace.all().filter((e): e is FrameEvent => e.kind === 'frame' && e.dir === dir);
const textOf = (outcome: { ok: boolean; result?: unknown }) => (outcome as { result: { content: { text: string }[] } }).result.content[0].text;
const until = async <T>(get: () => T | undefined, ms = 10_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = get();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const rule = (id: string, match: Rule['match'], action: Rule['action'], name?: string): Rule => ({ id, ...(name ? { name } : {}), match, action });

describe('rules on a stdio session', () => {
  it('a permission gate answers a tools/call with an isError result in words; the server never sees it', async () => {
    const { session } = await open([rule('gate', { method: 'tools/call', name: 'echo' }, { type: 'deny' }, 'no echo')]);
    const outcome = await echo(session, 'hi');
    expect(outcome).toMatchObject({ ok: true, result: { isError: true } });
    expect(textOf(outcome)).toBe('Loupe\'s permission gate “no echo” refused this call to echo. The user has not allowed it; do not retry it as is — ask the user or choose another way.');
    expect(frames(session, 'out').some((f) => f.method === 'tools/call')).toBe(false);
    expect(interventions(session)).toMatchObject([{ dir: 'out', action: 'answered', method: 'tools/call', rule: { id: 'gate', action: 'deny' } }]);
    // Another tool still goes through.
    expect((await session.request('u2', 'tools/call', { name: 'get-sum', arguments: { a: 1, b: 2 } })).ok).toBe(true);
  });

  it('an error rule answers the request with its JSON-RPC error', async () => {
    const { session } = await open([rule('e', { method: 'tools/call' }, { type: 'error', code: -32000, message: 'Server busy' })]);
    expect(await echo(session, 'hi')).toMatchObject({ ok: false, error: { code: -32000, message: 'Server busy' } });
  });

  it('replace-result swaps the server’s result on its way back; the request did reach the server', async () => {
    const { session } = await open([rule('r', { method: 'tools/call', kind: 'response' }, { type: 'replace-result', result: { content: [{ type: 'text', text: 'replaced' }] } })]);
    const outcome = await echo(session, 'hi');
    expect(textOf(outcome)).toBe('replaced');
    expect(frames(session, 'out').some((f) => f.method === 'tools/call')).toBe(true);
    const original = frames(session, 'in').find((f) => f.raw.includes('Echo: hi'))!;
    expect(interventions(session)[0]).toMatchObject({ dir: 'in', action: 'rewritten', of: original.seq });
  });

  it('delay holds a call back by its milliseconds', async () => {
    const { session } = await open([rule('d', { method: 'tools/call', direction: 'to-server' }, { type: 'delay', ms: 400 })]);
    const started = Date.now();
    expect(textOf(await echo(session, 'late'))).toBe('Echo: late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    const sent = frames(session, 'out').find((f) => f.method === 'tools/call')!;
    expect(sent.intervention).toBe(interventions(session)[0].seq);
    // A ping is not delayed: the rule does not act on it (what happened, not how fast).
    expect((await session.request('p', 'ping', undefined)).ok).toBe(true);
    expect(interventions(session)).toHaveLength(1);
  });

  it('slow spaces the responses of parallel calls', async () => {
    const { session } = await open([rule('s', { method: 'tools/call', kind: 'response' }, { type: 'slow', ms: 300 })]);
    const done: number[] = [];
    const started = Date.now();
    const outcomes = await Promise.all(['a', 'b', 'c'].map((m) => echo(session, m).then((outcome) => (done.push(Date.now() - started), outcome))));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    // What the rule decided: the first answer at once, each later one 300 ms after the one before.
    const slowed = interventions(session).filter((e) => e.action === 'delayed');
    expect(slowed).toHaveLength(2);
    for (const e of slowed) expect(e.message).toMatch(/300 ms after the previous one/);
    // And what happened: no answer before its turn (timers never fire early; a loaded machine only
    // makes them later, so the gaps between two answers are not asserted).
    done.sort((x, y) => x - y);
    expect(done[2]).toBeGreaterThanOrEqual(600 - 5);
  });

  it('drop takes a notification away: no progress reaches the caller, the call still ends', async () => {
    const { session } = await open([rule('p', { method: 'notifications/progress' }, { type: 'drop' })]);
    const progress: number[] = [];
    const outcome = await session.request('long', 'tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, { onProgress: (p) => progress.push(p.progress) });
    expect(outcome.ok).toBe(true);
    expect(progress).toEqual([]);
    expect(frames(session, 'in').filter((f) => f.method === 'notifications/progress')).toHaveLength(3);
    expect(interventions(session).filter((e) => e.action === 'dropped')).toHaveLength(3);
  });

  it('a corrupted response is noise: the request fails on its timeout, in words', async () => {
    const { session } = await open([rule('c', { method: 'tools/call', kind: 'response' }, { type: 'corrupt' })]);
    const outcome = await echo(session, 'hi', 1_500);
    expect(outcome).toMatchObject({ ok: false, error: { message: 'Request timed out: no answer within 1500 ms' } });
    expect(session.trace.all().some((e) => e.kind === 'noise' && e.text.includes('<corrupted by Loupe>'))).toBe(true);
    expect(session.trace.all().some((e) => e.kind === 'transport' && e.message === "A rule's message toward Loupe's client is not valid JSON-RPC (not delivered).")).toBe(true);
    expect(session.status).toBe('connected');
  });

  it('a truncated request is written as it is cut, and linked to its intervention', async () => {
    const { session } = await open([rule('t', { method: 'tools/call', direction: 'to-server' }, { type: 'truncate', bytes: 20 })]);
    expect((await echo(session, 'hi', 1_500)).ok).toBe(false);
    const cut = frames(session, 'out').find((f) => f.rpc === 'invalid')!;
    expect(cut.raw).toHaveLength(20);
    expect(cut.intervention).toBe(interventions(session)[0].seq);
  });

  it('kill after N frames: the Nth goes, then the server is killed and the session fails with the exit', async () => {
    const { session } = await open([rule('k', { method: 'tools/call', direction: 'to-server' }, { type: 'kill', after: 2 })]);
    expect((await echo(session, 'one')).ok).toBe(true);
    // The second frame is written, then the server is killed: a fast server may answer in between
    // (the SIGKILL and its answer race), so what is asserted is the kill and the failed session.
    await echo(session, 'two');
    await until(() => session.status === 'failed');
    expect(session.trace.all().find((e) => e.kind === 'exit')).toMatchObject({ signal: 'SIGKILL' });
    expect(session.snapshot().error?.message).toMatch(/SIGKILL/);
  });

  it('close ends the connection after its frame', async () => {
    const { session } = await open([rule('x', { method: 'ping' }, { type: 'close' })]);
    await session.request('p', 'ping', undefined, { timeoutMs: 3_000 });
    await until(() => session.status !== 'connected');
    expect(interventions(session)[0]).toMatchObject({ action: 'closed' });
  });

  it('pause holds a call until a person decides through engine.holds; the edit reaches the server', async () => {
    const { engine, session } = await open([rule('b', { method: 'tools/call', name: 'echo', direction: 'to-server' }, { type: 'pause' }, 'break on echo')]);
    const answer = echo(session, 'original');
    const held = await until(() => engine.holds.list()[0]);
    expect(held).toMatchObject({ session: session.id, dir: 'to-server', method: 'tools/call', isRequest: true, rule: { name: 'break on echo' } });
    const edited = JSON.parse(held.raw);
    edited.params.arguments.message = 'edited';
    expect(engine.holds.decide(held.holdId, { action: 'forward-edited', raw: JSON.stringify(edited) })).toBe(true);
    expect(textOf(await answer)).toBe('Echo: edited');
    expect(interventions(session).map((e) => e.action)).toEqual(['held', 'edited']);
    expect(frames(session, 'out').find((f) => f.method === 'tools/call')!.intervention).toBe(interventions(session)[1].seq);
  });

  it('applies rules of this server only, and none that are disabled', async () => {
    const { session } = await open([
      { ...rule('off', {}, { type: 'drop' }), enabled: false },
      { ...rule('elsewhere', {}, { type: 'drop' }), server: 'some other server' },
    ]);
    expect(textOf(await echo(session, 'hi'))).toBe('Echo: hi');
    expect(interventions(session)).toEqual([]);
  });
});

describe('rules on other transports', () => {
  it('a 2026-07-28 session: the gate answers, and so does the error rule', async () => {
    const { session } = await open([rule('gate', { name: 'echo' }, { type: 'deny' }), rule('err', { name: 'add' }, { type: 'error' })], MODERN);
    expect(session.snapshot().era).toBe('modern');
    const outcome = await echo(session, 'hi');
    expect(outcome).toMatchObject({ ok: true, result: { isError: true } });
    expect(textOf(outcome)).toMatch(/^Loupe's permission gate “deny “echo”” refused this call to echo\./);
    expect(await session.request('a', 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } })).toMatchObject({ ok: false, error: { code: -32603 } });
  });

  it('Streamable HTTP: a deny gate, and a corrupted request posted as written', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error('server-everything did not start')), 15_000);
      child.stderr!.on('data', (chunk: Buffer) => /listening|running/i.test(chunk.toString()) && (clearTimeout(timer), ready()));
    });
    const config: ServerConfig = { kind: 'http', name: 'remote', url: `http://127.0.0.1:${port}/mcp`, headers: {}, transport: 'http' };
    const { session } = await open([rule('gate', { name: 'echo' }, { type: 'deny' }), rule('c', { name: 'get-sum' }, { type: 'corrupt' })], config);
    expect(await echo(session, 'hi')).toMatchObject({ ok: true, result: { isError: true } });
    const sum = await session.request('s', 'tools/call', { name: 'get-sum', arguments: { a: 1, b: 2 } }, { timeoutMs: 3_000 });
    expect(sum.ok).toBe(false);
    const posted = frames(session, 'out').find((f) => f.raw.includes('<corrupted by Loupe>'))!;
    expect(posted.rpc).toBe('invalid');
    expect(posted.intervention).toBe(interventions(session).find((e) => e.rule?.id === 'c')!.seq);
  });
});

describe('--cli --rules FILE', () => {
  it('a deny gate makes the call fail: exit 1 with the refusal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-rules-'));
    const file = join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify({ rules: [{ name: 'no echo', match: { method: 'tools/call', name: 'echo' }, action: { type: 'deny' } }] }));
    const run = await runBuiltCli(['--cli', '--rules', file, '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hi', process.execPath, EVERYTHING], children);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain('Loupe\'s permission gate “no echo” refused this call to echo.');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.address() as { port: number }).port;
  await new Promise((done) => server.close(done));
  return port;
}
