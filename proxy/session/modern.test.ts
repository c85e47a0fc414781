/**
 * Integration (issue 12): sessions in each protocol mode against real servers — the v2 SDK
 * fixture (modern-only and dual, stdio and Streamable HTTP), server-everything (2025 only), and
 * the hand-written modern-raw fixture. Checks what the page is told (era, negotiation, discovery),
 * the frames on the wire (the `_meta` envelope, the headers, the rounds of a multi-round-trip
 * call) and that nothing is left running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { FrameEvent, HttpEvent, TraceEvent } from '../../lib/wire/wire.ts';
import { openFaceSession, type FaceSession, type ServerRequestPolicy } from '../faces/cli/face-session.ts';

const FIXTURES = path.join(import.meta.dirname, '../..', 'e2e', 'fixtures');
const MODERN = path.join(FIXTURES, 'modern-server.mjs');
const EVERYTHING = path.join(import.meta.dirname, '../..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

const stdio = (file: string, args: string[], protocol?: ServerConfig['protocol']): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [file, ...args], env: {}, ...(protocol ? { protocol } : {}) });
const http = (url: string, protocol?: ServerConfig['protocol']): ServerConfig => ({ kind: 'http', url, transport: 'auto', headers: {}, ...(protocol ? { protocol } : {}) });

const frames = (events: TraceEvent[]): FrameEvent[] => events.filter((e): e is FrameEvent => e.kind === 'frame');
const parsed = (frame: FrameEvent) => JSON.parse(frame.raw) as { id?: string; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/** Starts an HTTP fixture on a free port and waits for its ready line. */
async function serve(file: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [file, ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`${file} exited: ${out}`)));
  });
  return { url, child };
}

async function withSession<T>(config: ServerConfig, act: (face: Extract<FaceSession, { ok: true }>) => Promise<T>, policy?: ServerRequestPolicy): Promise<T> {
  const face = await openFaceSession(config, { connectTimeoutMs: 15_000, policy });
  try {
    if (!face.ok) throw new Error(`could not connect: ${face.error.message}`);
    return await act(face);
  } finally {
    await face.close();
  }
}

const accept: ServerRequestPolicy = (request) =>
  request.method === 'elicitation/create' ? { ok: true, result: { action: 'accept', content: { confirm: true } } } : { ok: true, result: { role: 'assistant', model: 'test', content: { type: 'text', text: 'forty-two' } } };

