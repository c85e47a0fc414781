/**
 * A recorded trace read as a conversation (issue 10): the client's requests, each with the server's
 * answer and what the server said while it worked, in the order they were sent. Mock (answer from a
 * recording) and verify (replay a recording against a live server) both read traces this way.
 *
 * `out` frames are Loupe → server (the client's side), `in` frames server → Loupe.
 */
import { frameMessage } from './frame-message.ts';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';

type Id = string | number;

/** A frame of the trace with its JSON read once (frame-message.ts). */
export interface ReadFrame {
  seq: number;
  dir: 'out' | 'in';
  raw: string;
  /** The parsed message; undefined when the text is not a JSON object. */
  message?: Record<string, unknown>;
}

/** A notification or server→client request, as recorded. */
export interface RecordedMessage {
  seq: number;
  method: string;
  params?: unknown;
  id?: Id;
  raw: string;
}

export interface Exchange {
  /** Seq of the request frame. */
  seq: number;
  id: Id;
  method: string;
  params?: unknown;
  raw: string;
  /** The server's answer, when one was recorded (a request still pending at the end has none). */
  response?: { seq: number; raw: string } & ({ ok: true; result: unknown } | { ok: false; error: unknown });
  /**
   * What the server sent between this request and its answer (notifications such as progress and
   * logging, and its own requests such as sampling), in order.
   */
  during: RecordedMessage[];
}

export interface Conversation {
  /** The client's requests, in the order sent. */
  exchanges: Exchange[];
  /** Notifications the client sent (initialized, cancelled, roots/list_changed), in order. */
  clientNotifications: RecordedMessage[];
  /** Everything the server sent on its own (notifications and requests), in order, with the exchange it came during (if any). */
  serverMessages: (RecordedMessage & { during?: number })[];
  /** Frames that are not JSON objects (kept so that a reader can say what it skipped). */
  unreadable: ReadFrame[];
}

const isId = (value: unknown): value is Id => typeof value === 'string' || typeof value === 'number';

export function readFrame(frame: FrameEvent): ReadFrame {
  const message = frameMessage(frame);
  const object = message !== null && typeof message === 'object' && !Array.isArray(message) ? (message as Record<string, unknown>) : undefined;
  return { seq: frame.seq, dir: frame.dir, raw: frame.raw, message: object };
}

/** Pairs the client's requests with the server's answers (by id, per direction). Never throws. */
export function conversationOf(events: readonly TraceEvent[]): Conversation {
  const exchanges: Exchange[] = [];
  const clientNotifications: RecordedMessage[] = [];
  const serverMessages: (RecordedMessage & { during?: number })[] = [];
  const unreadable: ReadFrame[] = [];
  // Requests awaiting their answer, by id (ids are per direction: a server request may reuse one).
  const open = new Map<Id, Exchange>();
  for (const event of events) {
    if (event.kind !== 'frame') continue;
    const frame = readFrame(event);
    const message = frame.message;
    if (!message) {
      unreadable.push(frame);
      continue;
    }
    const method = typeof message.method === 'string' ? message.method : undefined;
    const id = isId(message.id) ? message.id : undefined;
    if (frame.dir === 'out') {
      if (method !== undefined && id !== undefined) {
        const exchange: Exchange = { seq: frame.seq, id, method, params: message.params, raw: frame.raw, during: [] };
        exchanges.push(exchange);
        open.set(id, exchange);
      } else if (method !== undefined) clientNotifications.push({ seq: frame.seq, method, params: message.params, raw: frame.raw });
      // An `out` frame without a method is the client's answer to a server request: not replayed.
      continue;
    }
    if (method !== undefined) {
      const recorded = { seq: frame.seq, method, params: message.params, id, raw: frame.raw };
      const current = [...open.values()].at(-1);
      current?.during.push(recorded);
      serverMessages.push({ ...recorded, during: current?.seq });
      continue;
    }
    const exchange = id !== undefined ? open.get(id) : undefined;
    if (!exchange) continue;
    open.delete(exchange.id);
    exchange.response = 'error' in message ? { seq: frame.seq, raw: frame.raw, ok: false, error: message.error } : { seq: frame.seq, raw: frame.raw, ok: true, result: message.result };
  }
  return { exchanges, clientNotifications, serverMessages, unreadable };
}

/**
 * JSON with object keys sorted, so that two values equal as data have the same text whatever the
 * order their keys were written in. Cycles cannot occur (values come from JSON.parse).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties: `out[key] =` would set the prototype for a key "__proto__".
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
}
