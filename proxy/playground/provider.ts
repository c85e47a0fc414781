/**
 * The Playground's HTTP calls to a model provider (issue 15): the adapters (lib/provider-*.ts) build
 * and read each exchange, this sends it with fetch — streamed or not, with a first-byte and an
 * overall timeout, cancellable by the user's Stop — and describes it as a `provider` trace event.
 *
 * Why here and not in the page: the page's CSP allows no other origin, providers do not all answer
 * CORS, and the key must stay in the proxy. Every failure comes back as a value in plain words;
 * nothing a provider sends (or fails to send) throws out of these functions.
 *
 * The key is masked in the recorded request headers and scrubbed from every other text of the
 * event and of the error, in every encoding (a provider may echo a wrong key in its refusal).
 */
import type { TraceEventInput } from '../pipeline/trace-recorder.ts';
import { maskBearerTokens, secretScrubber, type Scrub } from '../../lib/trace/secret-mask.ts';
import { describeNetworkError } from '../upstream/http/tap.ts';
import { jsonOf, type ModelInfo, type ModelReply, type ModelRequest, type ProviderAdapter, type ProviderConfig, type ProviderKind, type ReplyStream, type StreamDelta } from '../../lib/playground/types.ts';
import { anthropicAdapter } from '../../lib/providers/anthropic.ts';
import { openaiAdapter } from '../../lib/providers/openai.ts';
import type { PlaygroundError } from '../../lib/wire/playground.ts';

export type ProviderEventInput = Extract<TraceEventInput, { kind: 'provider' }>;
export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: PlaygroundError };

export interface Timeouts {
  /** Until the response's headers, for streamed calls and model lists (a non-streamed reply's headers come only when it is whole). */
  firstByteMs: number;
  /** The whole exchange. */
  totalMs: number;
}
export const DEFAULT_TIMEOUTS: Timeouts = { firstByteMs: 60_000, totalMs: 600_000 };

/** What the trace keeps of each body. */
export const RECORDED_BODY_LIMIT = 1024 * 1024;
/** What Loupe reads of a non-streamed body before it gives up on it (a reply is a few KB; this is a runaway). */
const MAX_REPLY_BYTES = 32 * 1024 * 1024;

export interface ProviderCall {
  config: ProviderConfig;
  /** The key itself (playground-keys.ts resolved it); none for a server that takes none. */
  key: string | undefined;
  /** The user's Stop. */
  signal?: AbortSignal;
  timeouts?: Partial<Timeouts>;
}

export interface ChatCall extends ProviderCall {
  request: ModelRequest;
  stream: boolean;
  /** A streamed reply's news, per chunk that brought some. */
  onDeltas?: (deltas: StreamDelta[]) => void;
}

export interface Exchange<T> {
  outcome: CallOutcome<T>;
  event: ProviderEventInput;
  latencyMs: number;
}

export function adapterFor(kind: ProviderKind): ProviderAdapter {
  return kind === 'anthropic' ? anthropicAdapter : openaiAdapter;
}

/** Keeps the first RECORDED_BODY_LIMIT bytes of a body as text, and counts the rest. */
class BodyCapture {
  private readonly decoder = new TextDecoder();
  private text = '';
  private kept = 0;
  private cut = 0;

  add(chunk: Uint8Array): void {
    const room = RECORDED_BODY_LIMIT - this.kept;
    if (room <= 0) {
      this.cut += chunk.byteLength;
      return;
    }
    const part = chunk.byteLength <= room ? chunk : chunk.subarray(0, room);
    this.text += this.decoder.decode(part, { stream: true });
    this.kept += part.byteLength;
    this.cut += chunk.byteLength - part.byteLength;
  }

  result(): string {
    const tail = this.decoder.decode();
    return this.cut === 0 ? this.text + tail : `${this.text}${tail}\n… [Loupe recorded the first 1 MB of this body; ${this.cut} more bytes were not kept]`;
  }
}

/**
 * `text` with every occurrence of the key replaced, so that no recorded or sent text carries it: as
 * sent, JSON-escaped, URL-encoded or in base64 (lib/trace/secret-mask.ts), and whatever follows `Bearer `
 * in what the provider sent back (an echo of the header, perhaps cut short or with the key's start
 * only).
 */
function scrubbers(key: string | undefined): { sent: Scrub; answer: Scrub } {
  const sent = secretScrubber(key === undefined ? [] : [key], 'secret', 1);
  return { sent, answer: (text) => maskBearerTokens(sent(text)) };
}

