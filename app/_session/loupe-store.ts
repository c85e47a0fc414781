/**
 * The tab's store: the socket, the proxy's picture (loupe-state.ts), request/response
 * correlation, and one SessionPort per session (store-port.ts) through which each session's
 * model (session-model.ts) talks to its server. Lives outside React; components read it through
 * useSyncExternalStore (use-store.ts).
 */
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { AddServerMessage, ClientCapabilityChoice, ClientMessage, ResponseMessage, Root, ServerMessage, TraceEvent, UpdateServerMessage } from '../../lib/wire/wire.ts';
import { EventBatcher } from '../_wire/event-batcher.ts';
import { applyMessage, initialState, recordInvalid, type LoupeState, type SocketState } from './loupe-state.ts';
import { localFailure, newRequestId, rawText, type RequestOptions, type RequestOutcome } from '../_wire/request-outcome.ts';
import { StorePort } from '../_wire/store-port.ts';
import { readToken, socketUrl, WireClient } from '../_wire/wire-client.ts';
import { FrameJoin } from '../_wire/frame-join.ts';
import { ExternalStore } from '../_stores/external-store.ts';

export { newRequestId, rawText, type RequestOptions, type RequestOutcome } from '../_wire/request-outcome.ts';

type MessageListener = (message: ServerMessage) => void;

/** What Loupe declares and offers on a new connection (connect envelope; absent = the proxy's defaults). */
export interface ConnectOptions {
  clientCapabilities?: ClientCapabilityChoice;
  roots?: Root[];
  serverRequestTimeoutMs?: number;
  /** How long `initialize` may take (the form's Connect timeout field). */
  connectTimeoutMs?: number;
}

interface Pending {
  resolve(outcome: RequestOutcome): void;
  startedAt: number;
}

export class LoupeStore extends ExternalStore<LoupeState> {
  private readonly messageListeners = new Set<MessageListener>();
  private readonly pending = new Map<string, Pending>();
  private readonly ports = new Map<string, StorePort>();
  private readonly batcher = new EventBatcher((batches) => this.deliver(batches));
  /** The sessions this tab shows (full events wanted); `*` = all. */
  private shown: readonly string[] = [];
  /** Sessions followed beside the shown ones, with how many runs hold each (`follow`). */
  private readonly followed = new Map<string, number>();
  private client?: WireClient;

  constructor() {
    super(initialState());
  }

  /** Every validated proxy message except trace events, as it arrives (server requests, registry). */
  onMessage(listener: MessageListener): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** The port of one session (made on first use, kept until the session is removed). */
  port(session: string): StorePort {
    let port = this.ports.get(session);
    if (!port) {
      port = new StorePort(session, this);
      this.ports.set(session, port);
    }
    return port;
  }

  /**
   * Ask for full events of these sessions only (`['*']`: all); the proxy answers each newly
   * subscribed one with a `trace-reset`. Sent again after every snapshot (a new socket).
   */
  show(sessions: readonly string[]): void {
    const same = sessions.length === this.shown.length && sessions.every((s, i) => s === this.shown[i]);
    this.shown = [...sessions];
    if (!same && this.state.synced) this.send({ type: 'subscribe', sessions: this.wanted() });
  }

