import { describe, expect, it } from 'vitest';
import type { ClientMessage, ServerMessage, ServerRequest } from '../../lib/wire/wire.ts';
import type { LoupeStore } from '../_session/loupe-store.ts';
import { ServerRequestStore } from './server-request-store.ts';

/** The two LoupeStore members the store uses: incoming messages, and sending. */
class FakeApp {
  listeners = new Set<(m: ServerMessage) => void>();
  sent: ClientMessage[] = [];
  open = true;
  onMessage(l: (m: ServerMessage) => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  send(message: ClientMessage): boolean {
    if (this.open) this.sent.push(message);
    return this.open;
  }
  emit(message: ServerMessage) {
    this.listeners.forEach((l) => l(message));
  }
}

const request = (requestId: string, receivedAt = 1): ServerRequest => ({ session: 's', requestId, rpcId: 3, method: 'elicitation/create', params: {}, receivedAt, deadline: receivedAt + 1_000 });

describe('ServerRequestStore', () => {
  it('takes pending requests from the snapshot and from server-request, and drops them when done', () => {
    const app = new FakeApp();
    const store = new ServerRequestStore(app as unknown as LoupeStore);
    app.emit({ type: 'snapshot', version: 1, sessions: [], events: [], stats: [], serverRequests: [request('r1')] });
    app.emit({ type: 'server-request', request: request('r2', 2) });
    expect(store.getSnapshot().pending.map((r) => r.requestId)).toEqual(['r1', 'r2']);
    app.emit({ type: 'server-request-done', session: 's', requestId: 'r1', how: 'timed-out' });
    expect(store.getSnapshot().pending.map((r) => r.requestId)).toEqual(['r2']);
    expect(store.getSnapshot().recent[0]).toMatchObject({ how: 'timed-out', answeredHere: false });
    // A new socket's snapshot is the truth.
    app.emit({ type: 'snapshot', version: 1, sessions: [], events: [], stats: [] });
    expect(store.getSnapshot().pending).toEqual([]);
  });

  it('sends an answer, and tells an answer from this tab from one from another', () => {
    const app = new FakeApp();
    const store = new ServerRequestStore(app as unknown as LoupeStore);
    app.emit({ type: 'server-request', request: request('r1') });
    app.emit({ type: 'server-request', request: request('r2') });
    expect(store.respond(request('r1'), { ok: true, result: { action: 'decline' } })).toBe(true);
    expect(app.sent).toEqual([{ type: 'respond', session: 's', requestId: 'r1', outcome: { ok: true, result: { action: 'decline' } } }]);
    expect(store.getSnapshot().sending.has('s/r1')).toBe(true);
    app.emit({ type: 'server-request-done', session: 's', requestId: 'r1', how: 'answered' });
    app.emit({ type: 'server-request-done', session: 's', requestId: 'r2', how: 'answered' });
    expect(store.getSnapshot().recent.map((r) => [r.request.requestId, r.answeredHere])).toEqual([['r2', false], ['r1', true]]);
    expect(store.getSnapshot().sending.size).toBe(0);
  });

  it('says so when the answer cannot be sent', () => {
    const app = new FakeApp();
    app.open = false;
    const store = new ServerRequestStore(app as unknown as LoupeStore);
    app.emit({ type: 'server-request', request: request('r1') });
    expect(store.respond(request('r1'), { ok: false, error: { code: -1, message: 'no' } })).toBe(false);
    expect(store.getSnapshot().failed['s/r1']).toMatch(/not sent/);
    expect(store.getSnapshot().pending).toHaveLength(1);
  });
});
