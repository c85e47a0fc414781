import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../lib/wire/wire.ts';
import { requestFrames } from './request-frames.ts';

let seq = 0;
const frame = (dir: 'in' | 'out', rpc: 'request' | 'response' | 'error' | 'notification', message: Record<string, unknown>): TraceEvent => {
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  return { session: 's', seq: ++seq, ts: seq, kind: 'frame', dir, rpc, raw, size: raw.length, ...(typeof message.method === 'string' ? { method: message.method } : {}), ...(message.id !== undefined ? { id: message.id as number } : {}) } as TraceEvent;
};

describe('requestFrames (issue 27)', () => {
  it('finds a request by its JSON-RPC id, its answer, and the notifications in flight or naming its progress token', () => {
    const events = [
      frame('out', 'request', { id: 7, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 'p7' } } }),
      frame('in', 'notification', { method: 'notifications/progress', params: { progressToken: 'p7', progress: 1 } }),
      frame('in', 'notification', { method: 'notifications/progress', params: { progressToken: 'other', progress: 1 } }),
      frame('in', 'notification', { method: 'notifications/message', params: { level: 'info', data: 'hi' } }),
      frame('in', 'response', { id: 7, result: { content: [] } }),
      frame('in', 'notification', { method: 'notifications/message', params: { data: 'after' } }),
    ];
    const found = requestFrames(events, 7);
    expect(found.request?.seq).toBe(events[0].seq);
    expect(found.response?.seq).toBe(events[4].seq);
    expect(found.notifications.map((n) => n.method)).toEqual(['notifications/progress', 'notifications/message']);
    expect(found.refusal).toBeUndefined();
  });

  it('takes the newest request with the id, or the one a History row names; nothing when there is none', () => {
    const old = frame('out', 'request', { id: 1, method: 'ping' });
    const oldAnswer = frame('in', 'response', { id: 1, result: {} });
    const again = frame('out', 'request', { id: 1, method: 'ping' });
    const events = [old, oldAnswer, again];
    expect(requestFrames(events, 1).request?.seq).toBe(again.seq);
    expect(requestFrames(events, 1).response).toBeUndefined();
    expect(requestFrames(events, 1, old.seq).response?.seq).toBe(oldAnswer.seq);
    expect(requestFrames(events, 99)).toEqual({ notifications: [] });
  });

  it('names the rule that answered the request in the server’s place', () => {
    const request = frame('out', 'request', { id: 3, method: 'tools/call', params: { name: 'delete' } });
    const refusal: TraceEvent = { session: 's', seq: ++seq, ts: seq, kind: 'intervention', dir: 'out', by: 'rule', rule: { id: 'r1', name: 'no deletes', action: 'error' }, action: 'answered', message: 'answered', original: request.kind === 'frame' ? request.raw : '' };
    const answer = frame('in', 'error', { id: 3, error: { code: -32000, message: 'no' } });
    const found = requestFrames([request, refusal, answer], 3);
    expect(found.refusal?.rule?.name).toBe('no deletes');
    expect(found.response?.seq).toBe(answer.seq);
    // Refused before it was a frame on the wire: the intervention stands for the request.
    expect(requestFrames([refusal, answer], 3).refusal?.seq).toBe(refusal.seq);
  });
});
