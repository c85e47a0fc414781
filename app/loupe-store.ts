/**
 * The tab's one store: proxy state (loupe-state.ts) plus request/response correlation.
 * Lives outside React; components read it through useSyncExternalStore (use-store.ts).
 */
import type { ServerConfig } from '../lib/server-config-types.ts';
import type { ClientCapabilityChoice, ClientMessage, LoupeError, ResponseMessage, Root, RpcError, ServerMessage, TraceEvent } from '../lib/wire.ts';
import {
  appendEvents,
  applyMessage,
  initialState,
  recordInvalid,
  selectSession,
  type LoupeState,
  type SocketState,
} from './loupe-state.ts';
import { stringifySafe } from '../lib/safe-json.ts';
import { readToken, socketUrl, WireClient } from './wire-client.ts';

/** The answer to one request: the proxy's response without its envelope fields. */
export type RequestOutcome =
  | { ok: true; result: unknown; durationMs: number }
  | { ok: false; error: RpcError | LoupeError; durationMs: number };

type Listener = () => void;

/** Trace events are folded in at most this often, so a flood of frames never re-renders per message. */
const EVENT_FLUSH_MS = 50;
type EventsListener = (events: readonly TraceEvent[]) => void;
type MessageListener = (message: ServerMessage) => void;

/** What Loupe declares and offers on a new connection (connect envelope; absent = the proxy's defaults). */
export interface ConnectOptions {
  clientCapabilities?: ClientCapabilityChoice;
  roots?: Root[];
  serverRequestTimeoutMs?: number;
  /** How long `initialize` may take (the form's Connect timeout field). */
  connectTimeoutMs?: number;
}

/** Per-request timeouts (request envelope; absent = the proxy's defaults). */
export interface RequestOptions {
  timeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
}

interface Pending {
  resolve(outcome: RequestOutcome): void;
  startedAt: number;
}

function localFailure(message: string, startedAt: number): RequestOutcome {
  return { ok: false, error: { code: 'NOT_CONNECTED', message }, durationMs: performance.now() - startedAt };
}

/** The compact JSON text the proxy will record for `message` (what the trace's frame will hold). */
export function rawText(message: Record<string, unknown>): string {
  return stringifySafe(message) ?? '{}';
}

export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class LoupeStore {
  private state: LoupeState = initialState();
  private readonly listeners = new Set<Listener>();
  private readonly eventListeners = new Set<EventsListener>();
  private readonly messageListeners = new Set<MessageListener>();
  private readonly pending = new Map<string, Pending>();
  private client?: WireClient;
  private queued: TraceEvent[] = [];
  private flushTimer?: ReturnType<typeof setTimeout>;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): LoupeState => this.state;

  /** Live trace events as they arrive (not the snapshot's history): for list_changed and friends. */
  onEvents(listener: EventsListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Every validated proxy message except trace events, as it arrives: for stores that own other messages (server requests). */
  onMessage(listener: MessageListener): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
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
    this.dropQueue();
  }

  retryNow(): void {
    this.client?.retryNow();
  }

  /** Forget the proxy's error messages shown so far (the user dismissed them). */
  dismissErrors(): void {
    if (this.state.proxyErrors.length > 0) this.update({ ...this.state, proxyErrors: [] });
  }

  select(sessionId: string): void {
    this.update(selectSession(this.state, sessionId));
  }

  /** Connect (or reconnect, keeping the history of) the current session. */
  connect(config: ServerConfig, options: ConnectOptions = {}): boolean {
    return this.client?.send({ type: 'connect', config, session: this.state.current, ...options }) ?? false;
  }

  disconnect(session: string): boolean {
    return this.client?.send({ type: 'disconnect', session }) ?? false;
  }

  /** Send an MCP request to a session; resolves with the proxy's response (never rejects). */
  request(session: string, method: string, params: Record<string, unknown> = {}, id = newRequestId(), options: RequestOptions = {}): Promise<RequestOutcome> {
    const startedAt = performance.now();
    return new Promise((resolve) => {
      if (!this.client?.send({ type: 'request', session, id, method, params, ...options })) {
        resolve(localFailure('Not connected to Loupe; the request was not sent', startedAt));
        return;
      }
      this.pending.set(id, { resolve, startedAt });
    });
  }

  /**
   * Send any JSON-RPC message as written (a replay, an edited replay, the raw composer). A request
   * resolves with the server's answer; anything else as soon as the proxy has sent it. It travels
   * as its JSON text (`text`), which the proxy writes exactly: a message of any depth passes.
   */
  sendRaw(session: string, message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', id = newRequestId(), text = rawText(message)): Promise<RequestOutcome> {
    const startedAt = performance.now();
    return new Promise((resolve) => {
      if (!this.client?.send({ type: 'send-raw', session, id, text, origin })) {
        resolve(localFailure('Not connected to Loupe; the message was not sent', startedAt));
        return;
      }
      this.pending.set(id, { resolve, startedAt });
    });
  }

  cancel(session: string, id: string): void {
    this.client?.send({ type: 'cancel', session, id });
  }

  private receive(message: ServerMessage): void {
    if (message.type !== 'events') this.messageListeners.forEach((listener) => listener(message));
    if (message.type === 'response') {
      this.settle(message);
      return;
    }
    if (message.type === 'events') {
      this.queue(message.events);
      if (message.stats) this.update(applyMessage(this.state, { ...message, events: [] }));
      return;
    }
    // A snapshot already holds every event the proxy kept: whatever is queued is in it.
    if (message.type === 'snapshot') this.dropQueue();
    this.update(applyMessage(this.state, message));
  }

  private queue(events: readonly TraceEvent[]): void {
    this.queued.push(...events);
    this.flushTimer ??= setTimeout(() => this.flush(), EVENT_FLUSH_MS);
  }

  private flush(): void {
    const batch = this.queued;
    this.dropQueue();
    if (batch.length === 0) return;
    this.update(appendEvents(this.state, batch));
    this.eventListeners.forEach((listener) => listener(batch));
  }

  private dropQueue(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.queued = [];
  }

  private settle(message: ResponseMessage): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    pending.resolve(
      message.ok
        ? { ok: true, result: message.result, durationMs: message.durationMs }
        : { ok: false, error: message.error, durationMs: message.durationMs },
    );
  }

  private socketClosed(): void {
    this.flush();
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
    this.state = next;
    this.listeners.forEach((listener) => listener());
  }
}
