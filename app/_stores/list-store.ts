/**
 * One server-side list (tools, resources, resource templates, prompts) of one session:
 * listed when the session connects (if the server declared the capability), re-listed when the
 * server sends the matching `notifications/…/list_changed`.
 *
 * On a 2026-07-28 session a list result may carry a cache hint (`ttlMs`, `cacheScope`): the user's
 * Refresh within that time serves the list already held and says so, `Fetch again` asks anyway,
 * and a `list_changed` (the server saying the list changed) always lists again. Legacy sessions
 * ignore hints.
 */
import type { TraceEvent } from '../../lib/wire/wire.ts';
import { fetchAllPages, type PageOutcome } from '../../lib/client/paged-list.ts';
import { mergeCacheHints, readCacheHint, type CacheHint, type ListSpec } from './list-specs.ts';

export type { ListSpec };
import { connectionKey } from '../_session/scoped.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { ExternalStore } from './external-store.ts';

export interface ListState<T> {
  /** `sessionId@since` of the connection the items belong to. */
  connection?: string;
  status: 'idle' | 'unsupported' | 'loading' | 'done' | 'error';
  items: readonly T[];
  problems: readonly string[];
  pages: number;
  note?: string;
  error?: string;
  /** How many times the list was fetched for this connection. */
  fetches: number;
  /** `syncCount` when the last fetch started: a fetch cut off by a dropped socket is retried once per new socket. */
  atSync: number;
  /** `list_changed` notifications seen for this connection (a burst costs one or two listings). */
  changes: number;
  /** The server's cache hint on the last listing (modern sessions), and until when (ms since the epoch) it holds. */
  cache?: CacheHint & { until: number };
  /** Refresh was answered from the cache hint: when, and how long the hint still held then. */
  servedFromCache?: { at: number; leftMs: number };
  /**
   * List now whatever the hint says (`Fetch again`). Part of the state, bound once, so that the
   * views that pass the whole state to the list status get the button without another prop.
   */
  onFetchAgain?: () => void;
}

const IDLE: ListState<never> = { status: 'idle', items: [], problems: [], pages: 0, fetches: 0, atSync: 0, changes: 0 };

/**
 * `list_changed` is acted on once the server has been quiet this long (a burst is one
 * re-listing)…
 */
export const LIST_CHANGED_DEBOUNCE_MS = 100;
/** …or at the latest this long after the first unanswered one (a flood that never stops still re-lists). */
export const LIST_CHANGED_MAX_WAIT_MS = 1_000;

export class ListStore<T> extends ExternalStore<ListState<T>> {
  private generation = 0;
  private again = false;
  private debounce?: ReturnType<typeof setTimeout>;
  /** When the first and the last `list_changed` not yet covered by a listing arrived (ms). */
  private changedSince?: number;
  private changedLast = 0;

  constructor(
    private readonly port: SessionPort,
    private readonly spec: ListSpec<T>,
  ) {
    super(IDLE);
    this.onDispose(port.subscribe(() => this.evaluate()), port.onEvents((events) => this.watch(events)));
    this.evaluate();
  }

  override dispose(): void {
    clearTimeout(this.debounce);
    super.dispose();
  }

  /**
   * The user's Refresh: within the server's cache hint (modern sessions) the list held is served
   * and marked so; otherwise it lists again.
   */
  refresh(): void {
    const cache = this.state.cache;
    const now = Date.now();
    if (cache && this.state.status === 'done' && now < cache.until && this.port.getSnapshot().info?.era === 'modern') {
      this.set({ ...this.state, servedFromCache: { at: now, leftMs: cache.until - now }, onFetchAgain: this.fetchAgain });
      return;
    }
    this.relist();
  }

  /** `Fetch again`: list now, whatever the cache hint says. */
  readonly fetchAgain = (): void => this.relist();

