/**
 * The History and Notifications tabs' model of one session: the viewed trace (the session's live
 * trace, or an imported JSONL file, read-only) as an incremental index (lib/trace-index.ts), the
 * filter and the rows it lets through, and the selected row. Lives outside React (useSyncExternalStore).
 *
 * Cost model: a batch of trace events (at most one per animation frame, event-batcher.ts) costs that batch:
 * the index appends it and the filter runs over the new rows only. Filtering everything happens
 * when the filter changes (timed with performance.measure('loupe:trace-filter'), which the
 * bench reads), and after a snapshot.
 */
import { dependsOnPairing, EMPTY_FILTER, filterRows, indexOfSeq, narrows, type TraceFilter } from '../lib/trace-filter.ts';
import { TraceIndex } from '../lib/trace-index.ts';
import { parseTrace, type TraceHeader } from '../lib/trace-jsonl.ts';
import type { HistoryRow } from '../lib/trace.ts';
import type { SessionInfo, TraceEvent } from '../lib/wire.ts';
import { stringifySafe } from '../lib/safe-json.ts';
import type { SessionPort } from './session-port.ts';

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

type Listener = () => void;

function timedFilter(rows: readonly HistoryRow[], filter: TraceFilter): { rows: HistoryRow[]; ms: number } {
  const start = performance.now();
  const out = filterRows(rows, filter);
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

export class TraceStore {
  private readonly listeners = new Set<Listener>();
  private readonly revealListeners = new Set<(seq: number) => void>();
  private live = { resets: -1, caps: '', index: new TraceIndex() };
  private imports: ImportedTraceEntry[] = [];
  private source = 'live';
  private filter: TraceFilter = EMPTY_FILTER;
  private rows: HistoryRow[] = [];
  private view: TraceView;
  private nextImport = 1;

  private readonly off: Array<() => void>;

  constructor(private readonly port: SessionPort) {
    this.view = this.makeView({});
    this.off = [port.subscribe(() => this.sync()), port.onReset(() => this.sync()), port.onEvents(() => this.appendLive())];
    this.sync();
  }

  dispose(): void {
    this.off.forEach((off) => off());
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): TraceView => this.view;

  /** Called with a seq when some view asks to show that frame (the page switches to History). */
  onReveal(listener: (seq: number) => void): () => void {
    this.revealListeners.add(listener);
    return () => this.revealListeners.delete(listener);
  }

  setFilter(patch: Partial<TraceFilter>): void {
    const next = { ...this.filter, ...patch };
    const base = narrows(this.filter, next) ? this.rows : this.index().rows;
    this.filter = next;
    const { rows, ms } = timedFilter(base, next);
    this.rows = rows;
    this.publish({ lastFilterMs: ms });
  }

  resetFilter(): void {
    this.setFilter({ ...EMPTY_FILTER, fold: this.filter.fold });
  }

  select(seq: number | undefined, scroll = false): void {
    this.publish({ selectedSeq: seq, scrollToken: scroll ? this.view.scrollToken + 1 : this.view.scrollToken });
  }

  /** Select a frame of the viewed trace, clearing a filter that hides it, and tell who brings History forward. */
  reveal(seq: number): void {
    if (indexOfSeq(this.rows, seq) < 0) this.setFilter({ ...EMPTY_FILTER });
    this.select(seq, true);
    this.revealListeners.forEach((listener) => listener(seq));
  }

  /** Move the selection by `delta` rows among those shown. */
  move(delta: number): void {
    if (this.rows.length === 0) return;
    const at = indexOfSeq(this.rows, this.view.selectedSeq);
    const next = at < 0 ? (delta > 0 ? 0 : this.rows.length - 1) : Math.min(this.rows.length - 1, Math.max(0, at + delta));
    this.select(this.rows[next].seq, true);
  }

  setSource(source: string): void {
    if (source !== 'live' && !this.imports.some((entry) => entry.key === source)) return;
    this.source = source;
    this.refilter({ selectedSeq: undefined, importError: undefined });
  }

  /** Read a JSONL trace into a read-only view and show it. */
  importText(name: string, text: string): boolean {
    const parsed = parseTrace(text);
    if (!parsed.ok) {
      this.publish({ importError: `${name}: ${parsed.error}` });
      return false;
    }
    const { header, events, problems, problemCount } = parsed.trace;
    const index = TraceIndex.from(events, header.session.clientCapabilities);
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

  private index(): TraceIndex {
    return this.imports.find((entry) => entry.key === this.source)?.index ?? this.live.index;
  }

  /** Follow the session: rebuild when its trace was replaced or its declared capabilities changed. */
  private sync(): void {
    const log = this.port.log;
    const caps = this.port.getSnapshot().info?.clientCapabilities;
    const capsKey = stringifySafe(caps ?? null) ?? 'null';
    if (log.resets === this.live.resets && capsKey === this.live.caps) {
      if (this.source === 'live' && this.view.session !== this.port.getSnapshot().info) this.publish({});
      return;
    }
    const fresh = log.resets !== this.live.resets;
    this.live = { resets: log.resets, caps: capsKey, index: TraceIndex.from(log.events, caps) };
    if (this.source === 'live') this.refilter({ selectedSeq: fresh ? undefined : this.view.selectedSeq });
    else this.publish({});
  }

  /** What the log holds beyond the index's last row: the batch that just arrived (O(batch), never the whole trace). */
  private appendLive(): void {
    const events = this.port.log.events;
    const index = this.live.index;
    const trimmed = events.length > 0 ? index.trimBefore(events[0].seq) : 0;
    const { added, touched } = index.append(events.slice(firstAfter(events, index.lastSeq)));
    if (this.source !== 'live') {
      this.publish({});
      return;
    }
    if (touched.length > 0 && dependsOnPairing(this.filter)) {
      this.refilter({});
      return;
    }
    if (trimmed > 0 && this.rows.length > 0) {
      const minSeq = index.rows[0]?.seq ?? Infinity;
      let n = 0;
      while (n < this.rows.length && this.rows[n].seq < minSeq) n += 1;
      this.rows.splice(0, n);
    }
    for (const row of filterRows(added, this.filter, index.rows[0]?.seq ?? 0)) this.rows.push(row);
    this.publish({});
  }

  private refilter(patch: Partial<TraceView>): void {
    const { rows, ms } = timedFilter(this.index().rows, this.filter);
    this.rows = rows;
    this.publish({ ...patch, lastFilterMs: ms });
  }

  private makeView(patch: Partial<TraceView>): TraceView {
    const view = this.port.getSnapshot();
    const imported = this.imports.find((entry) => entry.key === this.source);
    const index = this.index();
    const dropped = imported ? { proxy: imported.header.stats?.dropped ?? 0, tab: 0 } : { proxy: view.stats?.dropped ?? 0, tab: this.port.log.dropped };
    const base = this.view ?? { scrollToken: 0 };
    return {
      ...base,
      source: imported ? imported.key : 'live',
      readOnly: imported !== undefined,
      session: imported ? (imported.header.session as SessionInfo) : view.info,
      index,
      version: (base.version ?? 0) + 1,
      rows: this.rows,
      filter: this.filter,
      dropped,
      imports: this.imports,
      ...patch,
    };
  }

  private publish(patch: Partial<TraceView>): void {
    this.view = this.makeView(patch);
    this.listeners.forEach((listener) => listener());
  }
}
