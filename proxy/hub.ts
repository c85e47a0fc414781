/**
 * The session registry and the proxy side of the wire protocol (lib/wire.ts): every tab's
 * WebSocket sees every session; trace events are batched per tick so that a flood of frames costs
 * one message per tick, not one per frame.
 */
import type { RawData, WebSocket } from 'ws';
import type { ServerConfig } from '../lib/server-config-types.ts';
import { parseClientMessage, WIRE_VERSION, type ClientMessage, type LoupeError, type SendRawMessage, type ServerMessage, type SessionInfo, type TraceEvent, type TraceStats } from '../lib/wire.ts';
import { asRequestId, internalError, isWireError, progressOf, rawMessageOf, serialise, type ResponseHead } from './hub-messages.ts';
import type { RawOutcome } from './raw-router.ts';
import { ServerRequestBroker } from './server-requests.ts';
import { Session } from './session.ts';
import { TraceRecorder, type TraceLimits, DEFAULT_TRACE_LIMITS } from './trace-recorder.ts';

/** A tab that cannot keep up is disconnected (it reconnects and gets a fresh snapshot) rather than growing our memory without bound. */
const MAX_BUFFERED_BYTES = 512 * 1024 * 1024;
const FLUSH_DELAY_MS = 4;

export class Hub {
  private readonly sessions = new Map<string, Session>();
  private readonly clients = new Set<WebSocket>();
  private pending: TraceEvent[] = [];
  private readonly droppedSent = new Map<string, number>();
  private flushScheduled = false;
  private nextId = 1;
  primary?: string;
  private readonly broker = new ServerRequestBroker({
    added: (request) => this.broadcastNow({ type: 'server-request', request }),
    done: (session, requestId, how) => this.broadcastNow({ type: 'server-request-done', session, requestId, how }),
  });

  /** `connectTimeoutMs`: the `--connect-timeout` of the launch, for every session (the page's connect may override it). */
  constructor(
    private readonly traceLimits: TraceLimits = DEFAULT_TRACE_LIMITS,
    private readonly defaults: { connectTimeoutMs?: number } = {},
  ) {}

  createSession(config: ServerConfig): Session {
    const id = `s${this.nextId++}`;
    const trace = new TraceRecorder(id, this.traceLimits);
    trace.subscribe((event) => this.queue(event));
    const session = new Session(id, config, trace, (info) => this.onSessionChange(info), this.broker, this.defaults.connectTimeoutMs);
    this.sessions.set(id, session);
    return session;
  }

  session(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  attach(ws: WebSocket): void {
    // What is queued is in the snapshot: it goes to the other tabs before this one joins them (else
    // this tab would get those events twice, in an `events` message and in its snapshot).
    this.flush();
    this.clients.add(ws);
    this.sendTo(ws, this.snapshot());
    ws.on('message', (data, isBinary) => this.onSocketMessage(ws, data, isBinary));
    ws.on('close', () => this.clients.delete(ws));
    ws.on('error', () => this.clients.delete(ws));
  }

  /**
   * Stops every session in whatever state (connecting, connected, disconnecting) and so every
   * process group Loupe started (SIGKILL after the grace; stdio-transport.ts), in parallel.
   */
  async shutdown(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((s) => s.shutdown()));
    this.flush();
    for (const ws of this.clients) ws.close(1001, 'Loupe is shutting down');
  }

  private snapshot(): ServerMessage {
    const sessions = [...this.sessions.values()];
    return {
      type: 'snapshot',
      version: WIRE_VERSION,
      sessions: sessions.map((s) => s.snapshot()),
      events: sessions.flatMap((s) => s.trace.all()),
      stats: sessions.map((s) => s.trace.stats()),
      primary: this.primary,
      serverRequests: this.broker.list(),
    };
  }

  /** Nothing a page sends may take the proxy down: every failure becomes an `error` (or a failed `response`) to that tab. */
  private onSocketMessage(ws: WebSocket, data: RawData, isBinary: boolean): void {
    try {
      if (isBinary) return this.sendError(ws, { code: 'BAD_MESSAGE', message: 'Binary messages are not part of the protocol.' });
      this.receive(ws, Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8')).catch((error: unknown) => this.sendError(ws, internalError(error)));
    } catch (error) {
      this.sendError(ws, internalError(error));
    }
  }

  private async receive(ws: WebSocket, text: string): Promise<void> {
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.sendError(ws, { code: 'BAD_MESSAGE', message: `Could not read a message from the page: ${parsed.error.slice(0, 500)}` });
    const message = parsed.message;
    try {
      await this.dispatch(ws, message);
    } catch (error) {
      // A request's caller waits for its id: it gets the failure as its response.
      if (message.type === 'request' || message.type === 'send-raw') {
        this.sendTo(ws, { type: 'response', id: message.id, session: message.session, ok: false, error: internalError(error), durationMs: 0 });
      } else this.sendError(ws, internalError(error));
    }
  }

  private async dispatch(ws: WebSocket, message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'connect': {
        const existing = message.session ? this.sessions.get(message.session) : undefined;
        const session = existing ?? this.createSession(message.config);
        const { clientCapabilities, roots, serverRequestTimeoutMs, connectTimeoutMs } = message;
        return session.connect(message.config, { clientCapabilities, roots, serverRequestTimeoutMs, connectTimeoutMs });
      }
      case 'disconnect':
        return this.withSession(ws, message.session, (s) => s.disconnect());
      case 'cancel':
        return this.withSession(ws, message.session, (s) => void s.cancel(message.id));
      case 'set-roots':
        return this.withSession(ws, message.session, (s) => s.setRoots(message.roots));
      case 'respond':
        if (!this.broker.respond(message.session, message.requestId, message.outcome)) {
          this.sendError(ws, {
            code: 'NOT_PENDING',
            message: 'That server request is no longer pending (answered elsewhere, timed out, or its session closed).',
            detail: { requestId: message.requestId },
          });
        }
        return;
      case 'send-raw':
        return this.withSession(ws, message.session, (s) => this.sendRaw(ws, s, message));
      case 'request':
        return this.withSession(ws, message.session, async (s) => {
          const started = performance.now();
          const outcome = await s.request(message.id, message.method, message.params, {
            timeoutMs: message.timeoutMs,
            resetTimeoutOnProgress: message.resetTimeoutOnProgress,
            maxTotalTimeoutMs: message.maxTotalTimeoutMs,
            // Progress is asked for on tool calls (and wherever the page put a progressToken): on
            // every request it would add a `_meta` the user did not write to the frames.
            onProgress: wantsProgress(message.method, message.params)
              ? (p) => {
                  const progress = progressOf(p);
                  if (progress) this.sendTo(ws, { type: 'progress', id: message.id, session: s.id, ...progress });
                }
              : undefined,
          });
          // The response goes out before the tick's batch of trace events (the frames follow within
          // the same tick): a caller waiting on the result does not wait for the trace's serialisation.
          this.sendOutcome(ws, { type: 'response', id: message.id, session: s.id, durationMs: performance.now() - started, rpcId: 'rpcId' in outcome ? outcome.rpcId : undefined }, outcome);
        });
    }
  }