  /** List again now (the user asked past the hint, or the server said the list changed). */
  private relist(): void {
    const session = this.port.getSnapshot().info;
    const key = connectionKey(session);
    if (!session || key === undefined || this.state.status === 'unsupported' || session.relay) return;
    if (this.state.status === 'loading') {
      this.again = true;
      return;
    }
    void this.load(key, this.state.connection === key ? this.state : { ...IDLE, connection: key });
  }

  private evaluate(): void {
    const app = this.port.getSnapshot();
    const session = app.info;
    const key = connectionKey(session);
    // Not connected: the last list stays on show (marked by the status) until a new connection lists again.
    if (!session || key === undefined) return;
    if (key === this.state.connection) {
      // A list that failed because the socket dropped is fetched again once the socket is back.
      if (this.state.status === 'error' && app.synced && app.syncCount > this.state.atSync) this.relist();
      return;
    }
    // A session Loupe watches (tap, gateway) carries the host's traffic only: Loupe sends nothing of its own there.
    if (session.relay) {
      this.set({ ...IDLE, connection: key });
      return;
    }
    if (!session.capabilities || !(this.spec.capability in session.capabilities)) {
      this.set({ ...IDLE, connection: key, status: 'unsupported' });
      return;
    }
    // The last items stay on show while the new connection lists (marked loading): a tool form the
    // user is typing in right after a reconnect stays mounted, and keeps what was typed.
    if (app.synced) void this.load(key, { ...IDLE, connection: key, items: this.state.items });
  }

  private watch(events: readonly TraceEvent[]): void {
    let changed = 0;
    for (const e of events) if (e.kind === 'frame' && e.dir === 'in' && e.method === this.spec.listChanged) changed += 1;
    if (changed === 0 || this.state.connection === undefined) return;
    this.set({ ...this.state, changes: this.state.changes + changed });
    const now = Date.now();
    this.changedSince ??= now;
    this.changedLast = now;
    // At most one listing in flight and one trailing (issue 8): mid-listing, the end of the
    // listing schedules the trailing one; otherwise wait for the rest of the burst.
    if (this.state.status !== 'loading') this.scheduleTrailing();
  }

  /** One re-listing once the burst is quiet (or has gone on for the maximum wait). */
  private scheduleTrailing(): void {
    if (this.changedSince === undefined) return;
    const now = Date.now();
    const wait = Math.max(0, Math.min(this.changedLast + LIST_CHANGED_DEBOUNCE_MS, this.changedSince + LIST_CHANGED_MAX_WAIT_MS) - now);
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.changedSince = undefined;
      this.relist();
    }, wait);
  }

  private forgetChanges(): void {
    clearTimeout(this.debounce);
    this.debounce = undefined;
    this.changedSince = undefined;
  }

  private async load(key: string, from: ListState<T>): Promise<void> {
    const generation = ++this.generation;
    this.again = false;
    // This listing covers every change announced so far; what arrives from now on gets one trailing listing.
    this.forgetChanges();
    this.set({ ...from, connection: key, status: 'loading', fetches: from.fetches + 1, atSync: this.port.getSnapshot().syncCount, servedFromCache: undefined, onFetchAgain: undefined });
    const modern = this.port.getSnapshot().info?.era === 'modern';
    let hint: CacheHint | undefined;
    const result = await fetchAllPages(async (cursor): Promise<PageOutcome> => {
      const outcome = await this.port.request(this.spec.method, cursor === undefined ? {} : { cursor });
      if (outcome.ok && modern) hint = mergeCacheHints(hint, readCacheHint(outcome.result));
      return outcome;
    }, this.spec.itemsKey);
    if (generation !== this.generation) return;
    const parsed = this.spec.parse(result.items);
    this.set({
      ...this.state,
      cache: hint && result.error === undefined ? { ...hint, until: Date.now() + hint.ttlMs } : undefined,
      status: result.error === undefined ? 'done' : 'error',
      items: parsed.items,
      problems: parsed.problems,
      pages: result.pages,
      note: result.note,
      error: result.error,
    });
    if (this.changedSince !== undefined) this.scheduleTrailing();
    else if (this.again) this.relist();
  }
}