describe('Auto and 2026-07-28 on stdio', () => {
  it('Auto against the modern-only v2 server speaks 2026-07-28 and says why', async () => {
    await withSession(stdio(MODERN, ['--stdio', '--modern-only'], 'auto'), async ({ session }) => {
      const info = session.snapshot();
      expect(info.era).toBe('modern');
      expect(info.protocolVersion).toBe('2026-07-28');
      expect(info.negotiation).toMatchObject({ mode: 'auto', era: 'modern', probe: 'server/discover asking for 2026-07-28' });
      expect(info.negotiation?.reason).toContain('answered server/discover and supports 2026-07-28');
      expect(info.serverInfo?.name).toBe('modern-fixture');
      expect(info.instructions).toContain('2026-07-28 fixture');
      expect(info.discovery?.supportedVersions).toEqual(['2026-07-28']);
      const outcome = await session.request('u1', 'tools/call', { name: 'echo', arguments: { message: 'hi' } });
      expect(outcome).toMatchObject({ ok: true, result: { content: [{ type: 'text', text: 'echo: hi' }], resultType: 'complete' } });
      // The envelope is on the wire, and no initialize was sent.
      const sent = frames(session.trace.all()).filter((f) => f.dir === 'out').map(parsed);
      expect(sent.map((m) => m.method)).toEqual(['server/discover', 'tools/call']);
      expect(sent[1].params?._meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'mcp-loupe' } });
    });
  });

  it('Auto against server-everything (2025 only) opens a 2025 session and says why', async () => {
    await withSession(stdio(EVERYTHING, [], 'auto'), async ({ session }) => {
      const info = session.snapshot();
      expect(info.era).toBe('legacy');
      expect(info.protocolVersion).toBe('2025-11-25');
      expect(info.negotiation?.reason).toContain('does not know server/discover');
      expect(info.negotiation?.answer).toBe('error -32601: Method not found');
      const outcome = await session.request('u1', 'tools/call', { name: 'echo', arguments: { message: 'old' } });
      expect(outcome.ok).toBe(true);
    });
  });

  it('2026-07-28 against a 2025-only server fails in plain words and stops it', async () => {
    const face = await openFaceSession(stdio(EVERYTHING, [], '2026-07-28'), { connectTimeoutMs: 15_000 });
    await face.close();
    expect(face.ok).toBe(false);
    if (face.ok) return;
    expect(face.error.message).toBe('This server does not speak 2026-07-28: error -32601: Method not found.');
    expect(face.error.hint).toContain('Choose 2025-11-25 (sessions) or Auto');
  });

  it('the default (2025-11-25) against a modern-only server says which choice would work', async () => {
    const face = await openFaceSession(stdio(MODERN, ['--stdio', '--modern-only']), { connectTimeoutMs: 15_000 });
    await face.close();
    expect(face.ok).toBe(false);
    if (face.ok) return;
    expect(face.error.code).toBe('VERSION_MISMATCH');
    expect(face.error.hint).toContain('choose 2026-07-28 (stateless) or Auto');
  });

  it('runs the rounds of an elicitation through the pending queue and marks the re-sent request', async () => {
    await withSession(
      stdio(MODERN, ['--stdio'], '2026-07-28'),
      async ({ session }) => {
        const told: unknown[] = [];
        const outcome = await session.request('u1', 'tools/call', { name: 'confirm-delete', arguments: { path: '/tmp/x' } }, { onSettled: (o) => told.push(o) });
        expect(outcome).toMatchObject({ ok: true, result: { content: [{ text: 'Deleted /tmp/x' }] } });
        // A face that sends the answer on as it is read is told the call's outcome only, not the round that asked.
        expect(told).toEqual([outcome]);
        const calls = frames(session.trace.all()).filter((f) => f.method === 'tools/call');
        expect(calls).toHaveLength(2);
        expect(calls[0].round).toBeUndefined();
        expect(calls[1].round).toEqual({ call: calls[0].id, n: 2 });
        const resent = parsed(calls[1]).params!;
        expect(resent.inputResponses).toEqual({ confirm: { action: 'accept', content: { confirm: true } } });
        // The first answer was input_required, kept exactly as the server sent it.
        const first = frames(session.trace.all()).find((f) => f.dir === 'in' && f.id === calls[0].id)!;
        expect(parsed(first).result?.resultType).toBe('input_required');
      },
      accept,
    );
  });

  it('answers sampling and roots inside input_required results', async () => {
    await withSession(
      stdio(MODERN, ['--stdio'], '2026-07-28'),
      async ({ session }) => {
        const sampled = await session.request('u1', 'tools/call', { name: 'ask-model', arguments: { question: 'why?' } });
        expect(sampled).toMatchObject({ ok: true, result: { content: [{ text: 'The model said: forty-two' }] } });
        await session.setRoots([{ uri: 'file:///work', name: 'work' }]);
        const roots = await session.request('u2', 'tools/call', { name: 'show-roots', arguments: {} });
        expect(roots).toMatchObject({ ok: true, result: { content: [{ text: 'file:///work' }] } });
      },
      accept,
    );
  });

  it('a refused input ends the call in plain words without a re-send', async () => {
    await withSession(stdio(MODERN, ['--stdio'], '2026-07-28'), async ({ session }) => {
      const told: unknown[] = [];
      const outcome = await session.request('u1', 'tools/call', { name: 'ask-model', arguments: { question: 'why?' } }, { onSettled: (o) => told.push(o) });
      expect(outcome.ok).toBe(false);
      // Loupe ended the call, not an answer: nothing is told, and the face sends what request resolves with.
      expect(told).toEqual([]);
      if (outcome.ok) return;
      expect(outcome.error.message).toContain('The input the server asked for (answer) was not given');
      expect(frames(session.trace.all()).filter((f) => f.method === 'tools/call')).toHaveLength(1);
    });
  });

  it('puts the log level in each request and opens subscriptions/listen', async () => {
    await withSession(stdio(MODERN, ['--stdio'], '2026-07-28'), async ({ session }) => {
      session.setLogLevel('debug');
      await session.request('u1', 'tools/call', { name: 'echo', arguments: { message: 'x' } });
      const call = frames(session.trace.all()).find((f) => f.method === 'tools/call')!;
      expect(parsed(call).params?._meta).toMatchObject({ 'io.modelcontextprotocol/logLevel': 'debug' });
      expect(session.snapshot().logLevel).toBe('debug');

      expect(await session.listen({ resourceSubscriptions: ['fixture://counter'] })).toBeUndefined();
      expect(session.snapshot().listen).toMatchObject({ state: 'open', honored: { resourceSubscriptions: ['fixture://counter'] } });
      await session.request('u2', 'tools/call', { name: 'bump-counter', arguments: {} });
      const deadline = Date.now() + 5_000;
      while (!frames(session.trace.all()).some((f) => f.method === 'notifications/resources/updated') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(frames(session.trace.all()).some((f) => f.method === 'notifications/resources/updated')).toBe(true);
      await session.unlisten();
      expect(session.snapshot().listen).toMatchObject({ state: 'closed', closed: 'local' });
    });
  });
});

