/**
 * The page's requests on a session. Sits between the transport and the SDK Client and sees every
 * incoming message first. The SDK Client keeps the session itself (initialize, the server's
 * requests, notifications); what the user sends goes through here because an inspector needs what
 * the SDK's `request()` will not do:
 * - send anything: any method, hand-written ids and frames (the raw composer, replays), and
 *   requests the server's capabilities do not cover ("send anyway");
 * - hand back results exactly as sent, without parsing them into the SDK's schemas;
 * - report `notifications/progress` synchronously in wire order (the SDK runs its notification
 *   handlers a microtask late, so progress arriving in the same chunk as the response is lost);
 * - and no second pass of schema validation on the hot path (the latency benchmark).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { LoupeError, RequestId, RpcError } from '../../lib/wire/wire.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';
import type { Cancel } from './cancel.ts';
import { stringifySafe } from '../../lib/json/safe-json.ts';
import { rememberText, textOf } from '../pipeline/frame-text.ts';
import { exactFrameOf, textOfExtra } from '../pipeline/frame-record.ts';

/** `frame`: the exact text of the server's response, where the transport kept it (frame-text.ts). */
export type RawOutcome = ({ ok: true; result: unknown } | { ok: false; error: RpcError | LoupeError }) & {
  rpcId?: RequestId;
  frame?: string;
  /**
   * The number of the answer's frame in the session's trace, where its record is exactly what the
   * server sent: a face that delivers the trace too can refer to it instead of sending it again.
   */
  frameSeq?: number;
  /**
   * Milliseconds from just before the frame was written to its answer (or failure), measured here
   * so that every face reports the same time, not its own view of it (the page's, a CLI's).
   */
  durationMs?: number;
};

export interface ProgressParams {
  progress: number;
  total?: number;
  message?: string;
}

interface Waiting {
  resolve(outcome: RawOutcome): void;
  /** Told the outcome in the turn it settles, before `resolve`'s continuations (RouterRequestOptions.onSettled). */
  onSettled?: (outcome: RawOutcome) => void;
  started: number;
  timer?: ReturnType<typeof setTimeout>;
}

export interface RouterRequestOptions {
  /** Aborting sends notifications/cancelled; the reason (an RpcError or a string) becomes the error. */
  cancel: Cancel;
  onProgress?: (progress: ProgressParams) => void;
  /** This request re-sends an earlier one after an `input_required` result (issue 12): its frame is marked. */
  round?: { call: RequestId; n: number };
  /** This request is an MCP Apps view's (issue 24): its frame names the view. */
  byView?: string;
  /**
   * Told the outcome (with its `rpcId`) in the very turn the answer is read, before the promise's
   * continuations run: a face can send the answer on without the microtask hops of the awaits
   * between here and there (~20 µs of an echo's round trip, bench/echo-latency.mjs).
   */
  onSettled?: (outcome: RawOutcome) => void;
}

const key = (id: RequestId): string => `${typeof id}:${id}`;

/** The handler a session's Client has for notifications it has no handler of its own for: nothing to do (the trace has them). */
export const IGNORE_NOTIFICATION = async (): Promise<void> => {};

/**
 * A test for the notifications the SDK Client would only drop: no handler of its own (progress
 * and cancellation of its own requests, task status…) and Loupe's do-nothing fallback. Handing one
 * over costs the SDK four zod checks to learn it is a notification, three of them failing with
 * error objects built and thrown away, which halved the rate of a notification flood (issue 23).
 * Read from the Protocol's handler map, which the SDK keeps private; should that change, every
 * message goes to the SDK as before.
 */
function sdkIgnores(client: object): ((message: JSONRPCMessage) => boolean) | undefined {
  const protocol = client as { _notificationHandlers?: unknown; fallbackNotificationHandler?: unknown };
  const handlers = protocol._notificationHandlers;
  if (!(handlers instanceof Map)) return undefined;
  return (message) => {
    const m = message as { method?: unknown; id?: unknown };
    return typeof m.method === 'string' && m.id === undefined && protocol.fallbackNotificationHandler === IGNORE_NOTIFICATION && !handlers.has(m.method);
  };
}

