/**
 * Ended watched sessions are pruned beyond a cap (issue 21, item 6): 300 gateway sessions opened
 * and closed once stayed in the page forever, each tab's snapshot growing with them. Here 300 relay
 * sessions are opened and ended in the engine, as the gateway and the tap do; the engine keeps the
 * last 20 that ended (their traces with them) and every live one, and the workspace state and a new
 * tab's snapshot say how many were pruned.
 */
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import { Engine } from './engine.ts';
import { ENDED_RELAYS_KEPT } from './ended-relays.ts';
import { Hub } from '../faces/web/hub.ts';
import { asWs, FakeSocket } from '../testing/socket.ts';

const TARGET: ServerConfig = { kind: 'http', name: 'target', url: 'http://127.0.0.1:1/mcp', transport: 'http', headers: {} };

/** A gateway client's session as gateway-session.ts opens one; `end` is what its leaving does. */
function openClient(engine: Engine, n: number) {
  const session = engine.openRelay({ kind: 'gateway', config: TARGET, label: `client ${n}`, transport: 'http', stop: async () => undefined });
  session.trace.record({ kind: 'transport', level: 'info', message: `client ${n} said hello` });
  return { id: session.id, end: () => session.endRelay() };
}

describe('ended watched sessions', () => {
  it('are pruned beyond the cap, the live ones and the last ended kept with their traces', () => {
    const engine = new Engine();
    const live = [openClient(engine, 0), openClient(engine, 1)];
    const ended: string[] = [];
    for (let n = 2; n < 302; n++) {
      const client = openClient(engine, n);
      client.end();
      ended.push(client.id);
      expect(engine.sessionList().length).toBeLessThanOrEqual(ENDED_RELAYS_KEPT + live.length);
    }
    const kept = engine.sessionList().map((s) => s.id);
    expect(kept).toEqual([...live.map((c) => c.id), ...ended.slice(-ENDED_RELAYS_KEPT)]);
    expect(engine.session(kept.at(-1)!)!.trace.all().some((e) => e.kind === 'transport' && e.message.includes('client 301 said hello'))).toBe(true);
    expect(engine.workspaceState().prunedSessions).toBe(300 - ENDED_RELAYS_KEPT);
    // A live one that ends later takes its turn among the ended.
    live[0].end();
    expect(engine.session(live[0].id)).toBeDefined();
    expect(engine.workspaceState().prunedSessions).toBe(301 - ENDED_RELAYS_KEPT);
  });

  it('says nothing while none was pruned; a session the page removed is not counted', async () => {
    const engine = new Engine({ endedRelaysKept: 2 });
    expect(engine.workspaceState().prunedSessions).toBeUndefined();
    const a = openClient(engine, 1);
    a.end();
    await engine.removeSession(a.id);
    for (let n = 2; n < 4; n++) openClient(engine, n).end();
    expect(engine.workspaceState().prunedSessions).toBeUndefined();
    openClient(engine, 4).end();
    expect(engine.workspaceState().prunedSessions).toBe(1);
  });

  it('leave a new tab\'s snapshot, which says how many were pruned, and the open tabs hear them go', () => {
    const hub = new Hub();
    const early = new FakeSocket();
    hub.attach(asWs(early));
    for (let n = 0; n < 40; n++) openClient(hub.engine, n).end();
    const before = new FakeSocket();
    hub.attach(asWs(before));
    const snapshot40 = before.of('snapshot')[0];
    for (let n = 40; n < 300; n++) openClient(hub.engine, n).end();
    const after = new FakeSocket();
    hub.attach(asWs(after));
    const snapshot300 = after.of('snapshot')[0];
    expect(snapshot300.sessions).toHaveLength(ENDED_RELAYS_KEPT);
    expect(snapshot300.workspace?.prunedSessions).toBe(300 - ENDED_RELAYS_KEPT);
    // The same sessions' worth of snapshot after 300 as after 40 (the names' digits aside).
    expect(after.texts[0].length).toBeLessThan(before.texts[0].length * 1.1);
    expect(snapshot40.workspace?.prunedSessions).toBe(40 - ENDED_RELAYS_KEPT);
    expect(early.of('session-removed')).toHaveLength(300 - ENDED_RELAYS_KEPT);
    expect(early.of('workspace').at(-1)?.workspace.prunedSessions).toBe(300 - ENDED_RELAYS_KEPT);
  });
});
