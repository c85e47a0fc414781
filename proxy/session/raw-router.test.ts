/**
 * The page's requests over the SDK's in-memory linked transports (no process under test, issue 22):
 * a real SDK Client and McpServer, with the router between the Client and its transport.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RawRouter } from './raw-router.ts';
import { TraceRecorder } from '../pipeline/trace-recorder.ts';

async function connected() {
  const server = new McpServer({ name: 'in-memory', version: '1.0.0' });
  server.registerTool('wait', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    await new Promise((r) => setTimeout(r, ms));
    if (extra._meta?.progressToken !== undefined) {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: 1, total: 1 } });
    }
    return { content: [{ type: 'text', text: `waited ${ms}` }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'loupe-test', version: '1.0.0' });
  await client.connect(clientSide);
  const router = new RawRouter(clientSide, new TraceRecorder('s1'));
  router.install();
  return { router, close: () => Promise.all([client.close(), server.close()]) };
}

describe('RawRouter: the session times every request, for every face', () => {
  it('reports the time from the write to the answer, with the answer as the server sent it', async () => {
    const { router, close } = await connected();
    const progress: number[] = [];
    const outcome = await router.request('tools/call', { name: 'wait', arguments: { ms: 120 } }, { signal: new AbortController().signal, onProgress: (p) => progress.push(p.progress) });
    expect(outcome).toMatchObject({ ok: true, rpcId: 'loupe-1', result: { content: [{ type: 'text', text: 'waited 120' }] } });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(115);
    expect(outcome.durationMs).toBeLessThan(60_000);
    expect(progress).toEqual([1]);
    await close();
  });

  it('times a hand-written request, a refused one and a notification', async () => {
    const { router, close } = await connected();
    const answered = await router.send({ jsonrpc: '2.0', id: 'mine', method: 'tools/call', params: { name: 'wait', arguments: { ms: 60 } } }, 'composer', 10_000);
    expect(answered.ok).toBe(true);
    expect(answered.durationMs).toBeGreaterThanOrEqual(55);
    const refused = await router.send({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }, 'composer', 10_000);
    expect(refused).toMatchObject({ ok: false, error: { code: -32601 } });
    expect(typeof refused.durationMs).toBe('number');
    const notified = await router.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, 'composer', 10_000);
    expect(notified).toMatchObject({ ok: true, result: null });
    expect(typeof notified.durationMs).toBe('number');
    await close();
  });

  it('a request cancelled by its signal is timed to the cancellation', async () => {
    const { router, close } = await connected();
    const controller = new AbortController();
    setTimeout(() => controller.abort('Cancelled by the user'), 50);
    const outcome = await router.request('tools/call', { name: 'wait', arguments: { ms: 2_000 } }, { signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'CANCELLED', message: 'Cancelled by the user' } });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(45);
    expect(outcome.durationMs).toBeLessThan(2_000);
    await close();
  });
});
