/**
 * The mock's HTTP sessions are not kept forever (issue 21, item 6): it used to accept 256 sessions,
 * then answer 503 until it was restarted. A recording of server-everything is served over real HTTP;
 * clients initialize with plain POSTs and leave without a DELETE, as test suites do.
 */
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TraceIndex } from '../../../lib/trace/row-index.ts';
import { defaultSecretChoice, exportTrace } from '../../../lib/trace/jsonl.ts';
import { parseTrace, type ImportedTrace } from '../../../lib/trace/read-trace.ts';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import { openFaceSession } from '../cli/face-session.ts';
import { startMock, type MockOptions, type RunningMock } from './mock.ts';
import { MAX_MOCK_SESSIONS } from './sessions.ts';

const ROOT = join(import.meta.dirname, '../../..');
const EVERYTHING: ServerConfig = { kind: 'stdio', command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')], env: {} };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'suite', version: '1' } } };

let trace: ImportedTrace;
beforeAll(async () => {
  const opened = await openFaceSession(EVERYTHING);
  try {
    if (!opened.ok) throw new Error(opened.error.message);
    await opened.session.request('list', 'tools/list', undefined);
    const text = exportTrace({ session: opened.session.snapshot(), rows: TraceIndex.from(opened.session.trace.all()).rows, secrets: defaultSecretChoice(EVERYTHING), exportedBy: 'mock-sessions.test' });
    const parsed = parseTrace(text);
    if (!parsed.ok) throw new Error(parsed.error);
    trace = parsed.trace;
  } finally {
    await opened.close();
  }
});

const mocks: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

/** A running mock: where it listens, and what a client sends to be let in (the token the mock gave). */
interface Mock {
  url: string;
  auth: { authorization: string };
  log: string[];
}

async function mock(options: MockOptions = {}): Promise<Mock> {
  const log: string[] = [];
  const running = await startMock(trace, { port: 0, log: (line) => void log.push(line), ...options });
  mocks.push(running);
  return { url: running.url!, auth: { authorization: `Bearer ${running.token}` }, log };
}

/** A client's initialize, left without a DELETE: the session id it was given. */
async function initialize({ url, auth }: Mock): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...auth }, body: JSON.stringify(INITIALIZE) });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id')!;
}

async function ping({ url, auth }: Mock, session: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
  await res.text();
  return res.status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the mock over HTTP', () => {
  it('accepts new clients after 300 that left without ending their sessions', async () => {
    const m = await mock();
    const ids: string[] = [];
    for (let n = 0; n < 300; n++) ids.push(await initialize(m));
    expect(new Set(ids).size).toBe(300);
    // The oldest made room for the newest: they are closed, the last ones still answer.
    expect(await ping(m, ids[0])).toBe(404);
    expect(await ping(m, ids.at(-1)!)).toBe(200);
    expect(await ping(m, ids[300 - MAX_MOCK_SESSIONS])).toBe(200);
    expect(m.log.filter((l) => l.includes('idle the longest'))).toHaveLength(300 - MAX_MOCK_SESSIONS);
    await initialize(m);
  });

  it('closes a session idle for longer than its idle time, and one the client ends with DELETE', async () => {
    // The busy session's requests come far more often than its idle time (a loaded machine once
    // let 300 ms pass between two of them when they came every 100 ms against 300).
    const m = await mock({ idleMs: 2_000 });
    const { url, log } = m;
    const idle = await initialize(m);
    const busy = await initialize(m);
    for (let i = 0; i < 10; i++) {
      await sleep(300);
      expect(await ping(m, busy)).toBe(200);
    }
    expect(await ping(m, idle)).toBe(404);
    expect(log.some((l) => /closed client 1's session after \d+ seconds? without a request/.test(l))).toBe(true);
    const ended = await fetch(url, { method: 'DELETE', headers: { ...m.auth, 'mcp-session-id': busy, 'mcp-protocol-version': '2025-11-25' } });
    expect(ended.status).toBe(200);
    expect(await ping(m, busy)).toBe(404);
  });

  it('does not close a session whose stream is open to make room: then a new client gets 503', async () => {
    const m = await mock({ maxSessions: 2 });
    const { url, auth } = m;
    const streams = await Promise.all(
      [await initialize(m), await initialize(m)].map(async (id) => {
        const controller = new AbortController();
        const res = await fetch(url, { headers: { ...auth, accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, signal: controller.signal });
        expect(res.status).toBe(200);
        return { id, controller };
      }),
    );
    const refused = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...auth }, body: JSON.stringify(INITIALIZE) });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain('has a request or stream open');
    streams[0].controller.abort();
    await sleep(100);
    await initialize(m);
    expect(await ping(m, streams[0].id)).toBe(404);
    expect(await ping(m, streams[1].id)).toBe(200);
    streams[1].controller.abort();
  });
});
