/**
 * The frame pipeline of issue 13, in its two faces. Both apply the session's interception rules
 * (lib/rules/rules.ts, carried out by frame-interceptor.ts) to every frame, both ways:
 * - `FramePipeline` works on text, for relays that copy frames between two ends (the tap, the
 *   gateway): they record the frames themselves and call in with each one;
 * - `RuledTransport` wraps a client-side SDK Transport (Loupe's own sessions, the gateway's
 *   upstream), between the transport that records the wire and the SDK Client above it.
 * With no rule in force a frame costs one check: it is handed on as it came.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { classifyMessage } from '../../lib/trace/frame-classify.ts';
import { stringifySafe } from '../../lib/json/safe-json.ts';
import type { Direction } from '../../lib/model/rules.ts';
import { Interceptor } from './interceptor.ts';
import { rememberText, textOf } from './frame-text.ts';
import { textOfExtra, type FrameExtra } from './frame-record.ts';
import type { PipelineContext } from './context.ts';
import type { HttpTap } from '../upstream/http/tap.ts';
import type { StdioTapTransport } from '../upstream/stdio/transport.ts';
import type { TraceRecorder } from './trace-recorder.ts';

export interface PipelineEnds {
  /** Write this text toward the server. */
  toServer(raw: string): void | Promise<void>;
  /** Deliver this text toward the client. */
  toClient(raw: string): void;
  /** A `close` rule fired (after its frame went on). */
  close(): void;
  /** A `kill` rule fired (after its frame went on). */
  kill(): void;
}

/** Text in, text out: the relay's two ends, with the rules between them. Never throws. */
export class FramePipeline {
  private readonly core: Interceptor;

  constructor(
    ctx: PipelineContext,
    private readonly ends: PipelineEnds,
  ) {
    this.core = new Interceptor(ctx, {
      answer: (dir, raw) => (dir === 'to-server' ? ends.toClient(raw) : ends.toServer(raw)),
      close: () => ends.close(),
      kill: () => ends.kill(),
    });
  }

  /** Some enabled rule may apply (callers may skip the pipeline entirely while it is false). */
  get active(): boolean {
    return this.core.active;
  }

  /** A frame from the client, toward the server. */
  fromClient(raw: string): void {
    this.pass('to-server', raw);
  }

  /** A frame from the server, toward the client. */
  fromServer(raw: string): void {
    this.pass('to-client', raw);
  }

  /** The relay ended: frames still delayed are not forwarded. */
  stop(): void {
    this.core.stop();
  }

  private pass(dir: Direction, raw: string): void {
    const onward = dir === 'to-server' ? (text: string) => this.ends.toServer(text) : (text: string) => this.ends.toClient(text);
    if (!this.core.active) {
      void settle(onward(raw));
      return;
    }
    void settle(this.core.run(dir, raw, onward));
  }
}

/** A relay's write that failed is the relay's to report (its transport sees it); the pipeline only must not throw. */
function settle(result: void | Promise<void>): Promise<void> | void {
  return result instanceof Promise ? result.catch(() => undefined) : undefined;
}

export interface RuledTransportOptions {
  /** A `kill` rule: stop the server the hard way (stdio: SIGKILL its process group). Default: close. */
  kill?(): void | Promise<void>;
  /**
   * Write exactly this text toward the server (a rule's or a person's text, JSON or not).
   * `carrier` is the message it replaces, for a transport that must send some message (HTTP).
   * Absent: text that is JSON is sent as a message, other text is not sent (the trace says so).
   */
  sendText?(raw: string, carrier: JSONRPCMessage): Promise<void>;
}

/**
 * An SDK Transport with the rules between it and its user. An `answer` (a request answered by a
 * rule or a person) reaches `onmessage` as if the server had sent it; text going to the SDK
 * Client that is not a JSON-RPC object is recorded as noise and not delivered.
 */
