/**
 * The guided OAuth flow's fetch (issue 11): every HTTP exchange a step makes — the SDK's discovery,
 * registration and token calls, and Loupe's own MCP requests — is recorded into that step as the
 * page shows it (headers and bodies, bounded, secrets masked with lib/oauth/mask.ts), and kept
 * whole in memory for the step to judge. The SDK reads the response as usual: it gets a copy
 * built from the bytes that were read.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundText, maskBody, maskHeaders, maskUrl, maskValues } from '../../../lib/oauth/mask.ts';
import type { GuidedExchange } from '../../../lib/wire/oauth.ts';
import { describeNetworkError } from '../../upstream/http/tap.ts';

/** How much of a body the page is shown. */
export const SHOWN_BODY_CHARS = 16 * 1024;
/** How much of a body a step reads to judge it (metadata and token responses are small). */
const READ_LIMIT_BYTES = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;

/** A response as read, unmasked: for the step's checks only, never sent anywhere. */
export interface RawExchange {
  url: string;
  method: string;
  status?: number;
  headers?: Headers;
  contentType?: string;
  text?: string;
  error?: string;
}

export interface RecorderOptions {
  base?: FetchLike;
  /** Header names the user marked secret in the server's config. */
  secretHeaders?: readonly string[];
  /** Values known to be secret right now (the flow's token, code, verifier, client secret). */
  secrets(): readonly string[];
  /** Aborted when the flow is stopped. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Reading a body stops early once this says the text holds what is needed (an event stream's answer). */
  enough?(text: string, contentType: string): boolean;
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function requestBodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  return `(${Object.prototype.toString.call(body).slice(8, -1)} body)`;
}

/** Reads at most `limit` bytes; an event stream stops as soon as `enough` is satisfied. */
async function readText(response: Response, limit: number, enough?: (text: string) => boolean): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
      if (bytes >= limit || enough?.(text)) break;
    }
    text += decoder.decode();
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

export class ExchangeRecorder {
  readonly exchanges: GuidedExchange[] = [];
  readonly raws: RawExchange[] = [];
  readonly fetch: FetchLike;

  constructor(private readonly options: RecorderOptions) {
    this.fetch = (input, init) => this.record(input, init);
  }

  /** The last response (or failure) recorded. */
  last(): RawExchange | undefined {
    return this.raws[this.raws.length - 1];
  }

  private mask(text: string): string {
    return maskValues(text, this.options.secrets());
  }

  private async record(input: string | URL, init?: RequestInit): Promise<Response> {
    const url = String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    const body = requestBodyText(init?.body);
    const exchange: GuidedExchange = {
      method,
      url: this.mask(maskUrl(url)),
      requestHeaders: this.maskedHeaders(headers),
      requestBody: body === undefined ? undefined : boundText(this.mask(maskBody(body, headers.get('content-type') ?? '')), SHOWN_BODY_CHARS),
    };
    this.exchanges.push(exchange);
    const raw: RawExchange = { url, method };
    this.raws.push(raw);
    const started = performance.now();
    const signals = [AbortSignal.timeout(this.options.timeoutMs ?? REQUEST_TIMEOUT_MS), ...(this.options.signal ? [this.options.signal] : [])];
    let response: Response;
    let text: string;
    try {
      response = await (this.options.base ?? fetch)(input, { ...init, signal: AbortSignal.any(signals) });
      const contentType = response.headers.get('content-type') ?? '';
      text = await readText(response, READ_LIMIT_BYTES, this.options.enough ? (t: string) => this.options.enough!(t, contentType) : undefined);
    } catch (error) {
      raw.error = exchange.error = describeNetworkError(error);
      exchange.durationMs = Math.round(performance.now() - started);
      throw error;
    }
    const contentType = response.headers.get('content-type') ?? undefined;
    Object.assign(raw, { status: response.status, headers: response.headers, contentType, text });
    Object.assign(exchange, {
      status: response.status,
      responseHeaders: this.maskedHeaders(response.headers),
      responseBody: text === '' ? undefined : boundText(this.mask(maskBody(text, contentType)), SHOWN_BODY_CHARS),
      durationMs: Math.round(performance.now() - started),
    });
    return new Response(NULL_BODY.has(response.status) ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  private maskedHeaders(headers: Headers): Record<string, string> {
    const masked = maskHeaders(headers, this.options.secretHeaders);
    for (const [name, value] of Object.entries(masked)) masked[name] = this.mask(value);
    return masked;
  }
}

/** JSON text parsed, or undefined: a step judges bodies it did not write. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An OAuth error body (RFC 6749 §5.2), when the text is one. */
export function oauthErrorOf(text: string | undefined): { error?: string; description?: string } {
  const body = parseJson(text) as { error?: unknown; error_description?: unknown } | undefined;
  if (!body || typeof body !== 'object') return {};
  return { error: typeof body.error === 'string' ? body.error : undefined, description: typeof body.error_description === 'string' ? body.error_description : undefined };
}

export function isJsonType(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(contentType ?? '');
}