/** A send that threw: the SDK's HTTP transports serialise with JSON.stringify, which a deep message overflows. */
function sendError(error: unknown): LoupeError {
  if (error instanceof RangeError) {
    return { code: 'BAD_MESSAGE', message: `Loupe could not send this message: it is nested too deeply for the transport to serialise (${error.message}).` };
  }
  // The SDK's HTTP transports throw UnauthorizedError when a request needs a (new) sign-in: a
  // step-up on 403 insufficient_scope, or a refresh that failed (issue 11). Matched by its class
  // name (the SDK does not set `name`), so that
  // the router does not load the SDK's auth code for stdio sessions.
  if (error instanceof Error && (error.name === 'UnauthorizedError' || error.constructor.name === 'UnauthorizedError')) return { code: 'UNAUTHORIZED', message: error.message || 'The server wants a new sign-in.' };
  return { code: 'NOT_CONNECTED', message: error instanceof Error ? error.message : String(error) };
}

function abortError(reason: unknown): RpcError | LoupeError {
  if (reason && typeof reason === 'object' && 'code' in reason && 'message' in reason) return reason as RpcError;
  return { code: 'CANCELLED', message: typeof reason === 'string' ? reason : 'Cancelled' };
}

export class RawRouter {
  private readonly waiting = new Map<string, Waiting>();
  private readonly progress = new Map<string, (params: ProgressParams) => void>();
  private nextId = 1;
  constructor(
    protected readonly transport: Transport,
    protected readonly trace: TraceRecorder,
  ) {}

  /**
   * Call once the SDK Client is connected (it has set `transport.onmessage` by then). `client`:
   * that Client, so that notifications it would only drop are not handed to it (sdkIgnores).
   */
  install(client?: object): void {
    const sdk = this.transport.onmessage;
    const ignored = client ? sdkIgnores(client) : undefined;
    this.transport.onmessage = (message, extra) => {
      if (this.take(message, extra)) return;
      if (this.progress.size > 0) this.noticeProgress(message);
      if (ignored?.(message)) return;
      try {
        sdk?.(message, extra);
      } catch (error) {
        // The SDK describes a message it cannot place with JSON.stringify, which a deep one
        // overflows (issue 8): that message is dropped, and the session goes on.
        this.trace.record({ kind: 'transport', level: 'warn', message: `Loupe's MCP client could not handle a message from the server (${error instanceof Error ? error.message : String(error)}); it was dropped.` });
      }
    };
  }

  /** A request from the page: Loupe picks the id (`loupe-N`, never the SDK's numbers). */
  async request(method: string, params: Record<string, unknown> | undefined, options: RouterRequestOptions): Promise<RawOutcome> {
    const id = `loupe-${this.nextId++}`;
    let sendParams = params;
    if (options.onProgress) {
      const meta = (params?._meta ?? {}) as Record<string, unknown>;
      const token = (meta.progressToken as RequestId | undefined) ?? id;
      if (meta.progressToken === undefined) sendParams = { ...params, _meta: { ...meta, progressToken: token } };
      this.progress.set(key(token), options.onProgress);
    }
    const message = { jsonrpc: '2.0' as const, id, method, ...(sendParams !== undefined ? { params: sendParams } : {}) };
    if (options.round) this.trace.expectRound(id, options.round);
    if (options.byView !== undefined) this.trace.expectByView(id, options.byView);
    const answer = this.wait(id, undefined, options.onSettled && ((outcome) => options.onSettled!({ ...outcome, rpcId: id })));
    // The send first (a transport writes within this turn), then the abort listener: no abort can
    // come before this turn ends, and its setup is then no part of the way to the server.
    let sent: Promise<void>;
    try {
      sent = this.transport.send(message as JSONRPCMessage);
    } catch (error) {
      sent = Promise.reject(error);
    }
    const stopListening = options.cancel.onAbort((reason) => this.cancel(id, reason));
    try {
      await sent;
      return { ...(await answer), rpcId: id };
    } catch (error) {
      this.settle(id, { ok: false, error: sendError(error) });
      return { ...(await answer), rpcId: id };
    } finally {
      stopListening();
      const token = (sendParams?._meta as { progressToken?: RequestId } | undefined)?.progressToken;
      if (token !== undefined) this.progress.delete(key(token));
    }
  }

