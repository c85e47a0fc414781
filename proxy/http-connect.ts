/**
 * Opens a remote session: Streamable HTTP first, then legacy SSE where the server answers the
 * first POST with a 4xx (the backwards-compatibility rule of the spec:
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpConfig } from '../lib/server-config-types.ts';
import type { LoupeError } from '../lib/wire.ts';
import { createHttpTap, type HttpFailure } from './http-tap.ts';
import type { TraceRecorder } from './trace-recorder.ts';

type Initialize = (transport: Transport) => Promise<{ ok: true } | { ok: false; error: LoupeError }>;

export type HttpAttempt =
  | { ok: true; transport: 'http' | 'sse'; protocolVersion?: string }
  | { ok: false; error: LoupeError; failure?: HttpFailure };

/** Remembers the protocol version the SDK negotiates (it tells the transport, not the caller). */
function captureProtocolVersion(transport: Transport): () => string | undefined {
  let version: string | undefined;
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (value: string) => {
    version = value;
    original?.(value);
  };
  return () => version;
}

async function attempt(kind: 'http' | 'sse', config: HttpConfig, trace: TraceRecorder, initialize: Initialize): Promise<HttpAttempt> {
  const tap = createHttpTap(trace);
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  const transport =
    kind === 'http'
      ? new StreamableHTTPClientTransport(url, { fetch: tap.fetch, requestInit })
      : new SSEClientTransport(url, { fetch: tap.fetch, requestInit, eventSourceInit: { fetch: tap.fetch } });
  const version = captureProtocolVersion(transport);
  const outcome = await initialize(transport);
  if (outcome.ok) return { ok: true, transport: kind, protocolVersion: version() };
  await transport.close().catch(() => undefined);
  return { ok: false, error: outcome.error, failure: tap.lastFailure() };
}

function shouldFallBack(result: HttpAttempt): boolean {
  if (result.ok) return false;
  const status = result.failure?.status;
  return status !== undefined && status >= 400 && status < 500;
}

export async function openHttpTransport(config: HttpConfig, trace: TraceRecorder, initialize: Initialize): Promise<HttpAttempt> {
  if (config.transport === 'sse') return attempt('sse', config, trace, initialize);
  const first = await attempt('http', config, trace, initialize);
  if (config.transport === 'http' || !shouldFallBack(first)) return first;
  trace.record({ kind: 'transport', level: 'warn', message: `Streamable HTTP POST answered ${first.ok ? '' : first.failure?.status}; trying legacy SSE` });
  const second = await attempt('sse', config, trace, initialize);
  // When SSE fails too, the first failure usually says more (it is what the user asked for).
  return second.ok ? second : first;
}

/** Turns a failed attempt into plain words: status, content type, start of the body, a hint. */
export function describeHttpFailure(url: string, attempt: Extract<HttpAttempt, { ok: false }>): LoupeError {
  const failure = attempt.failure;
  if (failure?.networkError) {
    return {
      code: 'UNREACHABLE',
      message: `Could not reach ${url}: ${failure.networkError}.`,
      hint: 'Is the server running, and on this port?',
      detail: { url },
    };
  }
  if (failure?.status !== undefined) {
    const isHtml = failure.contentType?.includes('html') ?? false;
    const notMcp = isHtml || failure.status === 404 || failure.status === 405 || (failure.status < 400 && !failure.contentType?.includes('json'));
    return {
      code: notMcp ? 'NOT_MCP' : 'HTTP_ERROR',
      message: notMcp
        ? `${url} does not look like an MCP endpoint: HTTP ${failure.status}${failure.contentType ? ` (${failure.contentType})` : ''}.`
        : `The server answered HTTP ${failure.status}${failure.contentType ? ` (${failure.contentType})` : ''}.`,
      hint: notMcp
        ? 'Check the path: Streamable HTTP servers usually answer at /mcp, legacy SSE servers at /sse.'
        : failure.status === 401 || failure.status === 403
          ? 'The server wants credentials: pass them with --header "Authorization: Bearer …".'
          : undefined,
      detail: { url: failure.url, httpStatus: failure.status, contentType: failure.contentType, bodyStart: failure.bodyStart },
    };
  }
  return attempt.error;
}

