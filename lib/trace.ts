/**
 * The trace model on top of the wire's trace events: request → response pairing and latency,
 * and the small facts a history view or a CLI report shows for each event.
 *
 * JSON-RPC ids are scoped per direction: our requests (`out`) are answered by `in` responses and
 * the server's requests (`in`, e.g. sampling/createMessage) by `out` responses. Ids are compared
 * with their type (`1` and `"1"` are different ids, JSON-RPC 2.0 §4).
 */
import type { Violation } from './trace-violations.ts';
import type { FrameEvent, RequestId, TraceEvent } from './wire.ts';

/** What pairing found out about one frame. */
export interface FrameLink {
  /** The request's method, also for responses (which carry none). */
  method?: string;
  /** `seq` of the partner frame: the response of a request, or the request of a response. */
  partnerSeq?: number;
  /** Response time minus request time, in milliseconds (on responses and on their requests). */
  latencyMs?: number;
  /** A response or error whose request was not seen (or already answered). */
  unmatched?: boolean;
  /** A request that has no response yet. */
  pending?: boolean;
}

function pairKey(session: string, requestDir: FrameEvent['dir'], id: RequestId): string {
  return `${session}\u0000${requestDir}\u0000${typeof id}\u0000${String(id)}`;
}

function opposite(dir: FrameEvent['dir']): FrameEvent['dir'] {
  return dir === 'out' ? 'in' : 'out';
}

/**
 * Pair requests with their responses. `result[i]` describes `frames[i]`; frames must be in trace
 * order. A repeated request id replaces the earlier pending request (the earlier one stays pending).
 */
export function pairFrames(frames: readonly FrameEvent[]): FrameLink[] {
  const links: FrameLink[] = frames.map((frame) => (frame.method === undefined ? {} : { method: frame.method }));
  const open = new Map<string, number>();
  frames.forEach((frame, index) => {
    if (frame.id === undefined) {
      if (frame.rpc === 'response' || frame.rpc === 'error') links[index].unmatched = true;
      return;
    }
    if (frame.rpc === 'request') {
      links[index].pending = true;
      open.set(pairKey(frame.session, frame.dir, frame.id), index);
      return;
    }
    if (frame.rpc !== 'response' && frame.rpc !== 'error') return;
    const key = pairKey(frame.session, opposite(frame.dir), frame.id);
    const requestIndex = open.get(key);
    if (requestIndex === undefined) {
      links[index].unmatched = true;
      return;
    }
    open.delete(key);
    link(frames[requestIndex], links[requestIndex], frame, links[index]);
  });
  return links;
}

function link(request: FrameEvent, requestLink: FrameLink, response: FrameEvent, responseLink: FrameLink): void {
  const latencyMs = Math.max(0, response.ts - request.ts);
  delete requestLink.pending;
  requestLink.partnerSeq = response.seq;
  requestLink.latencyMs = latencyMs;
  responseLink.partnerSeq = request.seq;
  responseLink.latencyMs = latencyMs;
  if (responseLink.method === undefined && request.method !== undefined) responseLink.method = request.method;
}

/** The trace events that are JSON-RPC frames, in order. */
export function framesOf(events: readonly TraceEvent[]): FrameEvent[] {
  return events.filter((event): event is FrameEvent => event.kind === 'frame');
}

/** Incoming notifications (server → Loupe), newest first. */
export function incomingNotifications(events: readonly TraceEvent[]): FrameEvent[] {
  const found: FrameEvent[] = [];
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i];
    if (event.kind === 'frame' && event.dir === 'in' && event.rpc === 'notification') found.push(event);
  }
  return found;
}

/** A frame's raw text, pretty-printed when it is JSON. */
export function prettyRaw(raw: string): { json: boolean; text: string } {
  try {
    return { json: true, text: JSON.stringify(JSON.parse(raw), null, 2) };
  } catch {
    return { json: false, text: raw };
  }
}

/** `params` of a notification frame, or undefined when the frame is not a JSON object. */
export function frameParams(frame: FrameEvent): unknown {
  try {
    const parsed: unknown = JSON.parse(frame.raw);
    return parsed !== null && typeof parsed === 'object' ? (parsed as { params?: unknown }).params : undefined;
  } catch {
    return undefined;
  }
}