  /**
   * Sends `message` exactly as written; a request resolves with its response, anything else at
   * once. `beforeWrite` is told the text the transport will write (the composer's HTTP headers
   * are put on the POST with that body).
   */
  async send(message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', timeoutMs: number, beforeWrite?: (text: string) => void): Promise<RawOutcome> {
    const id = message.id;
    const expectsAnswer = typeof message.method === 'string' && (typeof id === 'string' || typeof id === 'number');
    const answer = expectsAnswer ? this.wait(id as RequestId, timeoutMs) : undefined;
    // The page's text where it sent one (the hub remembered it), so that a message of any depth passes.
    const started = performance.now();
    const text = textOf(message) ?? stringifySafe(message) ?? '';
    // Sent as written: with its text remembered, the pipeline adds nothing to it (no traceparent, issue 28).
    rememberText(message, text);
    this.trace.expectOut(text, origin);
    // The HTTP transports send JSON.stringify(message), which is the text for any message they can send.
    beforeWrite?.(stringifySafe(message) ?? text);
    try {
      await this.transport.send(message as JSONRPCMessage);
    } catch (error) {
      const failure: RawOutcome = { ok: false, error: sendError(error) };
      if (!expectsAnswer) return { ...failure, durationMs: performance.now() - started };
      this.settle(id as RequestId, failure);
      return answer!;
    }
    return answer ?? { ok: true, result: null, durationMs: performance.now() - started };
  }

  /** The session is closing, or its transport died (`error` says how): nobody will answer what is still waiting. */
  closeAll(error: LoupeError = { code: 'NOT_CONNECTED', message: 'The session closed before the server answered' }): void {
    for (const k of [...this.waiting.keys()]) this.settleKey(k, { ok: false, error });
    this.progress.clear();
  }

  /** Stops waiting and tells the server (notifications/cancelled); a late answer stays in the trace only. */
  private cancel(id: string, reason: unknown): void {
    if (!this.waiting.has(key(id))) return;
    const error = abortError(reason);
    this.settle(id, { ok: false, error });
    const notification = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: id, reason: error.message } };
    this.transport.send(notification).catch(() => undefined);
  }

  private wait(id: RequestId, timeoutMs?: number, onSettled?: (outcome: RawOutcome) => void): Promise<RawOutcome> {
    return new Promise((resolve) => {
      const entry: Waiting = { resolve, onSettled, started: performance.now() };
      if (timeoutMs !== undefined) {
        entry.timer = setTimeout(() => this.settle(id, { ok: false, error: { code: 'TIMEOUT', message: `No response within ${Math.round(timeoutMs / 1000)} s` } }), timeoutMs);
      }
      this.waiting.set(key(id), entry);
    });
  }

  private settle(id: RequestId, outcome: RawOutcome): void {
    this.settleKey(key(id), outcome);
  }

  private settleKey(k: string, outcome: RawOutcome): void {
    const entry = this.waiting.get(k);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(k);
    const settled = { ...outcome, durationMs: performance.now() - entry.started };
    try {
      entry.onSettled?.(settled);
    } catch {
      // Told inside the transport's delivery: a face's failure must not reach the server's side.
      // The promise below still settles, and the face answers from there.
    }
    entry.resolve(settled);
  }

  /** True when `message` answered one of ours (and so is not the SDK's business). */
  private take(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): boolean {
    const m = message as { id?: RequestId; method?: unknown; result?: unknown; error?: RpcError };
    if (m.method !== undefined || m.id === undefined || this.waiting.size === 0 || !this.waiting.has(key(m.id))) return false;
    const frame = textOfExtra(extra) ?? textOf(message);
    const frameSeq = exactFrameOf(extra)?.seq;
    this.settle(m.id, m.error !== undefined ? { ok: false, error: m.error, frame } : { ok: true, result: m.result, frame, frameSeq });
    return true;
  }

  private noticeProgress(message: JSONRPCMessage): void {
    const m = message as { method?: unknown; params?: { progressToken?: RequestId } & ProgressParams };
    if (m.method !== 'notifications/progress' || m.params?.progressToken === undefined) return;
    const listener = this.progress.get(key(m.params.progressToken));
    if (listener && typeof m.params.progress === 'number') listener({ progress: m.params.progress, total: m.params.total, message: m.params.message });
  }
}
