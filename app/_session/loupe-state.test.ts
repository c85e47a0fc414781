import { describe, expect, it } from 'vitest';
import type { SessionInfo, TraceEvent } from '../../lib/wire/wire.ts';
import { applyMessage, defaultSession, initialState, recordInvalid } from './loupe-state.ts';
import { EventLog } from '../_wire/session-port.ts';
import { testSession } from '../_wire/port-fixture.ts';

const session = (id: string, status: SessionInfo['status'] = 'connected'): SessionInfo => testSession({ id, name: id, status });
const noise = (sessionId: string, seq: number): TraceEvent => ({ session: sessionId, seq, ts: seq, kind: 'noise', text: `line ${seq}` });

describe('loupe state', () => {
  it('takes the snapshot and shows the primary session first', () => {
    const state = applyMessage(initialState(), {
      type: 'snapshot',
      version: 1,
      sessions: [session('a'), session('b')],
      events: [noise('b', 1), noise('a', 1)],
      stats: [{ session: 'b', kept: 1, dropped: 3 }],
      primary: 'b',
    });
    expect(state.synced).toBe(true);
    expect(state.syncCount).toBe(1);
    expect(defaultSession(state)).toBe('b');
    expect(state.stats.b.dropped).toBe(3);
  });

  it('adds sessions in order and forgets a removed one (no session is "current": the page selects)', () => {
    let state = applyMessage(initialState(), { type: 'session', session: session('x', 'connecting') });
    state = applyMessage(state, { type: 'server-added', requestId: 'r', session: session('y') });
    expect(state.order).toEqual(['x', 'y']);
    expect(defaultSession(state)).toBe('x');
    state = applyMessage(state, { type: 'session-removed', session: 'x' });
    expect(state.order).toEqual(['y']);
    expect(state.sessions.x).toBeUndefined();
    expect(defaultSession(state)).toBe('y');
  });

  it('counts invalid messages and keeps proxy errors', () => {
    let state = recordInvalid(initialState(), '{"type":"nope"}', 'bad type');
    state = applyMessage(state, { type: 'error', error: { code: 'NO_SESSION', message: 'No such session' } });
    expect(state.invalid.count).toBe(1);
    expect(state.proxyErrors[0].error.code).toBe('NO_SESSION');
  });
});

describe('EventLog', () => {
  it('appends in place and keeps at most its cap, counting what it let go', () => {
    const log = new EventLog(10);
    const events = log.events;
    log.append(Array.from({ length: 25 }, (_, i) => noise('a', i + 1)));
    expect(log.events).toBe(events);
    expect(log.events).toHaveLength(10);
    expect(log.events[0].seq).toBe(16);
    expect(log.dropped).toBe(15);
    log.reset([noise('a', 30)]);
    expect(log).toMatchObject({ dropped: 0, resets: 1 });
    expect(log.events.map((e) => e.seq)).toEqual([30]);
  });
});
