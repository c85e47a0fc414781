/**
 * Where one request of the page is in its session's trace (issue 27): its request frame, its
 * answer, the notifications that came while it ran, and the rule that refused it, found by the
 * JSON-RPC id it went out with (the response envelope's `rpcId`). What a test asserts on beside the
 * result (`notification`, `refusedByRule`) and what its `Show in History` selects.
 */
import { frameMessage } from '../../lib/trace/frame-message.ts';
import type { FrameEvent, InterventionEvent, RequestId, TraceEvent } from '../../lib/wire/wire.ts';

export interface RequestFrames {
  request?: FrameEvent;
  /** The answer (a response or an error frame). */
  response?: FrameEvent;
  /** Notifications from the server between the request and its answer: in flight with it, or naming its progress token. */
  notifications: { method: string; params?: unknown }[];
  /** The rule that answered or dropped the request in the server's place. */
  refusal?: InterventionEvent;
}

/** How far back from the newest event a request is looked for. */
export const LOOK_BACK = 5_000;

const fromServer = (e: TraceEvent): e is FrameEvent => e.kind === 'frame' && e.dir === 'in' && e.view === undefined;

function idOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

/** A rule answered or dropped the request sent with `rpcId`, in the server's place. */
function isRefusalOf(e: TraceEvent, rpcId: RequestId): e is InterventionEvent {
  return e.kind === 'intervention' && e.dir === 'out' && e.by === 'rule' && (e.action === 'answered' || e.action === 'dropped') && idOf(e.original) === rpcId;
}

function progressTokenOf(message: unknown): unknown {
  const params = (message as { params?: { _meta?: { progressToken?: unknown }; progressToken?: unknown } } | undefined)?.params;
  return params?._meta?.progressToken ?? params?.progressToken;
}

/** The index of the event numbered `seq` in `events` (in seq order), or -1. */
function indexOfSeq(events: readonly TraceEvent[], seq: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return events[lo]?.seq === seq ? lo : -1;
}

/**
 * The request sent with `rpcId` (the newest such, or the one numbered `requestSeq`: a History row's),
 * and what followed it, in `events` (oldest first).
 */
export function requestFrames(events: readonly TraceEvent[], rpcId: RequestId, requestSeq?: number): RequestFrames {
  let at = requestSeq === undefined ? -1 : indexOfSeq(events, requestSeq);
  let refusal: InterventionEvent | undefined;
  for (let i = events.length - 1; requestSeq === undefined && i >= Math.max(0, events.length - LOOK_BACK); i -= 1) {
    const e = events[i];
    if (e.kind === 'frame' && e.dir === 'out' && e.rpc === 'request' && e.id === rpcId && e.view === undefined) {
      at = i;
      break;
    }
    // A rule that answers or drops a request may keep it from being a frame on the wire at all.
    if (isRefusalOf(e, rpcId)) {
      refusal = e;
      at = i;
    }
  }
  if (at < 0) return { notifications: [] };
  const request = events[at].kind === 'frame' ? (events[at] as FrameEvent) : undefined;
  const token = request ? progressTokenOf(frameMessage(request)) : undefined;
  const out: RequestFrames = { request, notifications: [], refusal };
  for (let i = at + 1; i < events.length; i += 1) {
    const e = events[i];
    if (!out.refusal && isRefusalOf(e, rpcId)) out.refusal = e;
    if (!fromServer(e)) continue;
    if ((e.rpc === 'response' || e.rpc === 'error') && e.id === rpcId) {
      out.response = e;
      break;
    }
    if (e.rpc !== 'notification') continue;
    const message = frameMessage(e) as { method?: unknown; params?: unknown } | undefined;
    if (typeof message?.method !== 'string') continue;
    const theirs = progressTokenOf(message);
    // Progress for another request is not this one's; anything else in flight is.
    if (theirs !== undefined && token !== undefined && theirs !== token) continue;
    out.notifications.push(message.params === undefined ? { method: message.method } : { method: message.method, params: message.params });
  }
  return out;
}