/** Human label of an event's kind: the RPC kind for frames, `stdout noise` for noise lines. */
export function eventKindLabel(event: TraceEvent): string {
  switch (event.kind) {
    case 'frame':
      return event.rpc;
    case 'noise':
      return 'stdout noise';
    default:
      return event.kind;
  }
}

/** A byte count in B / KiB / MiB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** A duration with a precision that suits its size. */
export function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** One line of a history view: a frame, a stdout noise line, or a transport/exit/http event. */
export interface HistoryRow {
  seq: number;
  ts: number;
  dir?: FrameEvent['dir'];
  /** `request`, `response`, `error`, `notification`, `invalid`, `stdout noise`, `exit`, `http`, `transport`. */
  kind: string;
  method?: string;
  id?: RequestId;
  size?: number;
  latencyMs?: number;
  /** For events that are not frames: what happened, in one line. */
  summary?: string;
  pending?: boolean;
  unmatched?: boolean;
  partnerSeq?: number;
  event: TraceEvent;
  // Filled in by the incremental trace index (trace-index.ts); historyRows() leaves them out.
  /** The paired frame itself (request ↔ response). */
  partner?: HistoryRow;
  /** Set on frames the user sent by hand (replay, edited replay, raw composer). */
  origin?: FrameEvent['origin'];
  violations?: Violation[];
  /** A request its sender cancelled (`notifications/cancelled`). */
  cancelled?: boolean;
  /** A request whose connection was replaced (a new `initialize`) before it was answered. */
  unanswered?: boolean;
  /** Something went wrong here: an error response, a tool result with isError, HTTP ≥ 400, a transport error, a non-zero exit. */
  isError?: boolean;
  /** The `Mcp-Session-Id` of an HTTP exchange. */
  httpSessionId?: string;
}

/** One line describing an event that is not a frame. */
export function summarise(event: Exclude<TraceEvent, FrameEvent>): string {
  switch (event.kind) {
    case 'noise':
    case 'stderr':
      return event.text;
    case 'exit':
      return event.signal ? `exited on signal ${event.signal}` : `exited with code ${event.code ?? 'unknown'}`;
    case 'http':
      return `${event.method} ${event.url} → ${event.status ?? event.error ?? 'no response'}`;
    case 'transport':
      return `${event.level}: ${event.message}`;
  }
}

/** Trace events → history rows in order; stderr is left out (it has its own stream). */
export function historyRows(events: readonly TraceEvent[]): HistoryRow[] {
  const frames = framesOf(events);
  const links = pairFrames(frames);
  const linkOf = new Map<FrameEvent, FrameLink>(frames.map((frame, i) => [frame, links[i]]));
  const rows: HistoryRow[] = [];
  for (const event of events) {
    const base = { seq: event.seq, ts: event.ts, kind: eventKindLabel(event), event };
    if (event.kind === 'frame') {
      const link = linkOf.get(event) ?? {};
      rows.push({ ...base, dir: event.dir, method: link.method, id: event.id, size: event.size, latencyMs: link.latencyMs, pending: link.pending, unmatched: link.unmatched, partnerSeq: link.partnerSeq });
    } else if (event.kind !== 'stderr') {
      const extra = event.kind === 'http' ? { latencyMs: event.durationMs, size: event.bodySize } : event.kind === 'noise' ? { dir: 'in' as const, size: event.text.length } : {};
      rows.push({ ...base, ...extra, summary: summarise(event) });
    }
  }
  return rows;
}

/** The server's stderr as one text, keeping the last `maxChars` characters. */
export function stderrText(events: readonly TraceEvent[], maxChars: number): { text: string; trimmed: number } {
  const chunks: string[] = [];
  let length = 0;
  for (let i = events.length - 1; i >= 0 && length < maxChars; i -= 1) {
    const event = events[i];
    if (event.kind !== 'stderr') continue;
    chunks.push(event.text);
    length += event.text.length;
  }
  const all = chunks.reverse().join('');
  const total = events.reduce((n, e) => n + (e.kind === 'stderr' ? e.text.length : 0), 0);
  const text = all.length > maxChars ? all.slice(all.length - maxChars) : all;
  return { text, trimmed: total - text.length };
}
