/**
 * The small facts a history view or a CLI report shows for each trace event: its row shape, kind
 * label, one-line summary, sizes and durations. Pairing requests with responses, latency and
 * violations are computed incrementally in trace-index.ts.
 */
import { frameMessage } from './frame-message.ts';
import type { Violation } from './violations.ts';
import type { FrameEvent, RequestId, TraceEvent } from '../wire/wire.ts';

/** `params` of a notification frame, or undefined when the frame is not a JSON object (parsed once per frame). */
export function frameParams(frame: FrameEvent): unknown {
  const parsed = frameMessage(frame);
  return parsed !== null && typeof parsed === 'object' ? (parsed as { params?: unknown }).params : undefined;
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
  // Filled in by the incremental trace index (trace-index.ts).
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
    case 'auth':
      return `OAuth ${event.step}: ${event.status === 'info' ? '' : `${event.status}: `}${event.message}`;
    case 'spec':
      return `#${event.of} breaks the ${event.version} schema (${event.schema}): ${event.issues.join('; ')}`;
    case 'intervention':
      return `${event.by === 'person' ? 'You' : event.rule ? `Rule “${event.rule.name}”` : 'Loupe'}: ${event.message}`;
    case 'provider':
      return `${event.provider === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible'} ${event.exchange === 'models' ? 'model list' : `call to ${event.model ?? 'a model'}`} → ${event.error ?? event.status ?? 'no response'}`;
    case 'spans':
      return `${event.spans.length === 1 ? '1 span' : `${event.spans.length} spans`} ${event.source === 'import' ? 'imported' : 'from the server'}${event.of !== undefined ? ` for #${event.of}` : ''}: ${[...new Set(event.spans.map((s) => s.name))].slice(0, 3).join(', ')}`;
  }
}
