/**
 * The merged History of the `All servers` view (issue 9): every session's rows in time order
 * (lib/trace/merge.ts), a server filter on top of the History filter, and the selected row.
 *
 * It reads each session's own trace index (its TraceStore's live index: the frames are parsed and
 * paired once, not again for this view) and follows it: a batch costs that batch merged into the
 * tail it overlaps; a new index (a `trace-reset`) costs one linear merge of that session; filtering
 * everything happens only when the filter changes, or when pairing matters to it (fold, errors).
 * Made while the view is shown and disposed after; the filter outlives that (`remembered`).
 */
import { dependsOnPairing, EMPTY_FILTER, type QueryContext, type TraceFilter } from '../../lib/trace/filter.ts';
import type { TraceIndex } from '../../lib/trace/row-index.ts';
import { filterMerged, indexOfMerged, mergeInto, mergeSorted, removeSessionRows, sortedRows, type MergedFilter } from '../../lib/trace/merge.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { LoupeState } from '../_session/loupe-state.ts';
import type { SessionModel } from '../_session/model.ts';
import { ExternalStore } from './external-store.ts';

export const MERGED_FILTER_MEASURE = 'loupe:merged-filter';

export interface MergedHistoryView {
  /** The rows the filters let through, in time order (mutable; read with `version`). */
  rows: readonly HistoryRow[];
  /** Rows of every session. */
  total: number;
  version: number;
  filter: TraceFilter;
  /** The server filter: session ids, empty for every server. */
  sessions: readonly string[];
  selected?: HistoryRow;
  /** Bumped to scroll the selected row into view. */
  scrollToken: number;
}

/** What the merged store needs of the tab: the sessions, and each one's model. */
export interface MergedHost {
  getSnapshot(): Pick<LoupeState, 'order' | 'sessions'>;
  subscribe(listener: () => void): () => void;
  model(id: string): SessionModel;
}

interface Source {
  index: TraceIndex;
  lastSeq: number;
  minSeq: number;
  version: number;
  /** The index's `flags` when last merged (a spec event marking an earlier row bumps it). */
  flags: number;
  off: () => void;
}

/** The filters of the merged History, kept while the view is not shown. */
const remembered = new WeakMap<object, MergedFilter>();

