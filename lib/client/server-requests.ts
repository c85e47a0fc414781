/**
 * The queue of server→client requests waiting for the user (sampling, elicitation), as the proxy
 * reports them, plus a short memory of how recent ones ended; and the URL elicitations the server
 * reported complete.
 * Pure functions over immutable values.
 */
import { frameParams } from '../trace/trace.ts';
import type { ServerRequest, TraceEvent } from '../wire/wire.ts';

export type DoneHow = 'answered' | 'timed-out' | 'cancelled' | 'session-closed';

export interface FinishedRequest {
  request: ServerRequest;
  how: DoneHow;
  /** Whether this tab sent the answer. */
  answeredHere: boolean;
  at: number;
}

export interface RequestQueue {
  /** Oldest first. */
  pending: readonly ServerRequest[];
  /** Newest first, at most RECENT_CAP. */
  recent: readonly FinishedRequest[];
}

export const RECENT_CAP = 20;
export const EMPTY_QUEUE: RequestQueue = { pending: [], recent: [] };

const same = (a: { session: string; requestId: string }, b: { session: string; requestId: string }) => a.session === b.session && a.requestId === b.requestId;

export function receiveRequest(queue: RequestQueue, request: ServerRequest): RequestQueue {
  if (queue.pending.some((r) => same(r, request))) return queue;
  const pending = [...queue.pending, request].sort((a, b) => a.receivedAt - b.receivedAt);
  return { ...queue, pending };
}

/** Everything the proxy still waits on, after a (re)connect of the socket. */
export function replacePending(queue: RequestQueue, requests: readonly ServerRequest[]): RequestQueue {
  return { ...queue, pending: [...requests].sort((a, b) => a.receivedAt - b.receivedAt) };
}

export function finishRequest(queue: RequestQueue, done: { session: string; requestId: string; how: DoneHow }, answeredHere: boolean, at: number): RequestQueue {
  const request = queue.pending.find((r) => same(r, done));
  if (!request) return queue;
  const entry: FinishedRequest = { request, how: done.how, answeredHere, at };
  return { pending: queue.pending.filter((r) => r !== request), recent: [entry, ...queue.recent].slice(0, RECENT_CAP) };
}

/** What happened to a finished request, in words. */
export function describeFinish(entry: FinishedRequest): string {
  const waited = formatAge(entry.at - entry.request.receivedAt);
  switch (entry.how) {
    case 'answered':
      return entry.answeredHere ? `answered after ${waited}` : `answered in another tab after ${waited}`;
    case 'timed-out':
      return `nobody answered within ${formatAge(entry.request.deadline - entry.request.receivedAt)}: Loupe answered the server with an error`;
    case 'cancelled':
      return `the server cancelled it after ${waited}`;
    case 'session-closed':
      return `the session closed after ${waited}, before an answer`;
  }
}

/** `42 s`, `3 min 5 s`, `1 h 2 min` (never negative). */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export type RequestKind = 'sampling' | 'elicitation' | 'other';

export function requestKind(method: string): RequestKind {
  if (method === 'sampling/createMessage') return 'sampling';
  if (method === 'elicitation/create') return 'elicitation';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// What the trace says

/** `elicitationId`s the server reported complete (`notifications/elicitation/complete`). */
export function completedElicitations(events: readonly TraceEvent[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.kind !== 'frame' || event.dir !== 'in' || event.method !== 'notifications/elicitation/complete') continue;
    const params = frameParams(event);
    const id = params !== null && typeof params === 'object' ? (params as { elicitationId?: unknown }).elicitationId : undefined;
    if (typeof id === 'string') ids.add(id);
  }
  return ids;
}
