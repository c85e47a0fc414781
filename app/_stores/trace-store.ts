/**
 * The History and Notifications tabs' model of one session: the viewed trace (the session's live
 * trace, or an imported JSONL file, read-only) as an incremental index (lib/trace/row-index.ts), the
 * filter and the rows it lets through, and the selected row. Lives outside React (useSyncExternalStore).
 *
 * Cost model: a batch of trace events (at most one per animation frame, event-batcher.ts) costs that batch:
 * the index appends it and the filter runs over the new rows only. Filtering everything happens
 * when the filter changes (timed with performance.measure('loupe:trace-filter'), which the
 * bench reads), and after a snapshot.
 *
 * Multi-round calls (2026-07-28, lib/trace/rounds.ts) are folded into one group row each: `display`
 * is the filtered rows with the rounds of closed groups left out. It is the filtered rows
 * themselves (no copy) while the trace has no rounds, extended as batches arrive, and refolded
 * from a group's first row when that group gains a round or is opened or closed.
 */
import { dependsOnPairing, EMPTY_FILTER, filterRows, indexOfSeq, narrows, type QueryContext, type TraceFilter } from '../../lib/trace/filter.ts';
import { TraceIndex } from '../../lib/trace/row-index.ts';
import { foldRounds, lowerBound, RoundIndex } from '../../lib/trace/rounds.ts';
import { spansAsTrace } from '../../lib/otel/session-files.ts';
import type { TraceHeader } from '../../lib/trace/jsonl.ts';
import { parseTrace } from '../../lib/trace/read-trace.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { SessionInfo, TraceEvent } from '../../lib/wire/wire.ts';
import { stringifySafe } from '../../lib/json/safe-json.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { ExternalStore } from './external-store.ts';

export const FILTER_MEASURE = 'loupe:trace-filter';

export interface ImportedTraceEntry {
  key: string;
  /** The file name. */
  name: string;
  header: TraceHeader;
  index: TraceIndex;
  /** Lines that could not be read. */
  problemCount: number;
  problems: readonly { line: number; error: string }[];
}

export interface TraceView {
  /** `live`, or the key of an imported trace. */
  source: string;
  readOnly: boolean;
  /** The live session, or the imported trace's header session. */
  session?: SessionInfo;
  index: TraceIndex;
  /** The multi-round calls of the viewed trace. */
  rounds: RoundIndex;
  /** First-request seqs of the round groups the user opened (`Show rounds`). */
  openRounds: ReadonlySet<number>;
  /** What the table draws: `rows` with the rounds of closed groups folded into their first request (mutable; read with `version`). */
  display: readonly HistoryRow[];
  /** Changes whenever rows were added, re-paired or re-filtered (rows are mutable). */
  version: number;
  /** The rows the filter lets through, oldest first (mutable; read with `version`). */
  rows: readonly HistoryRow[];
  filter: TraceFilter;
  selectedSeq?: number;
  /** Bumped to ask the list to scroll the selected row into view. */
  scrollToken: number;
  /** Events let go: by the proxy's trace buffer, and by this tab's cap. */
  dropped: { proxy: number; tab: number };
  imports: readonly ImportedTraceEntry[];
  importError?: string;
  /** Milliseconds the last full filter took. */
  lastFilterMs?: number;
}

function timedFilter(rows: readonly HistoryRow[], filter: TraceFilter, context: QueryContext): { rows: HistoryRow[]; ms: number } {
  const start = performance.now();
  const out = filterRows(rows, filter, undefined, context);
  const end = performance.now();
  performance.measure?.(FILTER_MEASURE, { start, end, detail: { rows: rows.length, matched: out.length } });
  return { rows: out, ms: end - start };
}

