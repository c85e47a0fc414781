/**
 * The tap for remote servers: a `fetch` given to the SDK's Streamable HTTP and SSE transports that
 * records every HTTP exchange (method, status, headers with secrets masked, timing, size) and every
 * JSON-RPC frame in the bodies, from the bytes on the wire, before the SDK parses them.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { classifyMessage } from '../../../lib/trace/frame-classify.ts';
import { isSecretHeader, maskCredential, scrubberFor } from '../../../lib/trace/secret-mask.ts';
import type { TraceRecorder } from '../../pipeline/trace-recorder.ts';
import { now } from '../../pipeline/trace-recorder.ts';
import { idKey, watchSse, type StreamDrop } from './sse-watch.ts';

const BODY_START_CHARS = 600;

/** What the last failed exchange looked like, for a plain-words error. */
export interface HttpFailure {
  url: string;
  status?: number;
  contentType?: string;
  bodyStart?: string;
  networkError?: string;
  /** The challenge of a 401/403, for the discovery probe (RFC 9728 section 5.1). */
  wwwAuthenticate?: string;
}

/** A POST that had not been answered when Loupe gave up on it (or still has not). */
export interface WaitingExchange {
  method: string;
  url: string;
  /** Whole seconds it had waited. */
  seconds: number;
  /** `no-headers`: the request went out, no status line came back; `no-body`: headers came, the body did not. */
  stage: 'no-headers' | 'no-body';
  status?: number;
  contentType?: string;
}

/** What initialize said about protocol versions (basic/lifecycle#version-negotiation). */
export interface VersionFacts {
  requested?: string;
  /** The version in the server's initialize result. */
  answered?: string;
  /** The versions an initialize error listed in `data.supported`. */
  supported?: string[];
}

/** What the tap tells the session about (issue 8). */
export interface TapHooks {
  /**
   * A request carrying `Mcp-Session-Id` was answered 404: the server ended the session
   * (basic/transports#session-management). `answered` counts the requests this transport got
   * answers to. Returns the sentence the request fails with, or undefined to pass the 404 on.
   */
  onSessionEnded?(answered: number): string | undefined;
  /** A response stream ended with requests still waiting on it, and nothing resumes it. */
  onStreamDropped?(drop: StreamDrop): void;
}

export interface HttpTap {
  fetch: FetchLike;
  /** The URL is the MCP endpoint (or a legacy SSE server's POST endpoint), not a request beside it such as OAuth's. */
  isServerEndpoint(url: string): boolean;
  lastFailure(): HttpFailure | undefined;
  /** The oldest POST still waiting for its answer, or the first one Loupe's own abort gave up on. */
  waiting(): WaitingExchange | undefined;
  versions(): VersionFacts;
  /** The `endpoint` event of a legacy SSE stream, as the server wrote it. */
  sseEndpoint(): string | undefined;
  /**
   * Sets `headers` on the one POST whose body is exactly `body`, over the transport's own (the raw
   * composer's `HTTP headers`, issue 12: what does the server do with a wrong `Mcp-Method`?).
   */
  headersForBody(body: string, headers: Record<string, string>): void;
  /**
   * Posts `replacement` instead of the one body that is exactly `body` (issue 13: a rule's
   * corrupted or truncated frame, a person's edit, sent as written though the SDK sends JSON).
   */
  bodyForBody(body: string, replacement: string): void;
}

export type { StreamDrop };

/** Names lower-cased, credentials masked by the one rule (lib/trace/secret-mask.ts), OAuth secrets in a `Location` masked. */
export function maskHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) out[name.toLowerCase()] = isSecretHeader(name) ? maskCredential(value, 'masked') : name.toLowerCase() === 'location' ? maskUrlSecrets(value) : value;
  return out;
}

/** Query parameters that carry OAuth secrets (an authorization server's redirect back carries the code). */
const SECRET_PARAMS = /^(code|access_token|refresh_token|id_token|client_secret|code_verifier|token)$/i;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A URL with the values of its secret query parameters masked (issue 11: the code never reaches the trace). */
export function maskUrlSecrets(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const [path, rest] = [url.slice(0, query), url.slice(query + 1)];
  const hash = rest.indexOf('#');
  const params = hash < 0 ? rest : rest.slice(0, hash);
  const masked = params
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && SECRET_PARAMS.test(safeDecode(name)) ? `${name}=${encodeURIComponent(maskCredential(safeDecode(pair.slice(eq + 1)), 'masked'))}` : pair;
    })
    .join('&');
  return `${path}?${masked}${hash < 0 ? '' : rest.slice(hash)}`;
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

interface Open {
  method: string;
  url: string;
  since: number;
  until?: number;
  status?: number;
  contentType?: string;
}

