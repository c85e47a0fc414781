import { describe, expect, it } from 'vitest';
import type { ServerMessage, TraceEvent } from '../lib/wire.ts';
import { CallStore } from './call-store.ts';
import type { LoupeStore, RequestOptions, RequestOutcome } from './loupe-store.ts';

/** Just enough of LoupeStore for a CallStore: requests answered by hand, messages and events pushed. */
class FakeApp {
  messageListeners = new Set<(m: ServerMessage) => void>();
  eventListeners = new Set<(e: readonly TraceEvent[]) => void>();
  requests: Array<{ id: string; params: Record<string, unknown>; options?: RequestOptions; answer(o: RequestOutcome): void }> = [];
  cancels: string[] = [];
  onMessage(l: (m: ServerMessage) => void) {
    this.messageListeners.add(l);
    return () => this.messageListeners.delete(l);
  }
  onEvents(l: (e: readonly TraceEvent[]) => void) {
    this.eventListeners.add(l);
    return () => this.eventListeners.delete(l);
  }
  request(_s: string, _m: string, params: Record<string, unknown> = {}, id = 'x', options?: RequestOptions): Promise<RequestOutcome> {
    return new Promise((answer) => this.requests.push({ id, params, options, answer }));
  }
  cancel(_s: string, id: string) {
    this.cancels.push(id);
  }
  progress(id: string, progress: number, total?: number, message?: string) {
    this.messageListeners.forEach((l) => l({ type: 'progress', id, session: 's', progress, total, message }));
  }
  frames(...frames: Array<Partial<TraceEvent> & { dir: 'in' | 'out'; raw: string; rpc: 'request' | 'response' | 'notification' }>) {
    const events = frames.map((f, i) => ({ session: 's', seq: 100 + i, ts: 0, kind: 'frame', size: f.raw.length, ...f }) as TraceEvent);
    this.eventListeners.forEach((l) => l(events));
  }
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const ok: RequestOutcome = { ok: true, result: { content: [] }, durationMs: 1 };

describe('CallStore', () => {
  it('runs several calls at once, each with its own progress (folded in batches)', async () => {
    const app = new FakeApp();
    const store = new CallStore(app as unknown as LoupeStore);
    void store.run('s', 'slow', {});
    void store.run('s', 'fast', { a: 1 });
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
    const app = new FakeApp();
    const store = new CallStore(app as unknown as LoupeStore);
    store.setSettings({ timeoutMs: 1_000, resetTimeoutOnProgress: false, maxTotalTimeoutMs: 5_000 });
    void store.run('s', 't', {});
    expect(app.requests[0].options).toEqual({ timeoutMs: 1_000, resetTimeoutOnProgress: false, maxTotalTimeoutMs: 5_000 });
  });

  it('notes a response that arrives after the cancel, without making it the result', async () => {
    const app = new FakeApp();
    const store = new CallStore(app as unknown as LoupeStore);
    void store.run('s', 'slow', {});
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
