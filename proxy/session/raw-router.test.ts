/**
 * The page's requests over the SDK's in-memory linked transports (no process under test, issue 22):
 * a real SDK Client and McpServer, with the router between the Client and its transport.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { IGNORE_NOTIFICATION, RawRouter } from './raw-router.ts';
import { Cancel } from './cancel.ts';
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
  return { router, transport: clientSide, close: () => Promise.all([client.close(), server.close()]) };
}

describe('RawRouter: the session times every request, for every face', () => {
  it('reports the time from the write to the answer, with the answer as the server sent it', async () => {
    const { router, close } = await connected();
    const progress: number[] = [];
    const outcome = await router.request('tools/call', { name: 'wait', arguments: { ms: 120 } }, { cancel: new Cancel(), onProgress: (p) => progress.push(p.progress) });
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

  it('tells onSettled in the turn the answer is read, before the request\'s promise settles', async () => {
    const { router, transport, close } = await connected();
    const seen: string[] = [];
    // Wrapped around the router's own handler: whatever it tells, it tells before returning.
    const routed = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      seen.push('read');
      routed(message, extra);
      seen.push('handled');
    };
    const outcome = router.request('tools/call', { name: 'wait', arguments: { ms: 1 } }, { cancel: new Cancel(), onSettled: (o) => seen.push(`settled ${o.rpcId} ${o.ok} ${typeof o.durationMs}`) });
    void outcome.then(() => seen.push('resolved'));
    await outcome;
    await Promise.resolve();
    expect(seen).toEqual(['read', 'settled loupe-1 true number', 'handled', 'resolved']);
    await close();
  });

  it('a request cancelled is timed to the cancellation', async () => {
    const { router, close } = await connected();
    const cancel = new Cancel();
    setTimeout(() => cancel.abort('Cancelled by the user'), 50);
    const outcome = await router.request('tools/call', { name: 'wait', arguments: { ms: 20_000 } }, { cancel });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'CANCELLED', message: 'Cancelled by the user' } });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(45);
    expect(outcome.durationMs, 'timed to the cancellation, not to the answer 20 s later').toBeLessThan(15_000);
    await close();
  });
});

describe('RawRouter: notifications the SDK would only drop', () => {
  async function chatty() {
    const server = new McpServer({ name: 'in-memory', version: '1.0.0' }, { capabilities: { logging: {} } });
    server.registerTool('chatty', {}, async (extra) => {
      for (let i = 0; i < 3; i++) await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `line ${i}` } });
      if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: 1 } });
      return { content: [] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'loupe-test', version: '1.0.0' });
    client.fallbackNotificationHandler = IGNORE_NOTIFICATION;
    await client.connect(clientSide);
    const seen: string[] = [];
    // Test-only: count what reaches the SDK's notification dispatch.
    const protocol = client as unknown as { _onnotification(n: { method: string }): void };
    const dispatch = protocol._onnotification.bind(client);
    protocol._onnotification = (n) => {
      seen.push(n.method);
      dispatch(n);
    };
    const router = new RawRouter(clientSide, new TraceRecorder('s1'));
    router.install(client);
    return { client, seen, close: () => Promise.all([client.close(), server.close()]) };
  }

  it('are not handed to it; the ones it has a handler for are', async () => {
    const { client, seen, close } = await chatty();
    const progress: number[] = [];
    await client.callTool({ name: 'chatty', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    // The SDK's own request got its progress; the log lines, which only its do-nothing fallback would take, never reached it.
    expect(progress).toEqual([1]);
    expect(seen).toEqual(['notifications/progress']);
    await close();
  });

  it('reach a handler the Client registers, and any fallback that is not the do-nothing one', async () => {
    const { client, seen, close } = await chatty();
    const logged: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(n.params.data));
    await client.callTool({ name: 'chatty', arguments: {} });
    await new Promise((r) => setTimeout(r, 10));
    expect(logged).toEqual(['line 0', 'line 1', 'line 2']);
    client.removeNotificationHandler('notifications/message');
    const other: string[] = [];
    client.fallbackNotificationHandler = async (n) => void other.push(n.method);
    await client.callTool({ name: 'chatty', arguments: {} });
    await new Promise((r) => setTimeout(r, 10));
    expect(other).toEqual(['notifications/message', 'notifications/message', 'notifications/message']);
    expect(seen.filter((m) => m === 'notifications/message')).toHaveLength(6);
    await close();
  });
});
