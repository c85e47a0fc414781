/**
 * Issue 23: every source records each frame once, through the one recorder (frame-record.ts),
 * sized in UTF-8 bytes, and records what is malformed before anything parses it. One server
 * (e2e/fixtures/multibyte-frames.mjs) answers `tools/call` with many bytes per character and
 * sends a line that is not JSON and one that is not JSON-RPC first; it is reached four ways:
 * a Loupe stdio session, a Loupe HTTP session (its answer an event stream), the gateway, and
 * `mcp-loupe --tap --record` (the built CLI).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from '../../lib/wire/wire.ts';
import { Engine } from '../engine/engine.ts';
import { startGateway, type RunningGateway } from '../faces/gateway/gateway.ts';
import { stopChild } from '../testing/children.ts';
import { exactFrameOf, extraOf, frameBytes, recordFrame } from './frame-record.ts';
import { TraceRecorder } from './trace-recorder.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'e2e', 'fixtures', 'multibyte-frames.mjs');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const GREETING = 'héllo ✓ 🌍 — ünïcödé';
const NOT_JSON = '{"jsonrpc":"2.0","id": oops';
const NOT_RPC = '{"greeting":"hé ✓"}';
const stdio = { kind: 'stdio' as const, command: process.execPath, args: [FIXTURE], env: {} };

const engines: Engine[] = [];
const gateways: RunningGateway[] = [];
const clients: Client[] = [];
const children: ChildProcess[] = [];
let httpServer: ChildProcess;
let httpUrl = '';

beforeAll(async () => {
  httpServer = spawn(process.execPath, [FIXTURE, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((done) => httpServer.stdout!.on('data', (chunk: Buffer) => {
    const m = /listening (\d+)/.exec(chunk.toString());
    if (m) done(m[1]);
  }));
  httpUrl = `http://127.0.0.1:${port}/mcp`;
});
afterAll(() => stopChild(httpServer));
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(gateways.splice(0).map((g) => g.close()));
  await Promise.all(engines.splice(0).map((e) => e.shutdown()));
  await Promise.all(children.splice(0).map(stopChild));
});

const frames = (events: readonly TraceEvent[]): FrameEvent[] => events.filter((e): e is FrameEvent => e.kind === 'frame');

/** The checks every source must pass, on the events its trace (or recording) holds. */
function expectOneRecordEach(events: readonly TraceEvent[], notJsonAs: 'noise' | 'frame'): void {
  const all = frames(events);
  const answers = all.filter((f) => f.dir === 'in' && f.rpc === 'response' && f.raw.includes(GREETING));
  expect(answers).toHaveLength(1);
  // Bytes, not characters: the greeting has characters of two, three and four bytes.
  expect(answers[0].size).toBe(Buffer.byteLength(answers[0].raw, 'utf8'));
  expect(answers[0].size).toBeGreaterThan(answers[0].raw.length);
  // Every frame's text once per direction, each with its size in bytes.
  const seen = new Map<string, number>();
  for (const f of all) {
    expect(f.size).toBe(Buffer.byteLength(f.raw, 'utf8'));
    const key = `${f.dir} ${f.raw}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const calls = all.filter((f) => f.dir === 'out' && f.method === 'tools/call');
  expect(calls).toHaveLength(1);
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
  // The malformed, recorded as they came, before the answer that followed them.
  const answerSeq = answers[0].seq;
  const notRpc = all.filter((f) => f.raw === NOT_RPC);
  expect(notRpc).toHaveLength(1);
  expect(notRpc[0]).toMatchObject({ dir: 'in', rpc: 'invalid', size: Buffer.byteLength(NOT_RPC) });
  expect(notRpc[0].seq).toBeLessThan(answerSeq);
  if (notJsonAs === 'frame') {
    const bad = all.filter((f) => f.raw === NOT_JSON);
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({ dir: 'in', rpc: 'invalid' });
    expect(bad[0].seq).toBeLessThan(answerSeq);
  } else {
    const noise = events.filter((e) => e.kind === 'noise' && e.text === NOT_JSON);
    expect(noise).toHaveLength(1);
    expect(noise[0].seq).toBeLessThan(answerSeq);
  }
}

async function engineSession(config: Parameters<Engine['createSession']>[0]) {
  const engine = new Engine();
  engines.push(engine);
  const session = engine.createSession(config);
  await engine.start(session);
  const outcome = await session.request('ui-1', 'tools/call', { name: 'greet', arguments: {} });
  return { session, outcome };
}

describe('recordFrame', () => {
  it('sizes in UTF-8 bytes, records text that is not JSON as it came, and never throws', () => {
    const trace = new TraceRecorder('s');
    const recorded = recordFrame(trace, 'in', '{"a":"✓"}');
    expect(recorded).toMatchObject({ json: true, valid: false });
    // Its record is exactly the text (nothing masked): a transport's extra names it as such.
    expect(exactFrameOf(extraOf(recorded, '{"a":"✓"}'))).toBe(recorded.event);
    const secret = '{"a":"a-secret-value-✓"}';
    trace.secretValues = ['a-secret-value-✓'];
    const masked = recordFrame(trace, 'in', secret);
    expect(masked.event?.raw).not.toContain('a-secret-value');
    expect(exactFrameOf(extraOf(masked, secret))).toBeUndefined();
    trace.secretValues = [];
    expect(recordFrame(trace, 'in', 'not json at all', { notJsonIsNoise: true })).toMatchObject({ json: false, valid: false });
    expect(recordFrame(trace, 'out', '{"jsonrpc":"2.0",')).toMatchObject({ json: false, valid: false });
    expect(trace.all().map((e) => (e.kind === 'frame' ? [e.kind, e.rpc, e.size] : [e.kind]))).toEqual([['frame', 'invalid', frameBytes('{"a":"✓"}')], ['frame', 'invalid', frameBytes(secret)], ['noise'], ['frame', 'invalid', 17]]);
    expect(frameBytes('✓')).toBe(3);
  });
});

describe('one record per frame, in bytes, from every source', () => {
  it('a stdio session', async () => {
    const { session, outcome } = await engineSession(stdio);
    expect(outcome.ok).toBe(true);
    expectOneRecordEach(session.trace.all(), 'noise');
  }, 90_000);

  it('an HTTP session whose answer is an event stream', async () => {
    const { session, outcome } = await engineSession({ kind: 'http', url: httpUrl, transport: 'http', headers: {} });
    expect(outcome.ok).toBe(true);
    expectOneRecordEach(session.trace.all(), 'frame');
  }, 90_000);

  it('the gateway', async () => {
    const engine = new Engine();
    engines.push(engine);
    const gateway = await startGateway(engine, { config: stdio, port: 0 });
    gateways.push(gateway);
    const client = new Client({ name: 'host', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${gateway.token}` } } }));
    const result = await client.callTool({ name: 'greet', arguments: {} });
    expect(JSON.stringify(result)).toContain(GREETING);
    const relay = engine.sessionList().find((s) => s.trace.all().some((e) => e.kind === 'frame'))!;
    expectOneRecordEach(relay.trace.all(), 'noise');
  }, 90_000);

  it('the tap, in its recording', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'loupe-one-record-')), 'tap.jsonl');
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--tap', '--no-attach', '--record', record, '--', process.execPath, FIXTURE], stderr: 'pipe', cwd: ROOT });
    const client = new Client({ name: 'host', version: '1' });
    clients.push(client);
    await client.connect(transport);
    // The SDK's stdio reader throws away what is not JSON-RPC; the host still gets its answer.
    const result = await client.callTool({ name: 'greet', arguments: {} });
    expect(JSON.stringify(result)).toContain(GREETING);
    await client.close();
    const events = readFileSync(record, 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line) as TraceEvent);
    expectOneRecordEach(events, 'noise');
  }, 90_000);
});
