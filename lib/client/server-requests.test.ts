import { describe, expect, it } from 'vitest';
import { completedElicitations, describeFinish, EMPTY_QUEUE, finishRequest, formatAge, RECENT_CAP, receiveRequest, replacePending, requestKind } from './server-requests.ts';
import type { FrameEvent, ServerRequest } from '../wire/wire.ts';

const request = (requestId: string, receivedAt = 1_000, session = 's1'): ServerRequest => ({
  session,
  requestId,
  rpcId: 0,
  method: 'sampling/createMessage',
  params: {},
  receivedAt,
  deadline: receivedAt + 60_000,
});

let seq = 0;
function frame(dir: 'in' | 'out', message: Record<string, unknown>): FrameEvent {
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  const rpc = 'method' in message ? ('id' in message ? 'request' : 'notification') : 'error' in message ? 'error' : 'response';
  return { kind: 'frame', session: 's1', seq: ++seq, ts: seq, dir, raw, size: raw.length, rpc, method: message.method as string | undefined, id: message.id as number | undefined };
}

describe('the request queue', () => {
  it('keeps pending requests oldest first, once each', () => {
    let queue = receiveRequest(EMPTY_QUEUE, request('b', 2_000));
    queue = receiveRequest(queue, request('a', 1_000));
    queue = receiveRequest(queue, request('a', 1_000));
    expect(queue.pending.map((r) => r.requestId)).toEqual(['a', 'b']);
    expect(replacePending(queue, [request('c')]).pending.map((r) => r.requestId)).toEqual(['c']);
  });

  it('moves a finished request to the recent list, newest first and capped', () => {
    let queue = receiveRequest(EMPTY_QUEUE, request('a'));
    queue = finishRequest(queue, { session: 's1', requestId: 'a', how: 'timed-out' }, false, 61_000);
    expect(queue.pending).toEqual([]);
    expect(queue.recent[0]).toMatchObject({ how: 'timed-out', answeredHere: false, request: { requestId: 'a' } });
    expect(finishRequest(queue, { session: 's1', requestId: 'zzz', how: 'answered' }, true, 0)).toBe(queue);
    for (let i = 0; i < RECENT_CAP + 5; i++) queue = finishRequest(receiveRequest(queue, request(`r${i}`)), { session: 's1', requestId: `r${i}`, how: 'answered' }, true, 2_000);
    expect(queue.recent).toHaveLength(RECENT_CAP);
    expect(queue.recent[0].request.requestId).toBe(`r${RECENT_CAP + 4}`);
  });

  it('a request id is per session', () => {
    const queue = receiveRequest(receiveRequest(EMPTY_QUEUE, request('a', 1, 's1')), request('a', 2, 's2'));
    expect(queue.pending).toHaveLength(2);
    expect(finishRequest(queue, { session: 's2', requestId: 'a', how: 'answered' }, true, 3).pending.map((r) => r.session)).toEqual(['s1']);
  });

  it('says how each ended', () => {
    const r = request('a', 0);
    expect(describeFinish({ request: r, how: 'answered', answeredHere: true, at: 5_000 })).toBe('answered after 5 s');
    expect(describeFinish({ request: r, how: 'answered', answeredHere: false, at: 5_000 })).toBe('answered in another tab after 5 s');
    expect(describeFinish({ request: r, how: 'timed-out', answeredHere: false, at: 60_000 })).toBe('nobody answered within 1 min: Loupe answered the server with an error');
    expect(describeFinish({ request: r, how: 'cancelled', answeredHere: false, at: 1_000 })).toBe('the server cancelled it after 1 s');
    expect(describeFinish({ request: r, how: 'session-closed', answeredHere: false, at: 1_000 })).toContain('session closed');
  });

  it('formats ages', () => {
    expect(formatAge(-5)).toBe('0 s');
    expect(formatAge(59_999)).toBe('59 s');
    expect(formatAge(185_000)).toBe('3 min 5 s');
    expect(formatAge(3_720_000)).toBe('1 h 2 min');
    expect(requestKind('elicitation/create')).toBe('elicitation');
    expect(requestKind('sampling/createMessage')).toBe('sampling');
    expect(requestKind('roots/list')).toBe('other');
  });
});

describe('the trace', () => {
  it('collects finished URL elicitations', () => {
    const events = [
      frame('in', { method: 'notifications/elicitation/complete', params: { elicitationId: 'e1' } }),
      frame('in', { method: 'notifications/elicitation/complete', params: { elicitationId: 5 } }),
      frame('out', { method: 'notifications/elicitation/complete', params: { elicitationId: 'e2' } }),
    ];
    expect([...completedElicitations(events)]).toEqual(['e1']);
  });
});
