import { describe, expect, it } from 'vitest';
import { CallStore } from './call-store.ts';
import { PortFixture } from '../_wire/port-fixture.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';


const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const ok: RequestOutcome = { ok: true, result: { content: [] }, durationMs: 1 };

describe('CallStore', () => {
  it('runs several calls at once, each with its own progress (folded in batches)', async () => {
    const app = new PortFixture();
    const store = new CallStore(app.port);
    void store.run('slow', {});
    void store.run('fast', { a: 1 });
    const [slow, fast] = app.requests;
    expect(slow.params).toEqual({ name: 'slow', arguments: {} });
    expect(slow.options).toEqual({ timeoutMs: 60_000, resetTimeoutOnProgress: true });
    app.progress(slow.id, 1, 10, 'one');
    app.progress(slow.id, 2, 10);
    await tick(80);
    expect(store.getSnapshot().calls[0].progress).toEqual({ progress: 2, total: 10, message: 'one', count: 2 });
    fast.answer(ok);
    await tick();
    expect(store.getSnapshot().calls.map((c) => [c.tool, c.status])).toEqual([['slow', 'running'], ['fast', 'done']]);
  });

  it('passes the timeout settings with each call', () => {
    const app = new PortFixture();
    const store = new CallStore(app.port);
    store.setSettings({ timeoutMs: 1_000, resetTimeoutOnProgress: false, maxTotalTimeoutMs: 5_000 });
    void store.run('t', {});
    expect(app.requests[0].options).toEqual({ timeoutMs: 1_000, resetTimeoutOnProgress: false, maxTotalTimeoutMs: 5_000 });
  });

  it('notes a response that arrives after the cancel, without making it the result', async () => {
    const app = new PortFixture();
    const store = new CallStore(app.port);
    void store.run('slow', {});
    const { id, answer } = app.requests[0];
    store.cancel(id);
    expect(app.cancels).toEqual([id]);
    answer({ ok: false, error: { code: 'CANCELLED', message: 'Cancelled by the user' }, durationMs: 5 });
    await tick();
    app.frames({ dir: 'out', rpc: 'notification', method: 'notifications/cancelled', raw: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"loupe-7"}}' });
    app.frames({ dir: 'in', rpc: 'response', id: 'loupe-6', raw: '{"jsonrpc":"2.0","id":"loupe-6","result":{}}' });
    expect(store.getSnapshot().call?.lateResponseSeq).toBeUndefined();
    app.frames({ dir: 'in', rpc: 'response', id: 'loupe-7', raw: '{"jsonrpc":"2.0","id":"loupe-7","result":{"content":[]}}' });
    const call = store.getSnapshot().call;
    expect(call).toMatchObject({ status: 'done', cancelledRpcId: 'loupe-7', lateResponseSeq: 100, outcome: { ok: false } });
  });
});