function maskedHeaders(headers: Record<string, string>, key: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = key && value.includes(key) ? value.split(key).join(`•••• (${key.length} chars, secret)`) : value;
  return out;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

function badUrl(url: string): PlaygroundError | undefined {
  try {
    const protocol = new URL(url).protocol;
    if (protocol === 'http:' || protocol === 'https:') return undefined;
  } catch {
    // Reported below, as a non-URL.
  }
  return { code: 'BAD_REQUEST', message: `The base URL gives ${JSON.stringify(url.slice(0, 200))}, which is not an http or https URL: correct the base URL.` };
}

type Why = 'cancel' | 'first-byte' | 'total';

interface Sent {
  what: 'chat' | 'models';
  adapter: ProviderAdapter;
  call: ProviderCall;
  /** The request body (a chat call); built inside the exchange, so that a failure to build it is an outcome too. */
  makeBody?: () => string;
  /** Present for a streamed chat call. */
  stream?: ReplyStream;
  onDeltas?: (deltas: StreamDelta[]) => void;
  /** A whole (non-streamed, successful) body → the outcome. */
  read: (text: string) => CallOutcome<unknown>;
}

/** One exchange, start to end: never throws. */
async function exchange<T>(sent: Sent): Promise<Exchange<T>> {
  const { adapter, call, what } = sent;
  const started = performance.now();
  const timeouts = { ...DEFAULT_TIMEOUTS, ...call.timeouts };
  const { sent: scrub, answer: scrubAnswer } = scrubbers(call.key);
  const url = adapter.url(call.config.baseUrl, what);
  const headers = adapter.headers(call.key);
  const capture = new BodyCapture();
  let status: number | undefined;
  let outcome: CallOutcome<unknown>;

  const controller = new AbortController();
  let why: Why | undefined;
  const stop = (reason: Why) => {
    why ??= reason;
    controller.abort();
  };
  const onCancel = () => stop('cancel');
  if (call.signal?.aborted) why = 'cancel';
  call.signal?.addEventListener('abort', onCancel);
  const total = setTimeout(() => stop('total'), timeouts.totalMs);
  const firstByte = sent.stream !== undefined || what === 'models' ? setTimeout(() => stop('first-byte'), timeouts.firstByteMs) : undefined;
  let gotHeaders = false;

  const invalid = badUrl(url);
  let body: string | undefined;
  let unbuilt: PlaygroundError | undefined;
  try {
    body = sent.makeBody?.();
  } catch (error) {
    unbuilt = { code: 'BAD_REQUEST', message: `Loupe could not build the request (${error instanceof Error ? error.message : String(error)}): check the settings and the conversation, then send again.` };
  }
  try {
    if (invalid ?? unbuilt) outcome = { ok: false, error: (invalid ?? unbuilt)! };
    else if (why === 'cancel') outcome = { ok: false, error: cancelled() };
    else {
      // A redirect is not followed: it would carry `x-api-key` to wherever it points.
      const response = await fetch(url, { method: body === undefined ? 'GET' : 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
      gotHeaders = true;
      clearTimeout(firstByte);
      status = response.status;
      outcome = await readResponse(sent, response, capture, scrubAnswer);
    }
  } catch (error) {
    outcome = { ok: false, error: failure(error, why, url, gotHeaders, timeouts) };
  } finally {
    clearTimeout(total);
    clearTimeout(firstByte);
    call.signal?.removeEventListener('abort', onCancel);
  }
  if (!outcome.ok) outcome = { ok: false, error: { ...outcome.error, message: scrubAnswer(outcome.error.message) } };

  const durationMs = performance.now() - started;
  const reply = what === 'chat' && outcome.ok ? (outcome.value as ModelReply) : undefined;
  const event: ProviderEventInput = {
    kind: 'provider',
    exchange: what,
    provider: adapter.kind,
    url: scrub(url),
    ...(what === 'chat' ? { model: scrub(call.config.model), stream: sent.stream !== undefined } : {}),
    ...(status !== undefined ? { status } : {}),
    durationMs,
    requestHeaders: maskedHeaders(headers, call.key),
    requestBody: scrub(capped(body ?? '')),
    responseBody: scrubAnswer(capture.result()),
    ...(reply?.usage ? { usage: reply.usage } : {}),
    ...(outcome.ok ? {} : { error: outcome.error.message }),
  };
  return { outcome: outcome as CallOutcome<T>, event, latencyMs: durationMs };
}

function capped(text: string): string {
  return text.length <= RECORDED_BODY_LIMIT ? text : `${text.slice(0, RECORDED_BODY_LIMIT)}\n… [Loupe recorded the first 1 MB of this body; ${text.length - RECORDED_BODY_LIMIT} more characters were not kept]`;
}

async function readResponse(sent: Sent, response: Response, capture: BodyCapture, scrub: Scrub): Promise<CallOutcome<unknown>> {
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get('location');
    return { ok: false, error: { code: 'BAD_REQUEST', status: response.status, message: `The provider answered with a redirect (HTTP ${response.status}${location ? ` to ${location.slice(0, 300)}` : ''}), which Loupe does not follow with a key: use the address it points to as the base URL.` } };
  }
  const streaming = response.ok && sent.stream !== undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      capture.add(read.value);
      size += read.value.byteLength;
      if (streaming) {
        const deltas = sent.stream!.push(read.value);
        if (deltas.length > 0) sent.onDeltas?.(deltas);
        continue;
      }
      if (size > MAX_REPLY_BYTES) {
        await reader.cancel();
        return { ok: false, error: { code: 'BAD_RESPONSE', status: response.status, message: `The provider sent more than ${MAX_REPLY_BYTES / 1024 / 1024} MB for one reply, so Loupe stopped reading it: check the base URL, or ask for a shorter answer.` } };
      }
      chunks.push(read.value);
    }
  }
  if (streaming) return sent.stream!.end();
  const text = Buffer.concat(chunks).toString('utf8');
  // Scrubbed whole, before the adapter quotes its start: a key cut in two would escape the scrub.
  if (!response.ok) return { ok: false, error: sent.adapter.httpError(response.status, scrub(text)) };
  return sent.read(text);
}