/** Keeps the POSTs in flight, so a silence can be told from a refusal. */
class Waiting {
  private readonly open = new Set<Open>();
  private abandoned?: Open;

  start(method: string, url: string): Open {
    const entry: Open = { method, url, since: Date.now() };
    if (method === 'POST') this.open.add(entry);
    return entry;
  }

  done(entry: Open, aborted = false): void {
    if (!this.open.delete(entry)) return;
    if (aborted && !this.abandoned) this.abandoned = { ...entry, until: Date.now() };
  }

  oldest(): WaitingExchange | undefined {
    // The one abandoned first, if it began earlier than what is still open (the notifications/cancelled
    // the SDK posts after giving up must not stand for the request that was never answered).
    const open: Open | undefined = this.open.values().next().value;
    const entry = open && this.abandoned ? (this.abandoned.since <= open.since ? this.abandoned : open) : (open ?? this.abandoned);
    if (!entry) return undefined;
    const seconds = Math.round(((entry.until ?? Date.now()) - entry.since) / 1000);
    return { method: entry.method, url: entry.url, seconds, stage: entry.status === undefined ? 'no-headers' : 'no-body', status: entry.status, contentType: entry.contentType };
  }
}

function requestIdsOf(messages: unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    const message = m as { id?: unknown; method?: unknown } | null;
    if (message && typeof message.method === 'string' && message.id !== undefined) ids.add(idKey(message.id));
  }
  return ids;
}

function isAbort(error: unknown, init: RequestInit | undefined): boolean {
  return init?.signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/** Origin and path of a URL (a legacy SSE endpoint carries its session in the query). */
function endpointOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * `mcpUrl`: the server's URL. Only the bodies of requests to it (and to a legacy SSE server's POST
 * endpoint) are recorded as frames: the requests beside it (OAuth discovery, registration, the
 * token endpoint, issue 11) are recorded as HTTP exchanges without their bodies, which carry
 * tokens and secrets. Without `mcpUrl` every JSON body is a frame.
 */
