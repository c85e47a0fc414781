/**
 * The tap for remote servers: a `fetch` given to the SDK's Streamable HTTP and SSE transports that
 * records every HTTP exchange (method, status, headers with secrets masked, timing, size) and every
 * JSON-RPC frame in the bodies, from the bytes on the wire, before the SDK parses them.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isSecretHeader, maskCredential, scrubberFor } from '../../../lib/trace/secret-mask.ts';
import type { TraceRecorder } from '../../pipeline/trace-recorder.ts';
import { recordFrame } from '../../pipeline/frame-record.ts';
import { now } from '../../pipeline/trace-recorder.ts';
import type { HttpEvent } from '../../../lib/wire/wire.ts';
import { idKey, watchSse, type StreamDrop } from './sse-watch.ts';
import { Waiting, type Open, type WaitingExchange } from './waiting.ts';

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

export type { StreamDrop, WaitingExchange };

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

/** One request as it went out: what reading its answer needs of it. */
interface Outgoing {
  url: string;
  method: string;
  init: RequestInit | undefined;
  requestHeaders: Record<string, string>;
  started: number;
  /** Its bodies are recorded as frames (see `carriesFrames`). */
  framed: boolean;
  /** The messages its body carried. */
  sent: unknown[];
  exchange: Open;
}

/** What the trace records of an answered exchange, before its timing and size are known. */
type AnsweredRecord = Omit<HttpEvent, 'session' | 'seq' | 'ts' | 'durationMs' | 'bodySize' | 'error'>;

/** One transport's tap: what it has seen on the wire, and the `fetch` that sees it. */
class Tap {
  failure: HttpFailure | undefined;
  endpoint: string | undefined;
  readonly waiting = new Waiting();
  readonly versions: VersionFacts = {};
  /** Set for the one POST whose body is exactly the key (`headersForBody`, `bodyForBody`). */
  readonly extraHeaders = new Map<string, Record<string, string>>();
  readonly replacedBodies = new Map<string, string>();
  private readonly mcpEndpoint: string | undefined;
  /** The requests this transport got answers to (`TapHooks.onSessionEnded`). */
  private answered = 0;
  private resumeFrom: StreamDrop | undefined;
  private initializeId: string | undefined;

  constructor(
    private readonly trace: TraceRecorder,
    private readonly kind: 'http' | 'sse',
    private readonly hooks: TapHooks,
    private readonly mcpUrl: string | undefined,
  ) {
    this.mcpEndpoint = mcpUrl === undefined ? undefined : endpointOf(mcpUrl);
  }

  carriesFrames(url: string): boolean {
    if (this.mcpEndpoint === undefined) return true;
    const at = endpointOf(url);
    if (at === this.mcpEndpoint) return true;
    if (this.endpoint === undefined) return false;
    return at === endpointOf(new URL(this.endpoint, this.mcpUrl).href);
  }

  private noticeVersions(messages: unknown[], dir: 'in' | 'out'): void {
    for (const m of messages) {
      const message = m as { id?: unknown; method?: unknown; params?: { protocolVersion?: unknown }; result?: { protocolVersion?: unknown }; error?: { data?: { supported?: unknown; requested?: unknown } } } | null;
      if (!message) continue;
      if (dir === 'out' && message.method === 'initialize') {
        this.initializeId = idKey(message.id);
        if (typeof message.params?.protocolVersion === 'string') this.versions.requested = message.params.protocolVersion;
      } else if (dir === 'in' && message.method === undefined && this.initializeId !== undefined && idKey(message.id) === this.initializeId) {
        if (typeof message.result?.protocolVersion === 'string') this.versions.answered = message.result.protocolVersion;
        const supported = message.error?.data?.supported;
        if (Array.isArray(supported)) this.versions.supported = supported.map(String);
      }
    }
  }

