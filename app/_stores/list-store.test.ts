import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo, TraceEvent } from '../../lib/wire/wire.ts';
import { TOOLS } from './list-specs.ts';
import { LIST_CHANGED_DEBOUNCE_MS, ListStore } from './list-store.ts';
import { PortFixture, testSession } from '../_wire/port-fixture.ts';


const connected = (capabilities: Record<string, unknown>, since = 1): SessionInfo => testSession({ since, capabilities });
const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
const flush = () => new Promise((r) => setTimeout(r, 0));
const listChanged: TraceEvent = { session: 's', seq: 9, ts: 0, kind: 'frame', dir: 'in', raw: '{}', size: 2, rpc: 'notification', method: 'notifications/tools/list_changed' };

describe('ListStore', () => {
  it('lists when the session connects with the capability, following cursors', async () => {
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(connected({ tools: {} }));
    expect(store.getSnapshot().status).toBe('loading');
    app.requests[0].answer({ ok: true, result: { tools: [tool('a')], nextCursor: 'n' }, durationMs: 1 });
    await flush();
    expect(app.requests[1].params).toEqual({ cursor: 'n' });
    app.requests[1].answer({ ok: true, result: { tools: [tool('b')] }, durationMs: 1 });
    await flush();
    expect(store.getSnapshot()).toMatchObject({ status: 'done', pages: 2 });
    expect(store.getSnapshot().items.map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('says so when the server did not declare the capability', () => {
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(connected({ resources: {} }));
    expect(store.getSnapshot().status).toBe('unsupported');
    expect(app.requests).toHaveLength(0);
  });

  it('lists nothing on a session Loupe only watches (tap, gateway), not even on list_changed', async () => {
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(testSession({ since: 1, capabilities: { tools: { listChanged: true } }, relay: { kind: 'tap', label: 'claude-ai 0.1.0' } }));
    app.emit([listChanged]);
    store.refresh();
    await new Promise((r) => setTimeout(r, LIST_CHANGED_DEBOUNCE_MS + 20));
    expect(app.requests).toHaveLength(0);
    expect(store.getSnapshot().status).toBe('idle');
  });

  it('lists again on list_changed, once more if it arrives mid-listing', async () => {
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(connected({ tools: { listChanged: true } }));
    app.emit([listChanged]);
    app.emit([listChanged]);
    app.requests[0].answer({ ok: true, result: { tools: [tool('old')] }, durationMs: 1 });
    await flush();
    // The trailing listing waits for the burst to be quiet.
    await new Promise((r) => setTimeout(r, LIST_CHANGED_DEBOUNCE_MS + 20));
    expect(app.requests).toHaveLength(2);
    app.requests[1].answer({ ok: true, result: { tools: [tool('new')] }, durationMs: 1 });
    await flush();
    expect(store.getSnapshot().items.map((t) => t.name)).toEqual(['new']);
    expect(store.getSnapshot().fetches).toBe(2);
  });

  it('coalesces a burst of list_changed into one listing, and counts the notifications', async () => {
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(connected({ tools: { listChanged: true } }));
    app.requests[0].answer({ ok: true, result: { tools: [tool('a')] }, durationMs: 1 });
    await flush();
    for (let i = 0; i < 20; i++) app.emit([listChanged, listChanged]);
    await new Promise((r) => setTimeout(r, LIST_CHANGED_DEBOUNCE_MS + 20));
    expect(app.requests).toHaveLength(2);
    app.requests[1].answer({ ok: true, result: { tools: [tool('b')] }, durationMs: 1 });
    await flush();
    expect(store.getSnapshot()).toMatchObject({ status: 'done', changes: 40, fetches: 2 });
    store.dispose();
  });

  it('under a flood of list_changed keeps one listing in flight and one trailing (48 notifications, a few listings)', async () => {
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(connected({ tools: { listChanged: true } }));
    let inFlight = 0;
    let most = 0;
    // Every listing takes 15 ms; the flood is one notification every 25 ms (longer than the old
    // debounce window per notification pair, which re-listed for nearly every one).
    const answer = () => {
      for (const r of app.requests.splice(0)) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          r.answer({ ok: true, result: { tools: [tool('t')] }, durationMs: 15 });
        }, 15);
      }
    };
    let fetched = 0;
    const pump = setInterval(() => {
      fetched += app.requests.length;
      answer();
    }, 2);
    for (let i = 0; i < 48; i++) {
      app.emit([listChanged]);
      await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, LIST_CHANGED_DEBOUNCE_MS + 100));
    clearInterval(pump);
    fetched += app.requests.length;
    expect(store.getSnapshot().changes).toBe(48);
    expect(most).toBe(1);
    // The first listing, and one per second of flood at most, plus the trailing one.
    expect(fetched).toBeGreaterThanOrEqual(2);
    expect(fetched).toBeLessThanOrEqual(4);
    expect(store.getSnapshot().status).toBe('done');
    store.dispose();
  });

  it('drops a listing that a reconnect overtook', async () => {
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(connected({ tools: {} }, 1));
    app.session(connected({ tools: {} }, 2));
    app.requests[1].answer({ ok: true, result: { tools: [tool('fresh')] }, durationMs: 1 });
    await flush();
    app.requests[0].answer({ ok: true, result: { tools: [tool('stale')] }, durationMs: 1 });
    await flush();
    expect(store.getSnapshot().items.map((t) => t.name)).toEqual(['fresh']);
  });
});

