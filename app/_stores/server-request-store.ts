/**
 * Server→client requests waiting for the user (sampling, elicitation), for every session: filled
 * from the snapshot (they survive a reload) and from `server-request` messages, emptied by
 * `server-request-done` (answered here or in another tab, timed out, cancelled, session closed).
 */
import { EMPTY_QUEUE, finishRequest, receiveRequest, replacePending, type RequestQueue } from '../../lib/client/server-requests.ts';
import type { RpcError, ServerMessage, ServerRequest } from '../../lib/wire/wire.ts';
import type { LoupeStore } from '../_session/loupe-store.ts';
import { HostStore } from './host-store.ts';

export interface ServerRequestState extends RequestQueue {
  /** `session/requestId` of answers this tab sent and the proxy has not confirmed yet. */
  sending: ReadonlySet<string>;
  /** Why an answer could not be sent, by `session/requestId`. */
  failed: Readonly<Record<string, string>>;
}

export type Answer = { ok: true; result: Record<string, unknown> } | { ok: false; error: RpcError };

export const requestKey = (r: { session: string; requestId: string }): string => `${r.session}/${r.requestId}`;

export class ServerRequestStore extends HostStore<ServerRequestState> {
  /** Answers this tab sent, kept until their `server-request-done` (to tell "answered here" from "elsewhere"). */
  private readonly answeredHere = new Set<string>();

  constructor(private readonly app: LoupeStore) {
    super(app, { ...EMPTY_QUEUE, sending: new Set(), failed: {} });
  }

  /** Send the user's answer; false (with the reason kept in `failed`) when the socket is down. */
  respond(request: ServerRequest, outcome: Answer): boolean {
    const key = requestKey(request);
    const sent = this.app.send({ type: 'respond', session: request.session, requestId: request.requestId, outcome });
    const failed = { ...this.state.failed };
    delete failed[key];
    if (!sent) {
      this.set({ ...this.state, failed: { ...failed, [key]: 'Not connected to Loupe: the answer was not sent. Try again once the page reconnects.' } });
      return false;
    }
    this.answeredHere.add(key);
    this.set({ ...this.state, failed, sending: new Set([...this.state.sending, key]) });
    return true;
  }

  protected receive(message: ServerMessage): void {
    switch (message.type) {
      case 'snapshot':
        this.set({ ...this.state, ...replacePending(this.state, message.serverRequests ?? []), sending: new Set() });
        return;
      case 'server-request':
        this.set({ ...this.state, ...receiveRequest(this.state, message.request) });
        return;
      case 'server-request-done':
        this.done(message.session, message.requestId, message.how);
        return;
      case 'error':
        // The proxy refuses an answer to a request that is gone: nothing is pending any more here either.
        if (this.state.sending.size > 0 && message.error.code === 'NO_SESSION') this.set({ ...this.state, sending: new Set() });
        return;
      default:
        return;
    }
  }

  private done(session: string, requestId: string, how: 'answered' | 'timed-out' | 'cancelled' | 'session-closed'): void {
    const key = requestKey({ session, requestId });
    const here = this.answeredHere.delete(key);
    const sending = new Set(this.state.sending);
    sending.delete(key);
    this.set({ ...this.state, ...finishRequest(this.state, { session, requestId, how }, here && how === 'answered', Date.now()), sending });
  }
}
