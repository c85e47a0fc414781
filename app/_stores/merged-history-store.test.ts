import { describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from '../../lib/wire/wire.ts';
import { MergedHistoryStore, type MergedHost } from './merged-history-store.ts';
import { PortFixture, testSession } from '../_wire/port-fixture.ts';
import { createSessionModel, type SessionModel } from '../_session/model.ts';

function frame(session: string, seq: number, ts: number, message: Record<string, unknown>): FrameEvent {
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  const rpc = message.method === undefined ? 'response' : message.id === undefined ? 'notification' : 'request';
  return { session, seq, ts, kind: 'frame', dir: rpc === 'request' ? 'out' : 'in', raw, size: raw.length, rpc, method: message.method as string | undefined, id: message.id as FrameEvent['id'] };
}

/** Two sessions, each with its real port and model; the host joins their states as the tab store would. */
function setup() {
  const feeds = { a: new PortFixture('a'), b: new PortFixture('b') };
  const models: Record<string, SessionModel> = {};
  for (const [id, feed] of Object.entries(feeds)) {
    feed.apply({ type: 'snapshot', version: 1, sessions: [testSession({ id, name: id })], events: [], stats: [] });
    models[id] = createSessionModel(feed.port);
  }
  const listeners = new Set<() => void>();
  const host: MergedHost = {
    getSnapshot: () => ({ order: Object.keys(models), sessions: Object.fromEntries(Object.entries(feeds).flatMap(([id, f]) => (f.getSnapshot().sessions[id] ? [[id, f.getSnapshot().sessions[id]]] : []))) }),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    model: (id) => models[id],
  };
  const store = new MergedHistoryStore(host);
  return { feeds, store, changed: () => listeners.forEach((l) => l()) };
}

const keys = (rows: readonly { seq: number; event: TraceEvent }[]) => rows.map((r) => `${r.event.session}:${r.seq}`);

describe('MergedHistoryStore', () => {
  it('merges the live batches of two sessions in time order, filters by server and by the History filter', () => {
    const { feeds, store } = setup();
    feeds.a.emit([frame('a', 1, 10, { id: 1, method: 'tools/call' }), frame('a', 2, 30, { id: 1, result: {} })]);
    feeds.b.emit([frame('b', 1, 20, { id: 1, method: 'ping' }), frame('b', 2, 25, { id: 1, result: {} }), frame('b', 3, 40, { method: 'notifications/message' })]);
    expect(keys(store.getSnapshot().rows)).toEqual(['a:1', 'b:1', 'b:2', 'a:2', 'b:3']);
    expect(store.getSnapshot().total).toBe(5);
    expect([...store.methods().entries()].sort()).toEqual([['notifications/message', 1], ['ping', 2], ['tools/call', 2]]);

    store.setServers(['a']);
    expect(keys(store.getSnapshot().rows)).toEqual(['a:1', 'a:2']);
    feeds.a.emit([frame('a', 3, 50, { method: 'notifications/message' })]);
    feeds.b.emit([frame('b', 4, 45, { method: 'notifications/message' })]);
    expect(keys(store.getSnapshot().rows)).toEqual(['a:1', 'a:2', 'a:3']);
    store.setFilter({ kinds: ['notification'] });
    expect(keys(store.getSnapshot().rows)).toEqual(['a:3']);
    store.setServers([]);
    expect(keys(store.getSnapshot().rows)).toEqual(['b:3', 'b:4', 'a:3']);
    store.resetFilter();
    expect(store.getSnapshot().rows).toHaveLength(7);
  });

  it('replaces a session on trace-reset, forgets a removed one, and selects by session and seq', () => {
    const { feeds, store, changed } = setup();
    feeds.a.emit([frame('a', 1, 10, { id: 1, method: 'tools/call' }), frame('a', 2, 30, { id: 1, result: {} })]);
    feeds.b.emit([frame('b', 1, 20, { id: 1, method: 'ping' })]);
    store.select(store.getSnapshot().rows[0]);
    store.selectSeq('a', 2);
    expect(keys([store.getSnapshot().selected!])).toEqual(['a:2']);
    store.move(-1);
    expect(keys([store.getSnapshot().selected!])).toEqual(['b:1']);

    feeds.a.apply({ type: 'trace-reset', session: 'a', events: [frame('a', 1, 10, { id: 1, method: 'tools/call' }), frame('a', 2, 30, { id: 1, result: {} }), frame('a', 3, 35, { method: 'x' })], stats: { session: 'a', kept: 3, dropped: 0 } });
    expect(keys(store.getSnapshot().rows)).toEqual(['a:1', 'b:1', 'a:2', 'a:3']);

    feeds.b.apply({ type: 'session-removed', session: 'b' });
    changed();
    expect(keys(store.getSnapshot().rows)).toEqual(['a:1', 'a:2', 'a:3']);
  });

  it('keeps up with 100,000 rows in live batches without re-sorting them (a generous bound)', () => {
    const { feeds, store } = setup();
    const start = performance.now();
    let ts = 0;
    for (let batch = 0; batch < 500; batch += 1) {
      for (const id of ['a', 'b'] as const) {
        const base = batch * 100;
        // The two sessions' batches overlap in time, as two busy servers' do.
        feeds[id].emit(Array.from({ length: 100 }, (_, i) => frame(id, base + i + 1, ts + i * 2 + (id === 'b' ? 1 : 0), { method: 'notifications/message' })));
      }
      ts += 200;
    }
    const ms = performance.now() - start;
    const rows = store.getSnapshot().rows;
    expect(rows).toHaveLength(100_000);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i - 1].ts <= rows[i].ts).toBe(true);
    // Two trace stores index the same rows too; the merge itself is a small part of this.
    expect(ms).toBeLessThan(15_000);
  });
});