export function createHttpTap(trace: TraceRecorder, kind: 'http' | 'sse' = 'http', hooks: TapHooks = {}, mcpUrl?: string): HttpTap {
  let failure: HttpFailure | undefined;
  let endpoint: string | undefined;
  const mcpEndpoint = mcpUrl === undefined ? undefined : endpointOf(mcpUrl);
  const carriesFrames = (url: string): boolean => {
    if (mcpEndpoint === undefined) return true;
    const at = endpointOf(url);
    if (at === mcpEndpoint) return true;
    if (endpoint === undefined) return false;
    return at === endpointOf(new URL(endpoint, mcpUrl).href);
  };
  let answered = 0;
  let resumeFrom: StreamDrop | undefined;
  const waiting = new Waiting();
  const versions: VersionFacts = {};
  let initializeId: string | undefined;

  const noticeVersions = (messages: unknown[], dir: 'in' | 'out'): void => {
    for (const m of messages) {
      const message = m as { id?: unknown; method?: unknown; params?: { protocolVersion?: unknown }; result?: { protocolVersion?: unknown }; error?: { data?: { supported?: unknown; requested?: unknown } } } | null;
      if (!message) continue;
      if (dir === 'out' && message.method === 'initialize') {
        initializeId = idKey(message.id);
        if (typeof message.params?.protocolVersion === 'string') versions.requested = message.params.protocolVersion;
      } else if (dir === 'in' && message.method === undefined && initializeId !== undefined && idKey(message.id) === initializeId) {
        if (typeof message.result?.protocolVersion === 'string') versions.answered = message.result.protocolVersion;
        const supported = message.error?.data?.supported;
        if (Array.isArray(supported)) versions.supported = supported.map(String);
      }
    }
  };

  const recordFrames = (text: string, dir: 'in' | 'out'): unknown[] => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      trace.record({ kind: 'frame', dir, raw: text, size: text.length, rpc: 'invalid' });
      return [];
    }
    // A JSON array is a JSON-RPC batch (2025-03-26); each element is its own frame.
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    for (const message of messages) {
      const raw = messages.length === 1 ? text : JSON.stringify(message);
      trace.record({ kind: 'frame', dir, raw, size: raw.length, ...classifyMessage(message) });
    }
    noticeVersions(messages, dir);
    return messages;
  };

  const dropped = (drop: StreamDrop): void => {
    if (drop.lastEventId === undefined) {
      hooks.onStreamDropped?.(drop);
      return;
    }
    // The SDK resumes a stream that gave event ids with GET + Last-Event-ID; judged when that GET answers.
    resumeFrom = drop;
    trace.record({ kind: 'transport', level: 'info', message: `Resuming the event stream from Last-Event-ID ${drop.lastEventId}` });
  };

  /** A resume that fails leaves the waiting requests with nobody to answer them. */
  const judgeResume = (requestHeaders: Record<string, string>, ok: boolean): void => {
    if (!resumeFrom || requestHeaders['last-event-id'] === undefined) return;
    const drop = resumeFrom;
    resumeFrom = undefined;
    if (!ok) hooks.onStreamDropped?.(drop);
  };

  const extraHeaders = new Map<string, Record<string, string>>();

  const replacedBodies = new Map<string, string>();

  const tapFetch: FetchLike = async (input, givenInit) => {
    let init = givenInit;
    const extra = extraHeaders.size > 0 && typeof init?.body === 'string' ? extraHeaders.get(init.body) : undefined;
    if (extra && init) {
      extraHeaders.delete(init.body as string);
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(extra)) headers.set(name, value);
      init = { ...init, headers };
    }
    const replaced = replacedBodies.size > 0 && typeof init?.body === 'string' ? replacedBodies.get(init.body) : undefined;
    if (replaced !== undefined && init) {
      replacedBodies.delete(init.body as string);
      init = { ...init, body: replaced };
    }
    const url = String(input);
    const method = init?.method ?? 'GET';
    const requestHeaders = maskHeaders(new Headers(init?.headers));
    const started = now();
    const framed = carriesFrames(url);
    const sent = framed && typeof init?.body === 'string' ? recordFrames(init.body, 'out') : [];
    const exchange = waiting.start(method, url);
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      const aborted = isAbort(error, init);
      waiting.done(exchange, aborted);
      const networkError = aborted ? 'aborted by Loupe' : describeNetworkError(error);
      // Loupe's own abort (a timeout, a close) is not the server's failure: keep the last real one.
      if (!aborted && framed) failure = { url, networkError };
      trace.record({ kind: 'http', method, url: maskUrlSecrets(url), requestHeaders, durationMs: now() - started, error: networkError });
      judgeResume(requestHeaders, false);
      throw error;
    }
    exchange.status = response.status;
    const contentType = response.headers.get('content-type') ?? undefined;
    exchange.contentType = contentType;
    const base = { kind: 'http' as const, method, url: maskUrlSecrets(url), status: response.status, contentType, requestHeaders, responseHeaders: maskHeaders(response.headers) };
    const isSse = contentType?.includes('text/event-stream') ?? false;
    const isJson = contentType?.includes('json') ?? false;

    if (response.ok && isSse && response.body) {
      const [forSdk, forTap] = response.body.tee();
      trace.record({ ...base, durationMs: now() - started });
      judgeResume(requestHeaders, true);
      if (requestHeaders['mcp-session-id'] !== undefined && requestIdsOf(sent).size > 0) answered++;
      void watchSse(forTap, trace, {
        url,
        method,
        legacy: kind === 'sse' && method === 'GET',
        requestIds: requestIdsOf(sent),
        signal: init?.signal,
        recordFrames: (text) => recordFrames(text, 'in'),
        onEndpoint: (data) => (endpoint = data),
        onFirstEvent: () => waiting.done(exchange),
        onDrop: dropped,
      }).finally(() => waiting.done(exchange));
      return new Response(forSdk, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    let text: string;
    try {
      text = response.body ? await response.text() : '';
    } finally {
      waiting.done(exchange, init?.signal?.aborted === true);
    }
    trace.record({ ...base, durationMs: now() - started, bodySize: text.length });
    // After the record: a failed resume ends the session, which aborts what is still being read.
    judgeResume(requestHeaders, false);
    if (framed && isJson && text.length > 0 && (response.ok || text.trimStart().startsWith('{'))) recordFrames(text, 'in');
    // The requests beside the server (OAuth) do not replace its own failure: that is what the user asked about.
    if (framed && (!response.ok || (text.length > 0 && !isJson))) {
      // The start of the body goes into the error the page is shown: a refusal may quote the key it refused.
      const bodyStart = scrubberFor(trace.secretValues, 'masked')(text.slice(0, BODY_START_CHARS));
      failure = { url, status: response.status, contentType, bodyStart, wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined };
    }
    if (response.ok && requestHeaders['mcp-session-id'] !== undefined && requestIdsOf(sent).size > 0) answered++;
    if (response.status === 404 && requestHeaders['mcp-session-id'] !== undefined) {
      const sentence = hooks.onSessionEnded?.(answered);
      if (sentence !== undefined) throw new Error(sentence);
    }
    return new Response(response.status === 204 || response.status === 304 ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return {
    fetch: tapFetch,
    isServerEndpoint: carriesFrames,
    lastFailure: () => failure,
    waiting: () => waiting.oldest(),
    versions: () => ({ ...versions }),
    sseEndpoint: () => endpoint,
    headersForBody: (body, headers) => void extraHeaders.set(body, headers),
    bodyForBody: (body, replacement) => void replacedBodies.set(body, replacement),
  };
}
