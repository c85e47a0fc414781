/**
 * Server-sent events from a model provider's streamed reply, read incrementally: body chunks (bytes
 * or text, split anywhere, even inside a UTF-8 character) in, whole events out.
 *
 * The line rules (\r\n, \r, multi-line `data:`, `:` comments, `event:` names) are eventsource-parser's,
 * a dependency of the package and of the MCP SDK, which proxy/upstream/http/sse-watch.ts uses too; this module
 * adds what a provider stream needs on top: byte decoding, a cap on what may be buffered, the last
 * event when a stream ends without its blank line, and the lines that were not SSE at all (a provider
 * that answers a stream request with a JSON error body says why in them).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  /** The `event:` name, when the server sent one. */
  event?: string;
  data: string;
}

export interface SseReader {
  push(chunk: string | Uint8Array): SseEvent[];
  /** Ends the stream: the event still open, if any, is delivered. */
  end(): SseEvent[];
  /** Lines that were not SSE fields, the first few (a provider's error body, an HTML page). */
  readonly stray: readonly string[];
  /** Set when the stream buffered more than the cap without finishing an event. */
  readonly overflow: boolean;
}

/** Four megabytes: far above any one event a model sends, far below what would hurt the proxy. */
export const SSE_BUFFER_LIMIT = 4 * 1024 * 1024;
const STRAY_KEPT = 20;

export function createSseReader(maxBufferSize = SSE_BUFFER_LIMIT): SseReader {
  const decoder = new TextDecoder();
  let out: SseEvent[] = [];
  const stray: string[] = [];
  let overflow = false;
  const parser = createParser({
    maxBufferSize,
    onEvent: (message: EventSourceMessage) => out.push(message.event === undefined ? { data: message.data } : { event: message.event, data: message.data }),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
      else if (error.type === 'unknown-field' && stray.length < STRAY_KEPT) stray.push(error.line ?? error.field ?? '');
    },
  });
  const feed = (text: string): SseEvent[] => {
    if (!overflow && text !== '') parser.feed(text);
    const events = out;
    out = [];
    return events;
  };
  return {
    push: (chunk) => feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })),
    // The blank lines end an event left open by a stream that stopped without its terminator.
    end: () => feed(`${decoder.decode()}\n\n`),
    stray,
    get overflow() {
      return overflow;
    },
  };
}
