/** The SessionPort the tab store hands each session's model (session-port.ts). */
import type { ClientMessage, ProgressMessage, TraceEvent } from '../../lib/wire/wire.ts';
import type { LoupeState } from '../_session/loupe-state.ts';
import type { RequestOptions, RequestOutcome } from './request-outcome.ts';
import { EventLog, type SessionPort, type SessionView } from './session-port.ts';
import { ExternalStore } from '../_stores/external-store.ts';

/** What a port needs of the tab store: its state, and the socket addressed to a session. */
export interface PortHost {
  getSnapshot(): LoupeState;
  subscribe(listener: () => void): () => void;
  request(session: string, method: string, params?: Record<string, unknown>, id?: string, options?: RequestOptions): Promise<RequestOutcome>;
  sendRaw(session: string, message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', id?: string, text?: string, headers?: Record<string, string>): Promise<RequestOutcome>;
  cancel(session: string, id: string): void;
  send(message: ClientMessage): boolean;
}

class Listeners<T extends unknown[]> {
  private readonly set = new Set<(...args: T) => void>();
  add(listener: (...args: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  emit(...args: T): void {
    this.set.forEach((listener) => listener(...args));
  }
}

/** The session's part of the tab store's state. */
function viewOf(host: PortHost, session: string): SessionView {
  const state = host.getSnapshot();
  return { info: state.sessions[session], synced: state.synced, syncCount: state.syncCount, stats: state.stats[session] };
}

export class StorePort extends ExternalStore<SessionView> implements SessionPort {
  readonly log = new EventLog();
  private readonly events = new Listeners<[readonly TraceEvent[]]>();
  private readonly resets = new Listeners<[]>();
  private readonly progress = new Listeners<[ProgressMessage]>();

  constructor(
    readonly id: string,
    private readonly host: PortHost,
  ) {
    super(viewOf(host, id));
    this.onDispose(host.subscribe(() => this.follow()));
  }

  onEvents = (listener: (events: readonly TraceEvent[]) => void): (() => void) => this.events.add(listener);
  onReset = (listener: () => void): (() => void) => this.resets.add(listener);
  onProgress = (listener: (message: ProgressMessage) => void): (() => void) => this.progress.add(listener);

  request(method: string, params: Record<string, unknown> = {}, id?: string, options?: RequestOptions): Promise<RequestOutcome> {
    return this.host.request(this.id, method, params, id, options);
  }

  sendRaw(message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', id?: string, text?: string, headers?: Record<string, string>): Promise<RequestOutcome> {
    return this.host.sendRaw(this.id, message, origin, id, text, headers);
  }

  cancel(id: string): void {
    this.host.cancel(this.id, id);
  }

  send(message: ClientMessage): boolean {
    return this.host.send(message);
  }

  // The tab store's side.

  deliver(events: readonly TraceEvent[]): void {
    this.log.append(events);
    this.events.emit(events);
  }

  /**
   * The proxy replaced the trace (a snapshot, or `trace-reset` after a subscribe). What is newer
   * than what the stores saw is also handed on as live events: a list_changed or a task status
   * that came while this tab was not subscribed still counts.
   */
  reset(events: readonly TraceEvent[]): void {
    const before = this.log.events;
    const seen = before.length > 0 ? before[before.length - 1].seq : undefined;
    this.log.reset(events);
    this.resets.emit();
    const missed = seen === undefined ? [] : events.filter((e) => e.seq > seen);
    if (missed.length > 0) this.events.emit(missed);
  }

  progressed(message: ProgressMessage): void {
    this.progress.emit(message);
  }

  private follow(): void {
    const next = viewOf(this.host, this.id);
    const now = this.state;
    if (next.info === now.info && next.synced === now.synced && next.syncCount === now.syncCount && next.stats === now.stats) return;
    this.set(next);
  }
}