/** Index of the first row with a seq above `seq` (rows are in seq order). */
function firstAfter(rows: readonly HistoryRow[], seq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class MergedHistoryStore extends ExternalStore<MergedHistoryView> {
  private readonly sources = new Map<string, Source>();
  private all: HistoryRow[] = [];
  private shown: HistoryRow[];
  private filters: MergedFilter;
  /** `server:` in a query: the name of the row's session. */
  private readonly queryContext: QueryContext = { serverOf: (row) => this.host.getSnapshot().sessions[row.event.session]?.name };

  constructor(private readonly host: MergedHost) {
    const filters = remembered.get(host) ?? { filter: EMPTY_FILTER, sessions: [] };
    const shown: HistoryRow[] = [];
    super({ rows: shown, total: 0, version: 0, filter: filters.filter, sessions: filters.sessions, scrollToken: 0 });
    this.shown = shown;
    this.filters = filters;
    this.onDispose(host.subscribe(() => this.followSessions()));
    this.followSessions();
  }

  override dispose(): void {
    super.dispose();
    for (const source of this.sources.values()) source.off();
    this.sources.clear();
  }

  /** Methods seen in every session, with their row counts. */
  methods(): Map<string, number> {
    const out = new Map<string, number>();
    for (const { index } of this.sources.values()) for (const [method, n] of index.methods) out.set(method, (out.get(method) ?? 0) + n);
    return out;
  }

  violations(): number {
    let n = 0;
    for (const { index } of this.sources.values()) n += index.violationRows;
    return n;
  }

  setFilter(patch: Partial<TraceFilter>): void {
    this.setFilters({ ...this.filters, filter: { ...this.filters.filter, ...patch } });
  }

  resetFilter(): void {
    this.setFilters({ filter: { ...EMPTY_FILTER, fold: this.filters.filter.fold }, sessions: [] });
  }

  /** Show only these servers' rows (session ids; empty: every server). */
  setServers(sessions: readonly string[]): void {
    this.setFilters({ ...this.filters, sessions });
  }

  select(row: HistoryRow | undefined, scroll = false): void {
    this.publish({ selected: row, scrollToken: scroll ? this.state.scrollToken + 1 : this.state.scrollToken });
  }

  /** Select a frame of the selected row's session by seq (a request's response …), clearing filters that hide it. */
  selectSeq(session: string, seq: number): void {
    const row = this.sources.get(session)?.index.find(seq);
    if (!row) return;
    if (indexOfMerged(this.shown, row) < 0) this.setFilters({ filter: { ...EMPTY_FILTER, fold: this.filters.filter.fold }, sessions: [] });
    this.select(row, true);
  }

  move(delta: number): void {
    if (this.shown.length === 0) return;
    const at = indexOfMerged(this.shown, this.state.selected);
    // Nothing selected: moving down starts above the first row, moving up below the last (End selects the last).
    const from = at >= 0 ? at : delta > 0 ? -1 : this.shown.length;
    const next = Math.min(this.shown.length - 1, Math.max(0, from + delta));
    this.select(this.shown[next], true);
  }

  private setFilters(next: MergedFilter): void {
    this.filters = next;
    remembered.set(this.host, next);
    this.refilter();
  }

  private refilter(): void {
    const start = performance.now();
    this.shown = filterMerged(this.all, this.filters, (id) => this.sources.get(id)?.minSeq ?? 0, this.queryContext);
    performance.measure?.(MERGED_FILTER_MEASURE, { start, end: performance.now(), detail: { rows: this.all.length, matched: this.shown.length } });
    this.publish({});
  }

  /** Sessions came or went: follow each one's trace store, forget the removed ones' rows. */
  private followSessions(): void {
    const { order, sessions } = this.host.getSnapshot();
    let changed = false;
    for (const [id, source] of this.sources) {
      if (sessions[id]) continue;
      source.off();
      this.sources.delete(id);
      removeSessionRows(this.all, id);
      changed = true;
    }
    for (const id of order) {
      if (this.sources.has(id) || !sessions[id]) continue;
      const model = this.host.model(id);
      const index = model.trace.getSnapshot().index;
      const source: Source = { index, lastSeq: 0, minSeq: 0, version: -1, flags: 0, off: model.trace.subscribe(() => this.follow(id, model)) };
      this.sources.set(id, source);
      this.take(id, source, index);
      changed = true;
    }
    if (changed) this.refilter();
  }

  /** A whole index (new, or replaced after a reset): one linear merge. */
  private take(id: string, source: Source, index: TraceIndex): void {
    if (source.index !== index) removeSessionRows(this.all, id);
    source.index = index;
    source.lastSeq = index.lastSeq;
    source.minSeq = index.rows[0]?.seq ?? 0;
    source.version = index.version;
    source.flags = index.flags;
    this.all = mergeSorted(this.all, sortedRows(index.rows));
  }

  /** The session's trace store changed: a new batch, a trim, a re-pairing or a new index. */
  private follow(id: string, model: SessionModel): void {
    const source = this.sources.get(id);
    const view = model.trace.getSnapshot();
    // An imported trace shown in that server's History: keep following the live index we hold.
    if (!source || view.source !== 'live') return;
    const index = view.index;
    if (index !== source.index) {
      this.take(id, source, index);
      this.refilter();
      return;
    }
    if (index.version === source.version) return;
    source.version = index.version;
    const minSeq = index.rows[0]?.seq ?? source.lastSeq + 1;
    if (minSeq > source.minSeq) {
      removeSessionRows(this.all, id, minSeq);
      removeSessionRows(this.shown, id, minSeq);
      source.minSeq = minSeq;
    }
    const added = index.rows.slice(firstAfter(index.rows, source.lastSeq));
    source.lastSeq = index.lastSeq;
    mergeInto(this.all, added);
    const flagged = index.flags !== source.flags;
    source.flags = index.flags;
    // Pairing changed earlier rows (a response came), or a spec event marked one: a filter that depends on it is run again.
    if (dependsOnPairing(this.filters.filter) || (flagged && this.filters.filter.violationsOnly)) {
      this.refilter();
      return;
    }
    mergeInto(this.shown, filterMerged(added, this.filters, (s) => this.sources.get(s)?.minSeq ?? 0, this.queryContext));
    this.publish({});
  }

  private publish(patch: Partial<MergedHistoryView>): void {
    const base = this.state;
    this.set({ ...base, rows: this.shown, total: this.all.length, version: base.version + 1, filter: this.filters.filter, sessions: this.filters.sessions, ...patch });
  }
}