const cancelled = (): PlaygroundError => ({ code: 'CANCELLED', message: 'Stopped: Loupe cancelled the call to the model.' });

function failure(error: unknown, why: Why | undefined, url: string, gotHeaders: boolean, timeouts: Timeouts): PlaygroundError {
  if (why === 'cancel') return cancelled();
  if (why === 'first-byte') return { code: 'TIMEOUT', message: `${url} did not answer within ${seconds(timeouts.firstByteMs)}: check that the server is running and the base URL is right, then send again.` };
  if (why === 'total') return { code: 'TIMEOUT', message: `The model's reply took longer than ${seconds(timeouts.totalMs)}, so Loupe stopped waiting: send again, or ask for a shorter answer.` };
  const reason = describeNetworkError(error);
  if (gotHeaders) return { code: 'BAD_STREAM', message: `The provider's reply broke off (${reason}): send the message again.` };
  if (reason === 'connection refused') return { code: 'UNREACHABLE', message: `Loupe could not reach ${url}: connection refused. Is the server running?` };
  if (reason === 'host not found') return { code: 'UNREACHABLE', message: `Loupe could not reach ${url}: host not found. Check the base URL.` };
  return { code: 'UNREACHABLE', message: `Loupe could not reach ${url}: ${reason}. Check the base URL and that the server is running.` };
}

/** One model call; the reply or why not, and the exchange as a trace event. */
export function callModel(call: ChatCall): Promise<Exchange<ModelReply>> {
  const adapter = adapterFor(call.config.kind);
  return exchange<ModelReply>({
    what: 'chat',
    adapter,
    call,
    makeBody: () => JSON.stringify(adapter.body(call.config, call.request, call.stream)),
    stream: call.stream ? adapter.stream() : undefined,
    onDeltas: call.onDeltas,
    read: (text) => {
      const json = jsonOf(text);
      if (json === undefined) return { ok: false, error: { code: 'BAD_RESPONSE', message: `The provider sent a reply that is not JSON (${JSON.stringify(text.slice(0, 80))}): check the base URL, then send again.` } };
      return adapter.parseReply(json);
    },
  });
}

/** The provider's model list, where it offers one. */
export function listModels(call: ProviderCall): Promise<Exchange<ModelInfo[]>> {
  const adapter = adapterFor(call.config.kind);
  return exchange<ModelInfo[]>({
    what: 'models',
    adapter,
    call,
    read: (text) => {
      const json = jsonOf(text);
      if (json === undefined) return { ok: false, error: { code: 'BAD_RESPONSE', message: 'The provider sent a model list that is not JSON: check the base URL, or type the model name.' } };
      return adapter.parseModels(json);
    },
  });
}
