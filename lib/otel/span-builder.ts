/**
 * A session's recorded trace turned into spans as it happens (issue 28): one per request, opened
 * by its frame and ended by its answer, paired by id per direction as lib/trace pairs them
 * (exchanges.ts) but one event at a time, since the exporter follows a live session and cannot
 * wait for its end. Everything it reads was masked by the recorder already (trace-recorder.ts):
 * a secret value is `•••• (masked)` here too.
 *
 * - Loupe's own requests are `client` spans whose context is the `traceparent` Loupe put in their
 *   `params._meta` (so a server's own spans, parented to it, join them); without one, a new trace.
 * - A tapped or gateway host's requests are spans of their own, children of the context the host
 *   sent, if any, with the host's `clientInfo` as the resource.
 * - The server's requests (sampling, elicitation, roots) are `server` spans, children of the call
 *   they came during; its notifications, and interventions (rules, holds), are span events.
 */
import { frameMessage } from '../trace/frame-message.ts';
import type { FrameEvent, InterventionEvent, TraceEvent } from '../wire/wire.ts';
import { answerAttributes, hostResource, requestAttributes, spanName, type SessionFacts } from './conventions.ts';
import { randomHex, type Attributes, type SpanData, type SpanEventData } from './span.ts';
import { contextOf } from './traceparent.ts';

export interface BuilderOptions {
  /** Whose requests `out` frames are: Loupe's own, or a host Loupe stands between. */
  source: 'loupe' | 'tap' | 'gateway';
  transport: 'stdio' | 'http';
  /** `--otlp-content`: arguments and results as attributes. */
  content: boolean;
  /** Told of each span once it ended. */
  onSpan(span: SpanData): void;
  /** The session's resource (service.name …); the host's clientInfo is added for relays. */
  resource?: Attributes;
}

/** Span events kept per span: a flood of notifications during one call must not grow it without end. */
export const MAX_EVENTS = 128;

interface Open {
  span: SpanData;
  method: string;
  seq: number;
  dropped: number;
}

type Id = string | number;
const keyOf = (dir: 'out' | 'in', id: Id) => `${dir}:${typeof id}:${id}`;
const isId = (value: unknown): value is Id => typeof value === 'string' || typeof value === 'number';

export class SpanBuilder {
  private readonly open = new Map<string, Open>();
  /** The newest open client span, for what the server says during it. */
  private latest?: Open;
  private readonly facts: SessionFacts;
  private resource?: Attributes;
  /** Events that arrived before the span they belong to (an intervention recorded before its frame). */
  private readonly early = new Map<string, SpanEventData[]>();
  /** Span ids taken from Loupe's own traceparents (bounded: a replay of a forgotten one is a harmless duplicate). */
  private readonly usedIds = new Set<string>();
  /** Notifications from the server while no call was open: not spans, only counted. */
  unattached = 0;

  constructor(private readonly options: BuilderOptions) {
    this.facts = { transport: options.transport };
    this.resource = options.resource;
  }

  /** The `Mcp-Session-Id` of an HTTP session, once known. */
  set sessionId(id: string | undefined) {
    this.facts.sessionId = id;
  }

  see(event: TraceEvent): void {
    if (event.kind === 'frame') this.frame(event);
    else if (event.kind === 'intervention') this.intervention(event);
    else if (event.kind === 'http' && event.responseHeaders) {
      const id = Object.entries(event.responseHeaders).find(([name]) => name.toLowerCase() === 'mcp-session-id')?.[1];
      if (id !== undefined) this.facts.sessionId = id;
    }
  }

  /** The session ended: open spans end now, said to be unanswered. */
  end(at: number): void {
    for (const open of this.open.values()) {
      open.span.attributes['mcp_loupe.unanswered'] = true;
      this.finish(open, at);
    }
    this.open.clear();
    this.latest = undefined;
  }

  private frame(frame: FrameEvent): void {
    if (frame.view !== undefined || frame.rpc === 'invalid') return;
    // A notification from the server while nothing is open costs no parse (a flood's common case).
    if (frame.rpc === 'notification' && frame.dir === 'in' && this.open.size === 0) return void this.unattached++;
    // A span already holding all the events it keeps counts the rest without reading them.
    if (frame.rpc === 'notification' && frame.dir === 'in' && this.open.size === 1 && this.latest && this.latest.span.events.length >= MAX_EVENTS) return void this.latest.dropped++;
    const message = frameMessage(frame);
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return;
    const m = message as Record<string, unknown>;
    if (typeof m.method === 'string') {
      if (isId(m.id)) this.request(frame, m.method, m.id, m);
      else this.notification(frame, m.method, m.params);
    } else if (isId(m.id)) this.answer(frame, m.id, m);
  }