describe('Streamable HTTP', () => {
  let modern: { url: string; child: ChildProcess };
  let dual: { url: string; child: ChildProcess };
  let broken: { url: string; child: ChildProcess };
  beforeAll(async () => {
    [modern, dual, broken] = await Promise.all([serve(MODERN, ['--http', '--modern-only']), serve(MODERN, ['--http']), serve(path.join(FIXTURES, 'modern-raw.mjs'), ['--variant', 'broken'])]);
  });
  afterAll(() => {
    for (const s of [modern, dual, broken]) s?.child.kill();
  });

  it('Auto against the modern-only server: stateless POSTs with Mcp-Method and Mcp-Name, no session id', async () => {
    await withSession(http(modern.url, 'auto'), async ({ session }) => {
      expect(session.snapshot()).toMatchObject({ era: 'modern', transport: 'http', negotiation: { era: 'modern' } });
      const outcome = await session.request('u1', 'tools/call', { name: 'echo', arguments: { message: 'web' } });
      expect(outcome).toMatchObject({ ok: true, result: { content: [{ text: 'echo: web' }] } });
      const posts = session.trace.all().filter((e): e is HttpEvent => e.kind === 'http' && e.method === 'POST');
      const call = posts[posts.length - 1];
      expect(call.requestHeaders).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'echo', 'mcp-protocol-version': '2026-07-28' });
      expect(posts.every((p) => p.requestHeaders['mcp-session-id'] === undefined)).toBe(true);
      expect(session.trace.all().some((e) => e.kind === 'frame' && e.method === 'initialize')).toBe(false);
    });
  });

  it('the default mode against the dual server still speaks 2025-11-25', async () => {
    await withSession(http(dual.url), async ({ session }) => {
      expect(session.snapshot()).toMatchObject({ era: 'legacy', negotiation: { mode: '2025-11-25' } });
      expect(session.trace.all().some((e) => e.kind === 'frame' && e.method === 'server/discover')).toBe(false);
    });
  });

  it('the raw composer can set HTTP headers on one POST (a wrong Mcp-Method the broken server accepts)', async () => {
    await withSession(http(broken.url, '2026-07-28'), async ({ session }) => {
      const outcome = await session.sendRaw({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'echo', arguments: { message: 'x' } } }, 'composer', 5_000, { 'Mcp-Method': 'tools/list' });
      expect(outcome.ok).toBe(true);
      const posts = session.trace.all().filter((e): e is HttpEvent => e.kind === 'http' && e.method === 'POST');
      const last = posts[posts.length - 1];
      expect(last.requestHeaders['mcp-method']).toBe('tools/list');
      expect(last.responseHeaders?.['mcp-session-id']).toBe('broken-session-1');
      // The envelope was added to the hand-written frame, which says it came from the composer.
      const sent = frames(session.trace.all()).find((f) => f.dir === 'out' && f.id === 'c1')!;
      expect(sent.origin).toBe('composer');
      expect(parsed(sent).params?._meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    });
  });
});
