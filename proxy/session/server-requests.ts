/**
 * Server→client requests that wait for the user (sampling/createMessage, elicitation/create).
 * They live here, not in a tab: every tab sees them, a reload finds them again, and one that nobody
 * answers in time gets an error reply instead of hanging the server's tool call.
 * https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 */
import type { RpcError, ServerRequest } from '../../lib/wire/wire.ts';

export type ServerRequestOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: RpcError };
export type DoneHow = 'answered' | 'timed-out' | 'cancelled' | 'session-closed';

interface Pending {
  request: ServerRequest;
  settle(outcome: ServerRequestOutcome): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface BrokerEvents {
  added(request: ServerRequest): void;
  done(session: string, requestId: string, how: DoneHow): void;
}

export const DEFAULT_SERVER_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** JSON-RPC error codes used in Loupe's own answers. */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

export class ServerRequestBroker {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;

  constructor(private readonly events: BrokerEvents) {}

  list(): ServerRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** Holds a request until the user answers, it times out, or the server cancels it. */
  ask(input: Omit<ServerRequest, 'requestId' | 'receivedAt' | 'deadline'>, timeoutMs: number, signal: AbortSignal): Promise<ServerRequestOutcome> {
    const requestId = `r${this.nextId++}`;
    const receivedAt = Date.now();
    const request: ServerRequest = { ...input, requestId, receivedAt, deadline: receivedAt + timeoutMs };
    return new Promise((resolve) => {
      const finish = (outcome: ServerRequestOutcome, how: DoneHow) => {
        if (!this.pending.delete(requestId)) return;
        clearTimeout(entry.timer);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
        this.events.done(input.session, requestId, how);
      };
      const onAbort = () => finish({ ok: false, error: { code: CONNECTION_CLOSED, message: 'Cancelled by the server' } }, 'cancelled');
      const timer = setTimeout(
        () => finish({ ok: false, error: { code: REQUEST_TIMEOUT, message: `Nobody answered in Loupe within ${Math.round(timeoutMs / 1000)} s` } }, 'timed-out'),
        timeoutMs,
      );
      const entry: Pending = { request, timer, settle: (outcome) => finish(outcome, 'answered') };
      this.pending.set(requestId, entry);
      signal.addEventListener('abort', onAbort, { once: true });
      this.events.added(request);
    });
  }

  /** The user's answer; false when it is no longer pending (answered elsewhere, timed out). */
  respond(session: string, requestId: string, outcome: ServerRequestOutcome): boolean {
    const entry = this.pending.get(requestId);
    if (!entry || entry.request.session !== session) return false;
    entry.settle(outcome);
    return true;
  }

  /** The session closed: its requests can no longer be answered. */
  dropSession(session: string): void {
    for (const [requestId, entry] of this.pending) {
      if (entry.request.session !== session) continue;
      clearTimeout(entry.timer);
      this.pending.delete(requestId);
      this.events.done(session, requestId, 'session-closed');
    }
  }
}