export class RuledTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: FrameExtra) => void;
  private readonly core: Interceptor;

  /** The SDK's HTTP transports: completes a sign-in (session-oauth.ts looks for it). */
  finishAuth?: (code: string) => Promise<void>;

  constructor(
    /** The transport that records the wire (the session keeps it: its exit, its sign-in). */
    readonly inner: Transport,
    private readonly ctx: PipelineContext,
    private readonly options: RuledTransportOptions = {},
  ) {
    const auth = inner as { finishAuth?: (code: string) => Promise<void> };
    if (typeof auth.finishAuth === 'function') this.finishAuth = (code) => auth.finishAuth!(code);
    this.core = new Interceptor(ctx, {
      answer: (dir, raw) => (dir === 'to-server' ? queueMicrotask(() => this.deliver(raw)) : this.sendRewritten(raw, undefined)),
      close: () => inner.close(),
      kill: () => (options.kill ? options.kill() : inner.close()),
    });
    inner.onmessage = (message, extra) => {
      if (!this.core.active) return this.onmessage?.(message, extra);
      const raw = textOfExtra(extra) ?? textOf(message) ?? stringifySafe(message) ?? '';
      this.core.run('to-client', raw, (text, unchanged) => (unchanged ? this.onmessage?.(message, extra) : this.deliver(text))).catch((error: unknown) => this.warn(`A rule could not deliver a message from the server (${error instanceof Error ? error.message : String(error)}).`));
    };
    inner.onclose = () => {
      this.core.stop();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The v2 SDK Client reads it on a 2026-07-28 HTTP session (one response stream per request). */
  get hasPerRequestStream(): boolean | undefined {
    return (this.inner as { hasPerRequestStream?: boolean }).hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(sent: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const message = this.ctx.stamp && textOf(sent) === undefined ? this.ctx.stamp(sent) : sent;
    if (!this.core.active) return this.inner.send(message, options);
    const raw = textOf(message) ?? stringifySafe(message) ?? '';
    return this.core.run('to-server', raw, (text, unchanged) => (unchanged ? this.inner.send(message, options) : this.sendRewritten(text, message, options)));
  }

  close(): Promise<void> {
    this.core.stop();
    return this.inner.close();
  }

  /** A rule's or a person's text toward the server. */
  private async sendRewritten(raw: string, carrier: JSONRPCMessage | undefined, options?: TransportSendOptions): Promise<void> {
    const message = parseMessage(raw);
    if (this.options.sendText && (carrier ?? message)) return this.options.sendText(raw, (carrier ?? message)!);
    if (!message) {
      this.warn('A rule produced text that is not a JSON-RPC message, which this transport cannot send; it was not sent.');
      return;
    }
    rememberText(message, raw);
    await this.inner.send(message, options);
  }

  /** Text toward the SDK Client: only a JSON-RPC object gets there (the stdio tap does the same with bad lines). */
  private deliver(raw: string): void {
    const message = parseMessage(raw);
    if (!message) {
      this.ctx.trace.record({ kind: 'noise', text: raw });
      this.warn("A rule's message toward Loupe's client is not valid JSON-RPC (not delivered).");
      return;
    }
    // Its text travels with it (no record: what the rule made was recorded as its intervention).
    this.onmessage?.(message, { text: raw } satisfies FrameExtra);
  }

  private warn(message: string): void {
    this.ctx.trace.record({ kind: 'transport', level: 'warn', message });
  }
}

/** A JSON-RPC message from text, or undefined (never throws). */
function parseMessage(raw: string): JSONRPCMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  return classifyMessage(parsed).rpc === 'invalid' ? undefined : (parsed as JSONRPCMessage);
}

/** A stdio server: text is written as it is; `kill` is SIGKILL to its process group. */
export function stdioRuleOptions(stdio: StdioTapTransport): RuledTransportOptions {
  return { kill: () => stdio.kill(), sendText: (raw) => stdio.sendText(raw) };
}

/**
 * A remote server: the SDK posts JSON.stringify of a message, so text that is not that is put
 * in its place by the HTTP tap; a remote server cannot be killed, so `kill` closes the connection.
 */
export function httpRuleOptions(tap: HttpTap, transport: Transport, trace: TraceRecorder): RuledTransportOptions {
  return {
    kill: async () => {
      trace.record({ kind: 'transport', level: 'warn', message: 'A kill rule cannot kill a remote server; Loupe closed the connection instead.' });
      await transport.close();
    },
    sendText: (raw, carrier) => {
      tap.bodyForBody(JSON.stringify(carrier), raw);
      return transport.send(carrier);
    },
  };
}

/** The transport under the rules (the session compares it with its stdio transport, for the exit). */
export function withoutRules(transport: Transport): Transport {
  return transport instanceof RuledTransport ? transport.inner : transport;
}

/** The transport with the rules of `ctx` on it, or the transport itself where there is no context (tests, probes). */
export function withRules(transport: Transport, ctx: PipelineContext | undefined, options?: RuledTransportOptions): Transport {
  return ctx ? new RuledTransport(transport, ctx, options) : transport;
}