  /** One record per frame, sized in bytes like every source's (pipeline/frame-record.ts). */
  private recordFrames(text: string, dir: 'in' | 'out'): unknown[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      recordFrame(this.trace, dir, text, { parsed: 'not-json' });
      return [];
    }
    // A JSON array is a JSON-RPC batch (2025-03-26); each element is its own frame.
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    if (messages.length === 1) recordFrame(this.trace, dir, text, { parsed: { value: parsed } });
    else for (const message of messages) recordFrame(this.trace, dir, JSON.stringify(message), { parsed: { value: message } });
    this.noticeVersions(messages, dir);
    return messages;
  }

  private dropped(drop: StreamDrop): void {
    if (drop.lastEventId === undefined) {
      this.hooks.onStreamDropped?.(drop);
      return;
    }
    // The SDK resumes a stream that gave event ids with GET + Last-Event-ID; judged when that GET answers.
    this.resumeFrom = drop;
    this.trace.record({ kind: 'transport', level: 'info', message: `Resuming the event stream from Last-Event-ID ${drop.lastEventId}` });
  }

  /** A resume that fails leaves the waiting requests with nobody to answer them. */
  private judgeResume(requestHeaders: Record<string, string>, ok: boolean): void {
    if (!this.resumeFrom || requestHeaders['last-event-id'] === undefined) return;
    const drop = this.resumeFrom;
    this.resumeFrom = undefined;
    if (!ok) this.hooks.onStreamDropped?.(drop);
  }

  /** The request as it goes out: with the headers and the body set for exactly its body (`headersForBody`, `bodyForBody`), each used once. */
  private withOverrides(givenInit: RequestInit | undefined): RequestInit | undefined {
    let init = givenInit;
    const extra = this.extraHeaders.size > 0 && typeof init?.body === 'string' ? this.extraHeaders.get(init.body) : undefined;
    if (extra && init) {
      this.extraHeaders.delete(init.body as string);
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(extra)) headers.set(name, value);
      init = { ...init, headers };
    }
    const replaced = this.replacedBodies.size > 0 && typeof init?.body === 'string' ? this.replacedBodies.get(init.body) : undefined;
    if (replaced !== undefined && init) {
      this.replacedBodies.delete(init.body as string);
      init = { ...init, body: replaced };
    }
    return init;
  }

  /** The `fetch` the SDK is given: the exchange and its frames recorded, the answer handed on as if untapped. */
  async tapFetch(input: string | URL, givenInit?: RequestInit): Promise<Response> {
    const init = this.withOverrides(givenInit);
    const url = String(input);
    const method = init?.method ?? 'GET';
    const requestHeaders = maskHeaders(new Headers(init?.headers));
    const started = now();
    const framed = this.carriesFrames(url);
    const sent = framed && typeof init?.body === 'string' ? this.recordFrames(init.body, 'out') : [];
    const out: Outgoing = { url, method, init, requestHeaders, started, framed, sent, exchange: this.waiting.start(method, url) };
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      this.unanswered(out, error);
      throw error;
    }
    out.exchange.status = response.status;
    const contentType = response.headers.get('content-type') ?? undefined;
    out.exchange.contentType = contentType;
    const base = { kind: 'http' as const, method, url: maskUrlSecrets(url), status: response.status, contentType, requestHeaders, responseHeaders: maskHeaders(response.headers) };
    const isSse = contentType?.includes('text/event-stream') ?? false;
    if (response.ok && isSse && response.body) return this.passStream(out, response, response.body, base);
    let text: string;
    try {
      text = response.body ? await response.text() : '';
    } finally {
      this.waiting.done(out.exchange, init?.signal?.aborted === true);
    }
    return this.passBody(out, response, base, text);
  }

  /** The request got no answer: the network failed, or Loupe gave up on it. */
  private unanswered({ url, method, init, requestHeaders, started, framed, exchange }: Outgoing, error: unknown): void {
    const aborted = isAbort(error, init);
    this.waiting.done(exchange, aborted);
    const networkError = aborted ? 'aborted by Loupe' : describeNetworkError(error);
    // Loupe's own abort (a timeout, a close) is not the server's failure: keep the last real one.
    if (!aborted && framed) this.failure = { url, networkError };
    this.trace.record({ kind: 'http', method, url: maskUrlSecrets(url), requestHeaders, durationMs: now() - started, error: networkError });
    this.judgeResume(requestHeaders, false);
  }

  /** An event stream: one copy for the SDK, one read here, its events recorded as they come. */
  private passStream(out: Outgoing, response: Response, body: ReadableStream<Uint8Array>, base: AnsweredRecord): Response {
    const { url, method, init, requestHeaders, sent, exchange } = out;
    const [forSdk, forTap] = body.tee();
    this.trace.record({ ...base, durationMs: now() - out.started });
    this.judgeResume(requestHeaders, true);
    const requestIds = requestIdsOf(sent);
    if (requestHeaders['mcp-session-id'] !== undefined && requestIds.size > 0) this.answered++;
    void watchSse(forTap, this.trace, {
      url,
      method,
      legacy: this.kind === 'sse' && method === 'GET',
      requestIds,
      signal: init?.signal,
      recordFrames: (text) => this.recordFrames(text, 'in'),
      onEndpoint: (data) => (this.endpoint = data),
      onFirstEvent: () => this.waiting.done(exchange),
      onDrop: (drop) => this.dropped(drop),
    }).finally(() => this.waiting.done(exchange));
    return new Response(forSdk, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** Any other answer, read whole (`text`): recorded, its frames and its failure kept, handed on as read. */
  private passBody(out: Outgoing, response: Response, base: AnsweredRecord, text: string): Response {
    const { url, requestHeaders, framed, sent } = out;
    const contentType = base.contentType;
    const isJson = contentType?.includes('json') ?? false;
    this.trace.record({ ...base, durationMs: now() - out.started, bodySize: text.length });
    // After the record: a failed resume ends the session, which aborts what is still being read.
    this.judgeResume(requestHeaders, false);
    if (framed && isJson && text.length > 0 && (response.ok || text.trimStart().startsWith('{'))) this.recordFrames(text, 'in');
    // The requests beside the server (OAuth) do not replace its own failure: that is what the user asked about.
    if (framed && (!response.ok || (text.length > 0 && !isJson))) {
      // The start of the body goes into the error the page is shown: a refusal may quote the key it refused.
      const bodyStart = scrubberFor(this.trace.secretValues, 'masked')(text.slice(0, BODY_START_CHARS));
      this.failure = { url, status: response.status, contentType, bodyStart, wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined };
    }
    if (response.ok && requestHeaders['mcp-session-id'] !== undefined && requestIdsOf(sent).size > 0) this.answered++;
    if (response.status === 404 && requestHeaders['mcp-session-id'] !== undefined) {
      const sentence = this.hooks.onSessionEnded?.(this.answered);
      if (sentence !== undefined) throw new Error(sentence);
    }
    return new Response(response.status === 204 || response.status === 304 ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
}

/**
 * `mcpUrl`: the server's URL. Only the bodies of requests to it (and to a legacy SSE server's POST
 * endpoint) are recorded as frames: the requests beside it (OAuth discovery, registration, the
 * token endpoint, issue 11) are recorded as HTTP exchanges without their bodies, which carry
 * tokens and secrets. Without `mcpUrl` every JSON body is a frame.
 */
export function createHttpTap(trace: TraceRecorder, kind: 'http' | 'sse' = 'http', hooks: TapHooks = {}, mcpUrl?: string): HttpTap {
  const tap = new Tap(trace, kind, hooks, mcpUrl);
  return {
    fetch: (input, init) => tap.tapFetch(input, init),
    isServerEndpoint: (url) => tap.carriesFrames(url),
    lastFailure: () => tap.failure,
    waiting: () => tap.waiting.oldest(),
    versions: () => ({ ...tap.versions }),
    sseEndpoint: () => tap.endpoint,
    headersForBody: (body, headers) => void tap.extraHeaders.set(body, headers),
    bodyForBody: (body, replacement) => void tap.replacedBodies.set(body, replacement),
  };
}
