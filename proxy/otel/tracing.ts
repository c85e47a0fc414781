/**
 * Tracing for one launch (issue 28): a consumer of the engine's trace events, which are the frame
 * pipeline's records of every source (Loupe's sessions, the tap, the gateway: docs/architecture.md),
 * already masked. Each session's events become spans (lib/otel/span-builder.ts) for the exporter;
 * the requests Loupe itself sends get a `traceparent` (the engine's `stampRequest`, applied by the
 * pipeline), and that context is remembered so that the spans a server exports to Loupe's
 * receiver (receiver.ts) are recorded beside the frame that caused them.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { frameMessage } from '../../lib/trace/frame-message.ts';
import { SpanBuilder } from '../../lib/otel/span-builder.ts';
import type { SpanData } from '../../lib/otel/span.ts';
import { contextOf, newRootContext, withTraceparent } from '../../lib/otel/traceparent.ts';
import type { Engine, EngineEvent } from '../engine/engine.ts';
import type { SpanSink } from './exporter.ts';
import type { TraceEvent } from '../../lib/wire/wire.ts';

export interface TracingOptions {
  /** Where spans go (the OTLP exporter); none: only the receiver's join (`--otlp-receive`, or no endpoint). */
  sink?: SpanSink;
  /** `--otlp-content`: arguments and results as span attributes. */
  content: boolean;
  /** Put `traceparent` in the requests Loupe sends (default on; `--no-otlp-traceparent`). */
  traceparent: boolean;
}

/** Request contexts remembered for the receiver's join, at most this many (the oldest forgotten). */
const MAX_CONTEXTS = 50_000;

export interface Joined {
  session: string;
  /** The seq of the request frame. */
  seq: number;
}

export class Tracing {
  private readonly builders = new Map<string, SpanBuilder>();
  /** By span id and by trace id of Loupe's requests (and hosts' requests that carried a context). */
  private readonly bySpan = new Map<string, Joined>();
  private readonly byTrace = new Map<string, Joined>();
  private readonly off: () => void;

  constructor(
    private readonly engine: Engine,
    private readonly options: TracingOptions,
  ) {
    this.off = engine.on((event) => this.see(event));
    if (options.traceparent) engine.stampRequest = (session, message) => this.stamp(session, message);
  }

  /** A Loupe session's request gets a new trace's context; a watched host's requests pass as they are. */
  private stamp(session: string, message: JSONRPCMessage): JSONRPCMessage {
    if (this.engine.session(session)?.snapshot().relay) return message;
    return withTraceparent(message, newRootContext()).message as JSONRPCMessage;
  }

  private see(event: EngineEvent): void {
    if (event.type === 'trace') this.trace(event.event);
    else if (event.type === 'session-removed') {
      this.builders.get(event.id)?.end(performance.timeOrigin + performance.now());
      this.builders.delete(event.id);
    }
  }

  private trace(event: TraceEvent): void {
    if (event.kind === 'spans') return;
    if (event.kind === 'frame' && event.dir === 'out' && event.rpc === 'request') this.remember(event.session, event.seq, frameMessage(event));
    if (this.options.sink) this.builderOf(event.session).see(event);
  }

  private remember(session: string, seq: number, message: unknown): void {
    const context = contextOf(message);
    if (!context) return;
    const joined = { session, seq };
    this.bySpan.set(context.spanId, joined);
    if (!this.byTrace.has(context.traceId)) this.byTrace.set(context.traceId, joined);
    if (this.bySpan.size > MAX_CONTEXTS) this.bySpan.delete(this.bySpan.keys().next().value!);
    if (this.byTrace.size > MAX_CONTEXTS) this.byTrace.delete(this.byTrace.keys().next().value!);
  }

  private builderOf(session: string): SpanBuilder {
    let builder = this.builders.get(session);
    if (!builder) {
      const found = this.engine.session(session);
      const info = found?.snapshot();
      const source = info?.relay?.kind ?? 'loupe';
      const transport = found?.config.kind === 'stdio' ? 'stdio' : 'http';
      builder = new SpanBuilder({ source, transport, content: this.options.content, onSpan: (span) => this.options.sink?.export(span), resource: { 'mcp_loupe.session': info?.name ?? session } });
      this.builders.set(session, builder);
    }
    return builder;
  }

  /** The request a received span belongs to: its parent is that request's span, or it is of the same trace. */
  joinOf(span: Pick<SpanData, 'traceId' | 'parentSpanId'>): Joined | undefined {
    return (span.parentSpanId !== undefined ? this.bySpan.get(span.parentSpanId) : undefined) ?? this.byTrace.get(span.traceId);
  }

  /**
   * Spans a server exported to Loupe: recorded in the session of the request they belong to, one
   * `spans` event per request (in the primary session, joined to nothing, when none matches); and
   * sent on to the exporter, so the team's backend has the server's side of the trace too.
   */
  receive(spans: readonly SpanData[]): { joined: number; unjoined: number } {
    const groups = new Map<string, { joined?: Joined; spans: SpanData[] }>();
    let joinedCount = 0;
    for (const span of spans) {
      const joined = this.joinOf(span);
      if (joined) joinedCount++;
      const key = joined ? `${joined.session}#${joined.seq}` : '';
      const group = groups.get(key) ?? { joined, spans: [] };
      group.spans.push(span);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      const session = this.engine.session(group.joined?.session ?? this.engine.primary ?? '');
      if (!session) continue;
      // Recorded first: the recorder masks the session's secret values, and what is exported is what it kept.
      const event = session.trace.record({ kind: 'spans', source: 'server', ...(group.joined ? { of: group.joined.seq } : {}), spans: group.spans });
      if (event.kind === 'spans') for (const span of event.spans) this.options.sink?.export(span);
    }
    return { joined: joinedCount, unjoined: spans.length - joinedCount };
  }

  async close(): Promise<void> {
    this.off();
    if (this.engine.stampRequest) this.engine.stampRequest = undefined;
    const at = performance.timeOrigin + performance.now();
    for (const builder of this.builders.values()) builder.end(at);
    this.builders.clear();
    await this.options.sink?.shutdown();
  }
}
