import { describe, expect, it } from 'vitest';
import type { SessionInfo, TraceEvent } from '../lib/wire.ts';
import { appendEvents, applyMessage, currentEvents, currentSession, EVENT_CAP, initialState, recordInvalid } from './loupe-state.ts';

const session = (id: string, status: SessionInfo['status'] = 'connected'): SessionInfo => ({
  id,
  status,
  since: 1,
  config: { kind: 'stdio', command: 'node', args: [], env: {} },
});
const noise = (sessionId: string, seq: number): TraceEvent => ({ session: sessionId, seq, ts: seq, kind: 'noise', text: `line ${seq}` });

describe('loupe state', () => {
  it('takes the snapshot and shows the primary session', () => {
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
    expect(currentSession(state)?.id).toBe('b');
    expect(currentEvents(state)).toEqual([noise('b', 1)]);
    expect(state.stats.b.dropped).toBe(3);
  });

  it('adds sessions, picks one when none is shown, and moves on when it is removed', () => {
    let state = applyMessage(initialState(), { type: 'session', session: session('x', 'connecting') });
    expect(state.current).toBe('x');
    state = applyMessage(state, { type: 'session', session: session('y') });
    expect(state.current).toBe('x');
    state = applyMessage(state, { type: 'session-removed', session: 'x' });
    expect(state.current).toBe('y');
    expect(state.order).toEqual(['y']);
  });

  it('appends event batches per session and caps them', () => {
    const many = Array.from({ length: EVENT_CAP + 5 }, (_, i) => noise('a', i + 1));
    const state = appendEvents(initialState(), many);
    expect(state.events.a).toHaveLength(EVENT_CAP);
    expect(state.events.a[0].seq).toBe(6);
    expect(state.localDropped.a).toBe(5);
  });

  it('counts invalid messages and keeps proxy errors', () => {
    let state = recordInvalid(initialState(), '{"type":"nope"}', 'bad type');
    state = applyMessage(state, { type: 'error', error: { code: 'NO_SESSION', message: 'No such session' } });
    expect(state.invalid.count).toBe(1);
    expect(state.proxyErrors[0].error.code).toBe('NO_SESSION');
  });
});
