import { describe, expect, it } from 'vitest';
import type { SurfacePoint } from '../../lib/wire/wire.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';
import { SurfaceStore } from './surface-store.ts';

const point = (id: number, tools: string[], reason = 'connected'): SurfacePoint => ({
  id,
  at: 1000 + id,
  seq: id * 10,
  reason,
  lists: { tools: tools.map((name) => ({ name, inputSchema: { type: 'object' } })), resourceTemplates: [], resources: [], prompts: [] },
});

describe('SurfaceStore', () => {
  it('compares the last two points, a chosen pair until the next point, and forgets a removed session', () => {
    const host = new MessageHostFixture();
    const store = new SurfaceStore(host);
    expect(store.pair('s1')).toBeUndefined();
    host.deliver({ type: 'snapshot', version: 1, sessions: [], events: [], stats: [], surfaces: { s1: [point(1, ['echo'])] } });
    expect(store.pair('s1')).toBeUndefined();
    host.deliver({ type: 'surface-point', session: 's1', point: point(2, ['echo', 'add'], 'restarted: server.mjs changed') });
    const pair = store.pair('s1')!;
    expect([pair.from.id, pair.to.id]).toEqual([1, 2]);
    expect(store.diff(pair.from, pair.to).changes.map((c) => `${c.change} ${c.name}`)).toEqual(['added add']);
    expect(store.diff(pair.from, pair.to)).toBe(store.diff(pair.from, pair.to));
    host.deliver({ type: 'surface-point', session: 's1', point: point(3, ['add']) });
    store.choose('s1', { from: 1, to: 3 });
    expect(store.diff(store.pair('s1')!.from, store.pair('s1')!.to).changes.map((c) => `${c.change} ${c.name}`)).toEqual(['removed echo', 'added add']);
    host.deliver({ type: 'surface-point', session: 's1', point: point(4, ['add', 'x']) });
    expect(store.pair('s1')!.from.id).toBe(3);
    host.deliver({ type: 'session-removed', session: 's1' });
    expect(store.getSnapshot().points.s1).toBeUndefined();
  });
});
