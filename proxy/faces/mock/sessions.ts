/**
 * The Streamable HTTP sessions of a mock (issue 21). A client's test suite opens a session per test
 * and seldom ends it with an HTTP DELETE, so the mock filled up: 256 sessions, then 503 until it
 * was restarted. Now a session without a request for `idleMs` is closed, as the gateway closes its
 * clients' (10 minutes by default), and at the cap the session idle the longest makes room for a
 * new one. A client that comes back to a closed session gets 404, on which the spec's clients start
 * a new session ("Session Management", basic/transports).
 */
import { describeDuration } from '../../listen/body-limits.ts';

/** Each session holds a conversation: a cap, so that a suite that never ends its sessions cannot grow the mock without bound. */
export const MAX_MOCK_SESSIONS = 256;
/** The gateway's default idle (`--gateway-idle`). */
export const MOCK_IDLE_MS = 10 * 60_000;

export interface MockSession {
  /** The client's number, for the log. */
  readonly number: number;
  close(): Promise<void>;
}

interface Tracked<S> {
  session: S;
  /** HTTP exchanges open now (a request, or a GET stream); idle only at 0. */
  exchanges: number;
  idleSince: number;
  timer?: ReturnType<typeof setTimeout>;
}

export interface MockSessionsOptions {
  max?: number;
  idleMs?: number;
  log: (line: string) => void;
}

export class MockSessions<S extends MockSession> {
  private readonly byId = new Map<string, Tracked<S>>();
  private readonly max: number;
  private readonly idleMs: number;
  private readonly log: (line: string) => void;

  constructor(options: MockSessionsOptions) {
    this.max = options.max ?? MAX_MOCK_SESSIONS;
    this.idleMs = options.idleMs ?? MOCK_IDLE_MS;
    this.log = options.log;
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): S | undefined {
    return this.byId.get(id)?.session;
  }

  /** A session the transport has just initialized: idle from now until its next request. */
  add(id: string, session: S): void {
    const tracked: Tracked<S> = { session, exchanges: 0, idleSince: Date.now() };
    this.byId.set(id, tracked);
    this.armIdle(id, tracked);
  }

  /** Closed (DELETE, the transport's close, the idle timer): forgotten. */
  delete(id: string): void {
    const tracked = this.byId.get(id);
    if (!tracked) return;
    clearTimeout(tracked.timer);
    this.byId.delete(id);
  }

  /** An HTTP exchange of the session starts; the session is idle again once every exchange has closed. */
  busy(id: string, closed: { once(event: 'close', listener: () => void): unknown }): void {
    const tracked = this.byId.get(id);
    if (!tracked) return;
    tracked.exchanges++;
    clearTimeout(tracked.timer);
    closed.once('close', () => {
      if (--tracked.exchanges > 0 || this.byId.get(id) !== tracked) return;
      tracked.idleSince = Date.now();
      this.armIdle(id, tracked);
    });
  }

  /**
   * Room for one more session: at the cap, the session idle the longest is closed. False when every
   * session has an exchange open (then the new client is refused with 503).
   */
  async makeRoom(): Promise<boolean> {
    if (this.byId.size < this.max) return true;
    let oldest: [string, Tracked<S>] | undefined;
    for (const entry of this.byId) if (entry[1].exchanges === 0 && (!oldest || entry[1].idleSince < oldest[1].idleSince)) oldest = entry;
    if (!oldest) return false;
    const [id, { session }] = oldest;
    this.log(`Loupe mock: ${this.max} client sessions are open: closed client ${session.number}'s, idle the longest, for a new one.`);
    this.delete(id);
    await session.close().catch(() => undefined);
    return true;
  }

  async closeAll(): Promise<void> {
    const all = [...this.byId.values()];
    for (const tracked of all) clearTimeout(tracked.timer);
    this.byId.clear();
    await Promise.all(all.map((t) => t.session.close().catch(() => undefined)));
  }

  private armIdle(id: string, tracked: Tracked<S>): void {
    clearTimeout(tracked.timer);
    tracked.timer = setTimeout(() => {
      if (this.byId.get(id) !== tracked || tracked.exchanges > 0) return;
      this.log(`Loupe mock: closed client ${tracked.session.number}'s session after ${describeDuration(this.idleMs)} without a request.`);
      this.delete(id);
      void tracked.session.close().catch(() => undefined);
    }, this.idleMs);
    // A mock that is done (its HTTP server closed) must not wait for a session's idle timer.
    tracked.timer.unref();
  }
}