describe('ListStore: cache hints (2026-07-28)', () => {
  afterEach(() => vi.useRealTimers());
  const modern = (era: 'modern' | 'legacy' = 'modern') => testSession({ since: 1, capabilities: { tools: { listChanged: true } }, era });
  const hinted = (name: string) => ({ tools: [tool(name)], ttlMs: 30_000, cacheScope: 'public' });

  async function listed(era: 'modern' | 'legacy') {
    vi.useFakeTimers({ now: 1_000_000 });
    const app = new PortFixture();
    const store = new ListStore(app.port, TOOLS);
    app.session(modern(era));
    app.answer('tools/list', hinted('a'));
    await vi.advanceTimersByTimeAsync(0);
    return { app, store };
  }

  it('within the hint, Refresh serves the list held and says how long it holds; Fetch again asks anyway', async () => {
    const { app, store } = await listed('modern');
    expect(store.getSnapshot()).toMatchObject({ status: 'done', fetches: 1, cache: { ttlMs: 30_000, scope: 'public', until: 1_030_000 } });
    await vi.advanceTimersByTimeAsync(18_000);
    store.refresh();
    expect(app.requests).toHaveLength(0);
    expect(store.getSnapshot().servedFromCache).toEqual({ at: 1_018_000, leftMs: 12_000 });
    expect(store.getSnapshot().fetches).toBe(1);
    store.getSnapshot().onFetchAgain?.();
    expect(app.requests.map((r) => r.method)).toEqual(['tools/list']);
    expect(store.getSnapshot().servedFromCache).toBeUndefined();
    app.answer('tools/list', { tools: [tool('b')] });
    await vi.advanceTimersByTimeAsync(0);
    // No hint on this listing: Refresh lists again.
    expect(store.getSnapshot().cache).toBeUndefined();
    store.refresh();
    expect(app.requests).toHaveLength(1);
    store.dispose();
  });

  it('past the hint Refresh lists again, and list_changed always does', async () => {
    const { app, store } = await listed('modern');
    await vi.advanceTimersByTimeAsync(30_001);
    store.refresh();
    expect(app.requests).toHaveLength(1);
    app.answer('tools/list', hinted('b'));
    await vi.advanceTimersByTimeAsync(0);
    app.emit([listChanged]);
    await vi.advanceTimersByTimeAsync(LIST_CHANGED_DEBOUNCE_MS + 10);
    expect(app.requests.map((r) => r.method)).toEqual(['tools/list']);
    store.dispose();
  });

  it('a legacy session ignores hints', async () => {
    const { app, store } = await listed('legacy');
    expect(store.getSnapshot().cache).toBeUndefined();
    store.refresh();
    expect(app.requests).toHaveLength(1);
    store.dispose();
  });
});
