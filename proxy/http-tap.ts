/**
 * The tap for remote servers: a `fetch` given to the SDK's Streamable HTTP and SSE transports that
 * records every HTTP exchange (method, status, headers with secrets masked, timing, size) and every
 * JSON-RPC frame in the bodies, from the bytes on the wire, before the SDK parses them.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import { createParser } from 'eventsource-parser';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { classifyMessage } from '../lib/frame-classify.ts';
import type { TraceRecorder } from './trace-recorder.ts';
import { now } from './trace-recorder.ts';

const BODY_START_CHARS = 600;

/** What the last failed exchange looked like, for a plain-words error. */
export interface HttpFailure {
  url: string;
  status?: number;
  contentType?: string;
  bodyStart?: string;
  networkError?: string;
}

export interface HttpTap {
  fetch: FetchLike;
  lastFailure(): HttpFailure | undefined;
}

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$|token|secret|password/i;

export function maskHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) out[name.toLowerCase()] = SECRET_HEADER.test(name) ? maskValue(value) : value;
  return out;
}

function maskValue(value: string): string {
  const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
  return `${scheme}•••• (${value.length - scheme.length} chars, masked)`;
}

/** Node's fetch reports "fetch failed" with the real reason in `cause`. */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET') return 'connection reset';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connection timed out';
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

export function createHttpTap(trace: TraceRecorder): HttpTap {
  let failure: HttpFailure | undefined;

  const recordFrames = (text: string, dir: 'in' | 'out'): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      trace.record({ kind: 'frame', dir, raw: text, size: text.length, rpc: 'invalid' });
      return;
    }
    // A JSON array is a JSON-RPC batch (2025-03-26); each element is its own frame.
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    for (const message of messages) {
      const raw = messages.length === 1 ? text : JSON.stringify(message);
      trace.record({ kind: 'frame', dir, raw, size: raw.length, ...classifyMessage(message) });
    }
  };

  const tapFetch: FetchLike = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const requestHeaders = maskHeaders(new Headers(init?.headers));
    const started = now();
    if (typeof init?.body === 'string') recordFrames(init.body, 'out');
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      const networkError = describeNetworkError(error);
      failure = { url, networkError };
      trace.record({ kind: 'http', method, url, requestHeaders, durationMs: now() - started, error: networkError });
      throw error;
    }
    const contentType = response.headers.get('content-type') ?? undefined;
    const base = { kind: 'http' as const, method, url, status: response.status, contentType, requestHeaders, responseHeaders: maskHeaders(response.headers) };
    const isSse = contentType?.includes('text/event-stream') ?? false;
    const isJson = contentType?.includes('json') ?? false;

    if (response.ok && isSse && response.body) {
      const [forSdk, forTap] = response.body.tee();
      trace.record({ ...base, durationMs: now() - started });
      void readSse(forTap, trace, recordFrames);
      return new Response(forSdk, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    const text = response.body ? await response.text() : '';
    trace.record({ ...base, durationMs: now() - started, bodySize: text.length });
    if (response.ok && isJson && text.length > 0) recordFrames(text, 'in');
    else if (!response.ok || (text.length > 0 && !isJson)) {
      failure = { url, status: response.status, contentType, bodyStart: text.slice(0, BODY_START_CHARS) };
    }
    return new Response(response.status === 204 || response.status === 304 ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return { fetch: tapFetch, lastFailure: () => failure };
}

/** Reads the tap's copy of an SSE stream; each `data` of a message event is a frame. */
async function readSse(stream: ReadableStream<Uint8Array>, trace: TraceRecorder, recordFrames: (text: string, dir: 'in') => void): Promise<void> {
  const parser = createParser({
    onEvent(event) {
      if (event.event === 'endpoint') {
        trace.record({ kind: 'transport', level: 'info', message: `SSE endpoint: ${event.data}` });
      } else if (event.data.length > 0) {
        recordFrames(event.data, 'in');
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    trace.record({ kind: 'transport', level: 'info', message: 'SSE stream closed' });
  } catch (error) {
    trace.record({ kind: 'transport', level: 'warn', message: `SSE stream ended: ${error instanceof Error ? error.message : String(error)}` });
  }
}