  private request(frame: FrameEvent, method: string, id: Id, m: Record<string, unknown>): void {
    const fromClient = frame.dir === 'out';
    const carried = contextOf(m);
    const parent = fromClient ? undefined : this.latest?.span;
    let traceId: string;
    let spanId = randomHex(8);
    let parentSpanId: string | undefined;
    // Loupe's own context is this span's, once: a replay re-sends it as written, and its span is then a child of it.
    if (fromClient && this.options.source === 'loupe' && carried && !this.usedIds.has(carried.spanId)) ({ traceId, spanId } = carried);
    else if (carried) [traceId, parentSpanId] = [carried.traceId, carried.spanId];
    else if (parent) [traceId, parentSpanId] = [parent.traceId, parent.spanId];
    else traceId = randomHex(16);
    if (fromClient && method === 'initialize' && this.options.source !== 'loupe') {
      const host = hostResource(m.params);
      if (host) this.resource = { ...this.resource, ...host };
    }
    const attributes = requestAttributes(method, id, m.params, this.facts, this.options.content);
    attributes['mcp_loupe.frame.seq'] = frame.seq;
    const token = (m.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    if (isId(token)) attributes['mcp_loupe.progress.token'] = String(token);
    const span: SpanData = { traceId, spanId, name: spanName(method, m.params), kind: fromClient ? 'client' : 'server', startMs: frame.ts, endMs: frame.ts, attributes, events: [], status: { code: 'unset' } };
    if (parentSpanId) span.parentSpanId = parentSpanId;
    if (carried?.traceState) span.traceState = carried.traceState;
    if (spanId === carried?.spanId) {
      if (this.usedIds.size >= 10_000) this.usedIds.clear();
      this.usedIds.add(spanId);
    }
    const open: Open = { span, method, seq: frame.seq, dropped: 0 };
    const key = keyOf(frame.dir, id);
    this.open.set(key, open);
    for (const early of this.early.get(key) ?? []) this.addEvent(open, early);
    this.early.delete(key);
    if (fromClient) this.latest = open;
  }

  private answer(frame: FrameEvent, id: Id, m: Record<string, unknown>): void {
    const key = keyOf(frame.dir === 'in' ? 'out' : 'in', id);
    const open = this.open.get(key);
    if (!open) return;
    this.open.delete(key);
    const facts = answerAttributes(open.method, m, this.options.content);
    Object.assign(open.span.attributes, facts.attributes);
    if (open.method === 'initialize' && typeof facts.attributes['mcp.protocol.version'] === 'string') this.facts.protocolVersion = facts.attributes['mcp.protocol.version'];
    open.span.status = facts.error ? { code: 'error', message: facts.error } : { code: 'unset' };
    open.span.attributes['mcp_loupe.response.seq'] = frame.seq;
    this.finish(open, frame.ts);
    if (this.latest === open) this.latest = [...this.open.values()].reverse().find((o) => o.span.kind === 'client');
  }

  private notification(frame: FrameEvent, method: string, params: unknown): void {
    if (frame.dir === 'in') {
      const target = this.progressTarget(method, params) ?? this.latest;
      if (target) this.addEvent(target, { name: method, timeMs: frame.ts, attributes: notificationAttributes(method, params) });
      else this.unattached++;
      return;
    }
    // The client's own notifications (initialized, cancelled, roots changed): short spans of their own.
    const carried = this.options.source === 'loupe' ? undefined : contextOf({ params });
    const attributes = requestAttributes(method, undefined, params, this.facts, false);
    attributes['mcp_loupe.frame.seq'] = frame.seq;
    const span: SpanData = { traceId: carried?.traceId ?? randomHex(16), spanId: randomHex(8), name: method, kind: 'client', startMs: frame.ts, endMs: frame.ts, attributes, events: [], status: { code: 'unset' } };
    if (carried) span.parentSpanId = carried.spanId;
    this.finish({ span, method, seq: frame.seq, dropped: 0 }, frame.ts);
  }

  /** The call a progress notification is about, by its token where the call's `_meta` gave one. */
  private progressTarget(method: string, params: unknown): Open | undefined {
    if (method !== 'notifications/progress' || this.open.size < 2) return undefined;
    const token = (params as { progressToken?: unknown } | undefined)?.progressToken;
    if (token === undefined) return undefined;
    for (const open of this.open.values()) if (open.span.attributes['mcp_loupe.progress.token'] === String(token)) return open;
    return undefined;
  }

  private intervention(event: InterventionEvent): void {
    const data: SpanEventData = { name: 'mcp_loupe.intervention', timeMs: event.ts, attributes: { 'mcp_loupe.intervention.action': event.action, 'mcp_loupe.intervention.by': event.by, 'mcp_loupe.intervention.message': event.message } };
    if (event.rule) data.attributes!['mcp_loupe.rule.name'] = event.rule.name;
    let original: unknown;
    try {
      original = JSON.parse(event.original);
    } catch {
      original = undefined;
    }
    const o = original !== null && typeof original === 'object' ? (original as Record<string, unknown>) : {};
    if (!isId(o.id)) return void (this.latest && this.addEvent(this.latest, data));
    // A request's key is its sender's direction; an answer's, the other one.
    const requestDir = typeof o.method === 'string' ? event.dir : event.dir === 'out' ? 'in' : 'out';
    const key = keyOf(requestDir, o.id);
    const open = this.open.get(key);
    if (open) this.addEvent(open, data);
    else {
      this.early.set(key, [...(this.early.get(key) ?? []), data].slice(-MAX_EVENTS));
      // A rule that answers requests itself leaves entries no frame will claim: keep the newest only.
      if (this.early.size > 256) this.early.delete(this.early.keys().next().value!);
    }
  }

  private addEvent(open: Open, event: SpanEventData): void {
    if (open.span.events.length < MAX_EVENTS) open.span.events.push(event);
    else open.dropped++;
  }

  private finish(open: Open, at: number): void {
    open.span.endMs = Math.max(at, open.span.startMs);
    if (open.dropped > 0) open.span.attributes['mcp_loupe.events.dropped'] = open.dropped;
    if (this.resource) open.span.resource = this.resource;
    this.options.onSpan(open.span);
  }
}

function notificationAttributes(method: string, params: unknown): Attributes {
  const attributes: Attributes = { 'mcp.method.name': method };
  const p = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  if (method === 'notifications/progress') {
    if (typeof p.progress === 'number') attributes['mcp_loupe.progress'] = p.progress;
    if (typeof p.total === 'number') attributes['mcp_loupe.progress.total'] = p.total;
  }
  if (method === 'notifications/message' && typeof p.level === 'string') attributes['mcp_loupe.log.level'] = p.level;
  return attributes;
}
