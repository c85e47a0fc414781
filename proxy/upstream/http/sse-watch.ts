/**
 * The tap's copy of one SSE response stream: every message event is a frame in the trace, and the
 * stream's end is judged. A Streamable HTTP POST stream that ends (cut or closed) while requests
 * sent on it are still unanswered leaves those requests waiting forever in the SDK: it resumes only
 * when the server gave event ids (a "priming" event) and then by a GET with `Last-Event-ID`.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 */
import { createParser } from 'eventsource-parser';
import type { TraceRecorder } from '../../pipeline/trace-recorder.ts';

/** A response stream that ended with requests still waiting on it. */
export interface StreamDrop {
  url: string;
  /** Complete message events the stream delivered before it ended (a half-written one is not counted). */
  events: number;
  /** The last event id the server gave: the SDK resumes from it with a GET carrying `Last-Event-ID`. */
  lastEventId?: string;
}

export interface SseStreamContext {
  url: string;
  method: string;
  /** Legacy HTTP+SSE: the one GET stream carries every response of the session. */
  legacy: boolean;
  /** Ids of the JSON-RPC requests whose responses this stream should carry (POST streams). */
  requestIds: Set<string>;
  signal?: AbortSignal | null;
  /** Each message event's data, recorded as frames; returns the parsed messages. */
  recordFrames(text: string): unknown[];
  /** A legacy `endpoint` event: where the SDK will POST. */
  onEndpoint(data: string): void;
  /** The first message event arrived (the exchange has answered). */
  onFirstEvent(): void;
  /** The stream ended while something still waited on it. */
  onDrop(drop: StreamDrop): void;
}

export function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

/** Ids of the responses (not requests) among parsed messages. */
export function responseIds(messages: unknown[]): string[] {
  const ids: string[] = [];
  for (const m of messages) {
    const message = m as { id?: unknown; method?: unknown; result?: unknown; error?: unknown } | null;
    if (message && message.method === undefined && message.id !== undefined && (message.result !== undefined || message.error !== undefined)) ids.push(idKey(message.id));
  }
  return ids;
}

export function pluralEvents(count: number): string {
  return `${count} event${count === 1 ? '' : 's'}`;
}

export async function watchSse(stream: ReadableStream<Uint8Array>, trace: TraceRecorder, context: SseStreamContext): Promise<void> {
  const unanswered = new Set(context.requestIds);
  let events = 0;
  let lastEventId: string | undefined;
  const parser = createParser({
    onEvent(event) {
      if (event.id) lastEventId = event.id;
      if (event.event === 'endpoint') {
        trace.record({ kind: 'transport', level: 'info', message: `SSE endpoint: ${event.data}` });
        context.onEndpoint(event.data);
      } else if (event.data.length > 0) {
        if (events++ === 0) context.onFirstEvent();
        for (const id of responseIds(context.recordFrames(event.data))) unanswered.delete(id);
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  let ending = 'SSE stream closed';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    ending = `SSE stream ended: ${error instanceof Error ? error.message : String(error)}`;
  }
  // Loupe's own close aborts the stream: nothing was lost that anybody still waits for.
  if (context.signal?.aborted) return;
  const waiting = context.legacy || unanswered.size > 0;
  trace.record({ kind: 'transport', level: waiting ? 'warn' : 'info', message: `${ending} after ${pluralEvents(events)}` });
  if (waiting) context.onDrop({ url: context.url, events, lastEventId });
}