  private async sendRaw(ws: WebSocket, s: Session, message: SendRawMessage): Promise<void> {
    const started = performance.now();
    const raw = rawMessageOf(message);
    const base = { type: 'response' as const, id: message.id, session: s.id };
    if (!raw.ok) return this.sendTo(ws, { ...base, ok: false, error: raw.error, durationMs: 0 });
    const outcome = await s.sendRaw(raw.message, message.origin, message.timeoutMs);
    this.sendOutcome(ws, { ...base, durationMs: performance.now() - started, rpcId: asRequestId(raw.message.id) }, outcome);
  }

  /**
   * The server's answer as the page's `response`. Where the transport kept the frame's text, the
   * envelope is built around it as text (the `frame` member, lib/wire.ts): a result of any depth
   * goes to the page without being serialised again.
   */
  private sendOutcome(ws: WebSocket, base: ResponseHead, outcome: RawOutcome): void {
    if (!outcome.ok && !isWireError(outcome.error)) {
      const error: LoupeError = { code: 'BAD_MESSAGE', message: 'The server answered with an error that is not a JSON-RPC error object (it needs a numeric "code" and a string "message"); its frame is in History.' };
      return this.sendTo(ws, { ...base, ok: false, error });
    }
    if (outcome.frame !== undefined) {
      const head = JSON.stringify({ ...base, ok: outcome.ok });
      return this.sendText(ws, `${head.slice(0, -1)},"frame":${outcome.frame}}`);
    }
    this.sendTo(ws, outcome.ok ? { ...base, ok: true, result: outcome.result } : { ...base, ok: false, error: outcome.error });
  }

  private async withSession(ws: WebSocket, id: string, act: (s: Session) => void | Promise<void>): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return this.sendError(ws, { code: 'NO_SESSION', message: `No session ${id}.` });
    await act(session);
  }

  private onSessionChange(info: SessionInfo): void {
    this.flush();
    this.broadcast({ type: 'session', session: info });
  }

  private queue(event: TraceEvent): void {
    this.pending.push(event);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // A few milliseconds of coalescing: a request's frames go out in one message after its
    // response (not in the way of it), and a flood costs one message per window. The page itself
    // draws in 50 ms batches.
    setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    const stats = this.changedStats(events);
    this.broadcast(stats.length > 0 ? { type: 'events', events, stats } : { type: 'events', events });
  }

  /** Trace stats of the sessions in this batch whose dropped count moved: the page shows drops live. */
  private changedStats(events: TraceEvent[]): TraceStats[] {
    const out: TraceStats[] = [];
    for (const id of new Set(events.map((e) => e.session))) {
      const stats = this.sessions.get(id)?.trace.stats();
      if (!stats || stats.dropped === (this.droppedSent.get(id) ?? 0)) continue;
      this.droppedSent.set(id, stats.dropped);
      out.push(stats);
    }
    return out;
  }

  /** For messages that must not overtake the trace events already queued. */
  private broadcastNow(message: ServerMessage): void {
    this.flush();
    this.broadcast(message);
  }

  private broadcast(message: ServerMessage): void {
    if (this.clients.size === 0) return;
    const text = serialise(message);
    for (const ws of this.clients) this.sendText(ws, text);
  }

  private sendTo(ws: WebSocket, message: ServerMessage): void {
    this.sendText(ws, serialise(message));
  }

  private sendText(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'The page fell too far behind; reload to resume');
      return;
    }
    try {
      ws.send(text);
    } catch {
      // The socket went away between the check and the send: its 'close' handler removes it.
    }
  }

  private sendError(ws: WebSocket, error: LoupeError): void {
    this.sendTo(ws, { type: 'error', error });
  }
}

function wantsProgress(method: string, params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta as { progressToken?: unknown } | undefined;
  return method === 'tools/call' || meta?.progressToken !== undefined;
}