  /**
   * Full events of `session` too, until the returned function is called (issue 27: a collection
   * run on a server the tab does not show still sees its frames and notifications).
   */
  follow(session: string): () => void {
    const before = this.wanted().join('\n');
    this.followed.set(session, (this.followed.get(session) ?? 0) + 1);
    if (this.state.synced && this.wanted().join('\n') !== before) this.send({ type: 'subscribe', sessions: this.wanted() });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const was = this.wanted().join('\n');
      const left = (this.followed.get(session) ?? 1) - 1;
      if (left > 0) this.followed.set(session, left);
      else this.followed.delete(session);
      if (this.state.synced && this.wanted().join('\n') !== was) this.send({ type: 'subscribe', sessions: this.wanted() });
    };
  }

  /** The shown sessions and the followed ones (`*` covers them all). */
  private wanted(): string[] {
    if (this.shown.includes('*')) return ['*'];
    return [...new Set([...this.shown, ...this.followed.keys()])];
  }

  /** Send an envelope as is (respond, set-roots …); false when the socket is not open. */
  send(message: ClientMessage): boolean {
    return this.client?.send(message) ?? false;
  }

  /** Open the socket (browser only; idempotent). */
  start(): void {
    if (this.client) return;
    const token = readToken(window.location, window.sessionStorage);
    if (!token) {
      this.setSocket({ phase: 'no-token', attempt: 0 });
      return;
    }
    this.client = new WireClient({
      url: socketUrl(window.location, token),
      onMessage: (message) => this.receive(message),
      onInvalid: (text, error) => this.update(recordInvalid(this.state, text, error)),
      onSocket: (socket) => this.setSocket(socket),
      onClose: () => this.socketClosed(),
    });
    this.client.start();
  }

  stop(): void {
    this.client?.stop();
    this.client = undefined;
    this.batcher.drop();
  }

  retryNow(): void {
    this.client?.retryNow();
  }

  /** Forget the proxy's error messages shown so far (the user dismissed them). */
  dismissErrors(): void {
    if (this.state.proxyErrors.length > 0) this.update({ ...this.state, proxyErrors: [] });
  }

  /** Connect (or reconnect, keeping the history of) `session`; a new session when absent. */
  connect(session: string | undefined, config: ServerConfig, options: ConnectOptions = {}): boolean {
    return this.send({ type: 'connect', config, ...(session !== undefined ? { session } : {}), ...options });
  }

  disconnect(session: string): boolean {
    return this.send({ type: 'disconnect', session });
  }

  /** A new server in the workspace (issue 9); every tab hears of it as a `session`. */
  addServer(message: Omit<AddServerMessage, 'type'>): boolean {
    return this.send({ type: 'add-server', ...message });
  }

  updateServer(message: Omit<UpdateServerMessage, 'type'>): boolean {
    return this.send({ type: 'update-server', ...message });
  }

  removeServer(session: string): boolean {
    return this.send({ type: 'remove-server', session });
  }

  restart(session: string): boolean {
    return this.send({ type: 'restart', session });
  }

  provideInputs(values: Record<string, string>): boolean {
    return this.send({ type: 'provide-inputs', values });
  }

  /** Send an MCP request to a session; resolves with the proxy's response (never rejects). */
  request(session: string, method: string, params: Record<string, unknown> = {}, id = newRequestId(), options: RequestOptions = {}): Promise<RequestOutcome> {
    return this.expect(id, 'Not connected to Loupe; the request was not sent', () => this.send({ type: 'request', session, id, method, params, ...options }));
  }

  /**
   * Send any JSON-RPC message as written (a replay, an edited replay, the raw composer). A request
   * resolves with the server's answer; anything else as soon as the proxy has sent it. It travels
   * as its JSON text (`text`), which the proxy writes exactly: a message of any depth passes.
   * `headers` go on that one HTTP POST (HTTP sessions), over the transport's own.
   */
  sendRaw(session: string, message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', id = newRequestId(), text = rawText(message), headers?: Record<string, string>): Promise<RequestOutcome> {
    return this.expect(id, 'Not connected to Loupe; the message was not sent', () => this.send({ type: 'send-raw', session, id, text, origin, ...(headers ? { headers } : {}) }));
  }

  cancel(session: string, id: string): void {
    this.send({ type: 'cancel', session, id });
  }

  private expect(id: string, notSent: string, sent: () => boolean): Promise<RequestOutcome> {
    const startedAt = performance.now();
    return new Promise((resolve) => {
      if (!sent()) resolve(localFailure(notSent, startedAt));
      else this.pending.set(id, { resolve, startedAt });
    });
  }

  /** Response frames, for the envelopes that refer to theirs (frame-join.ts). */
  private readonly frames = new FrameJoin();

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'events':
        this.frames.note(message.events);
        this.batcher.push(message.events);
        if (message.stats) this.update(applyMessage(this.state, message));
        return;
      case 'response':
        message = this.frames.join(message);
        this.settle(message);
        break;
      case 'progress':
        this.ports.get(message.session)?.progressed(message);
        break;
      case 'snapshot':
        this.applySnapshot(message);
        break;
      case 'trace-reset':
        this.batcher.drop(message.session);
        this.port(message.session).reset(message.events);
        this.update(applyMessage(this.state, message));
        break;
      default:
        this.update(applyMessage(this.state, message));
    }
    this.messageListeners.forEach((listener) => listener(message));
    if (message.type === 'session-removed') this.forget(message.session);
  }

  /** A snapshot holds the tail of every trace: whatever is queued is in it. */
  private applySnapshot(message: Extract<ServerMessage, { type: 'snapshot' }>): void {
    this.batcher.drop();
    this.update(applyMessage(this.state, message));
    const bySession = new Map<string, TraceEvent[]>();
    for (const event of message.events) {
      const list = bySession.get(event.session);
      if (list) list.push(event);
      else bySession.set(event.session, [event]);
    }
    for (const id of [...this.ports.keys()]) if (!this.state.sessions[id]) this.forget(id);
    for (const [id, port] of this.ports) port.reset(bySession.get(id) ?? []);
    for (const [id, events] of bySession) if (!this.ports.has(id)) this.port(id).reset(events);
    if (this.shown.length > 0 || this.followed.size > 0) this.send({ type: 'subscribe', sessions: this.wanted() });
  }

  private deliver(batches: ReadonlyMap<string, TraceEvent[]>): void {
    for (const [session, events] of batches) this.port(session).deliver(events);
  }

  private forget(session: string): void {
    this.batcher.drop(session);
    this.ports.get(session)?.dispose();
    this.ports.delete(session);
  }

  private settle(message: ResponseMessage): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    const where = { ...(message.rpcId !== undefined ? { rpcId: message.rpcId } : {}), ...(message.ok && message.frameSeq !== undefined ? { frameSeq: message.frameSeq } : {}) };
    pending.resolve(
      message.ok
        ? { ok: true, result: message.result, durationMs: message.durationMs, ...where }
        : { ok: false, error: message.error, durationMs: message.durationMs, ...where },
    );
  }

  private socketClosed(): void {
    this.batcher.flush();
    const lost = [...this.pending.values()];
    this.pending.clear();
    lost.forEach((p) => p.resolve(localFailure('The connection to Loupe dropped before the answer arrived', p.startedAt)));
    this.update({ ...this.state, synced: false });
  }

  private setSocket(socket: Omit<SocketState, 'everOpened'>): void {
    const everOpened = this.state.socket.everOpened || socket.phase === 'open';
    this.update({ ...this.state, socket: { ...socket, everOpened } });
  }

  private update(next: LoupeState): void {
    if (next === this.state) return;
    this.set(next);
  }
}