/** Index of the first event with a seq above `seq` (events are in seq order). */
function firstAfter(events: readonly TraceEvent[], seq: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What the store holds until its constructor has made the first view from its fields (never shown). */
const UNBUILT: TraceView = { source: 'live', readOnly: false, index: new TraceIndex(), rounds: new RoundIndex(), openRounds: new Set(), display: [], version: 0, rows: [], filter: EMPTY_FILTER, scrollToken: 0, dropped: { proxy: 0, tab: 0 }, imports: [] };

export class TraceStore extends ExternalStore<TraceView> {
  private readonly revealListeners = new Set<(seq: number) => void>();
  private live = { resets: -1, caps: '', index: new TraceIndex(), rounds: new RoundIndex() };
  private readonly importRounds = new WeakMap<TraceIndex, RoundIndex>();
  private imports: ImportedTraceEntry[] = [];
  private source = 'live';
  private filter: TraceFilter = EMPTY_FILTER;
  private rows: HistoryRow[] = [];
  private display: HistoryRow[] = this.rows;
  private openRounds = new Set<number>();
  private nextImport = 1;

  constructor(private readonly port: SessionPort) {
    super(UNBUILT);
    this.state = this.makeView({});
    this.onDispose(port.subscribe(() => this.sync()), port.onReset(() => this.sync()), port.onEvents(() => this.appendLive()));
    this.sync();
  }

  /** Called with a seq when some view asks to show that frame (the page switches to History). */
  onReveal(listener: (seq: number) => void): () => void {
    this.revealListeners.add(listener);
    return () => this.revealListeners.delete(listener);
  }

  setFilter(patch: Partial<TraceFilter>): void {
    const next = { ...this.filter, ...patch };
    const base = narrows(this.filter, next) ? this.rows : this.index().rows;
    this.filter = next;
    const { rows, ms } = timedFilter(base, next, this.queryContext());
    this.rows = rows;
    this.refold();
    this.publish({ lastFilterMs: ms });
  }

  resetFilter(): void {
    this.setFilter({ ...EMPTY_FILTER, fold: this.filter.fold });
  }

  /** Select a row; `scroll` brings it into view, opening the round group it is folded into. */
  select(seq: number | undefined, scroll = false): void {
    if (scroll && seq !== undefined) this.openGroupOf(seq);
    this.publish({ selectedSeq: seq, scrollToken: scroll ? this.state.scrollToken + 1 : this.state.scrollToken });
  }

  /** Select a frame of the viewed trace, clearing a filter that hides it, and tell who brings History forward. */
  reveal(seq: number): void {
    if (indexOfSeq(this.rows, seq) < 0) this.setFilter({ ...EMPTY_FILTER });
    this.select(seq, true);
    this.revealListeners.forEach((listener) => listener(seq));
  }

  /** Move the selection by `delta` rows among those shown. */
  move(delta: number): void {
    const shown = this.display;
    if (shown.length === 0) return;
    const at = indexOfSeq(shown, this.state.selectedSeq);
    const next = at < 0 ? (delta > 0 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, at + delta));
    this.select(shown[next].seq, true);
  }

  /** A frame folded into a closed round group is shown by opening the group. */
  private openGroupOf(seq: number): void {
    if (this.display === this.rows || indexOfSeq(this.display, seq) >= 0) return;
    const row = this.index().find(seq);
    const group = row && this.roundsOf().groupOf(row);
    if (group) this.setRoundsOpen(group.headSeq, true);
  }

  /** Show or hide the rounds of the multi-round call whose first request is `headSeq` (`Show rounds` / `Hide rounds`). */
  setRoundsOpen(headSeq: number, open: boolean): void {
    if (this.openRounds.has(headSeq) === open) return;
    this.openRounds = new Set(this.openRounds);
    if (open) this.openRounds.add(headSeq);
    else this.openRounds.delete(headSeq);
    this.refold(headSeq);
    this.publish({});
  }

  setSource(source: string): void {
    if (source !== 'live' && !this.imports.some((entry) => entry.key === source)) return;
    this.source = source;
    this.openRounds = new Set();
    this.refilter({ selectedSeq: undefined, importError: undefined });
  }

  /** Read a JSONL trace into a read-only view and show it. */
  importText(name: string, text: string): boolean {
    // A Loupe trace (JSONL), else an OpenTelemetry file (OTLP JSON, Tempo, Jaeger: issue 28), whose error is said when it looks like one.
    const jsonl = parseTrace(text);
    const spans = jsonl.ok || !text.trimStart().startsWith('{') ? undefined : spansAsTrace(name, text);
    // An OpenTelemetry file it could not use ("It holds no span…") says so; any other JSON gets the trace's own sentence.
    const parsed = spans && (spans.ok || spans.error.startsWith('It holds')) ? spans : jsonl;
    if (!parsed.ok) {
      this.publish({ importError: `${name}: ${parsed.error}` });
      return false;
    }
    const { header, events, problems, problemCount } = parsed.trace;
    const index = TraceIndex.from(events, header.session.clientCapabilities);
    this.importRounds.set(index, RoundIndex.from(index.rows));
    const key = `import-${this.nextImport++}`;
    this.imports = [...this.imports, { key, name, header, index, problems, problemCount }];
    this.setSource(key);
    return true;
  }

  closeImport(key: string): void {
    this.imports = this.imports.filter((entry) => entry.key !== key);
    if (this.source === key) this.setSource('live');
    else this.publish({});
  }

  /** `server:` in a query: the viewed trace's server name. */
  private queryContext(): QueryContext {
    const imported = this.imports.find((entry) => entry.key === this.source);
    const name = imported ? imported.header.session.name : this.port.getSnapshot().info?.name;
    return { serverOf: () => name };
  }

  private index(): TraceIndex {
    return this.imports.find((entry) => entry.key === this.source)?.index ?? this.live.index;
  }

  private roundsOf(): RoundIndex {
    return this.importRounds.get(this.index()) ?? this.live.rounds;
  }

  /**
   * `display` from `rows`: the same array while there are no rounds; otherwise folded again from
   * `fromSeq` on (the rows before it cannot change: every round of a group comes after its first request).
   */
  private refold(fromSeq?: number): void {
    const rounds = this.roundsOf();
    if (rounds.size === 0) {
      this.display = this.rows;
      return;
    }
    if (fromSeq === undefined || this.display === this.rows) {
      this.display = foldRounds(this.rows, rounds, this.openRounds);
      return;
    }
    this.display.length = lowerBound(this.display, fromSeq);
    for (const row of foldRounds(this.rows, rounds, this.openRounds, lowerBound(this.rows, fromSeq))) this.display.push(row);
  }

  /** Follow the session: rebuild when its trace was replaced or its declared capabilities changed. */
  private sync(): void {
    const log = this.port.log;
    const caps = this.port.getSnapshot().info?.clientCapabilities;
    const capsKey = stringifySafe(caps ?? null) ?? 'null';
    if (log.resets === this.live.resets && capsKey === this.live.caps) {
      if (this.source === 'live' && this.state.session !== this.port.getSnapshot().info) this.publish({});
      return;
    }
    const fresh = log.resets !== this.live.resets;
    const index = TraceIndex.from(log.events, caps);
    this.live = { resets: log.resets, caps: capsKey, index, rounds: RoundIndex.from(index.rows) };
    if (fresh && this.source === 'live') this.openRounds = new Set();
    if (this.source === 'live') this.refilter({ selectedSeq: fresh ? undefined : this.state.selectedSeq });
    else this.publish({});
  }

  /** What the log holds beyond the index's last row: the batch that just arrived (O(batch), never the whole trace). */
  private appendLive(): void {
    const events = this.port.log.events;
    const index = this.live.index;
    const rounds = this.live.rounds;
    const trimmed = events.length > 0 ? index.trimBefore(events[0].seq) : 0;
    if (trimmed > 0) rounds.trimBefore(events[0].seq);
    const flags = index.flags;
    const { added, touched } = index.append(events.slice(firstAfter(events, index.lastSeq)));
    const changed = rounds.append(added);
    if (this.source !== 'live') {
      this.publish({});
      return;
    }
    // A spec event marked an earlier row: a violations-only view takes it in by filtering again.
    if (touched.length > 0 && (dependsOnPairing(this.filter) || (this.filter.violationsOnly && index.flags !== flags))) {
      this.refilter({});
      return;
    }
    if (trimmed > 0 && this.rows.length > 0) {
      const minSeq = index.rows[0]?.seq ?? Infinity;
      this.rows.splice(0, lowerBound(this.rows, minSeq));
      if (this.display !== this.rows) this.display.splice(0, lowerBound(this.display, minSeq));
    }
    const before = this.rows.length;
    for (const row of filterRows(added, this.filter, index.rows[0]?.seq ?? 0, this.queryContext())) this.rows.push(row);
    if (rounds.size === 0) this.display = this.rows;
    else if (this.display === this.rows) this.refold();
    else {
      // Refold from the earliest group that gained a round (its rounds may fold away now), else from the new rows.
      let fromSeq = this.rows[before]?.seq ?? Infinity;
      for (const group of changed) fromSeq = Math.min(fromSeq, group.headSeq);
      if (fromSeq !== Infinity) this.refold(fromSeq);
    }
    this.publish({});
  }

  private refilter(patch: Partial<TraceView>): void {
    const { rows, ms } = timedFilter(this.index().rows, this.filter, this.queryContext());
    this.rows = rows;
    this.refold();
    this.publish({ ...patch, lastFilterMs: ms });
  }

  private makeView(patch: Partial<TraceView>): TraceView {
    const view = this.port.getSnapshot();
    const imported = this.imports.find((entry) => entry.key === this.source);
    const index = this.index();
    const dropped = imported ? { proxy: imported.header.stats?.dropped ?? 0, tab: 0 } : { proxy: view.stats?.dropped ?? 0, tab: this.port.log.dropped };
    const base = this.state;
    return {
      ...base,
      source: imported ? imported.key : 'live',
      readOnly: imported !== undefined,
      session: imported ? (imported.header.session as SessionInfo) : view.info,
      index,
      rounds: this.roundsOf(),
      openRounds: this.openRounds,
      display: this.display,
      version: (base.version ?? 0) + 1,
      rows: this.rows,
      filter: this.filter,
      dropped,
      imports: this.imports,
      ...patch,
    };
  }

  private publish(patch: Partial<TraceView>): void {
    this.set(this.makeView(patch));
  }
}
