/**
 * The merged History of several sessions (issue 9, "All servers" views): every session's rows in
 * one list ordered by time, then session id, then seq. Kept incrementally: a batch of one session
 * is merged into the tail it overlaps (live batches arrive close to the end), never by sorting
 * the whole list again; a session's whole trace (a `trace-reset`) is one linear merge.
 */
import { compileFilter, foldedAway, type QueryContext, type TraceFilter } from './filter.ts';
import type { HistoryRow } from './trace.ts';

/** Time, then session id, then seq: a total order (seq is unique within a session). */
export function compareMerged(a: HistoryRow, b: HistoryRow): number {
  if (a.ts !== b.ts) return a.ts - b.ts;
  const sa = a.event.session;
  const sb = b.event.session;
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.seq - b.seq;
}

function isSorted(rows: readonly HistoryRow[]): boolean {
  for (let i = 1; i < rows.length; i += 1) if (compareMerged(rows[i - 1], rows[i]) > 0) return false;
  return true;
}

/** Two sorted lists as one new sorted list: O(a + b). */
export function mergeSorted(a: readonly HistoryRow[], b: readonly HistoryRow[]): HistoryRow[] {
  const out: HistoryRow[] = new Array<HistoryRow>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compareMerged(a[i], b[j]) <= 0 ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/** The rows in merged order (a session's rows are in seq order; their clock almost always agrees). */
export function sortedRows(rows: readonly HistoryRow[]): readonly HistoryRow[] {
  return isSorted(rows) ? rows : [...rows].sort(compareMerged);
}

/**
 * Merge a batch into a sorted list, in place. Only the rows of `into` that sort after the batch's
 * first row are moved (for a live batch: none, or the other sessions' rows of the last frame or
 * two), so the cost is the batch plus that tail, whatever the list's length.
 */
export function mergeInto(into: HistoryRow[], batch: readonly HistoryRow[]): void {
  if (batch.length === 0) return;
  const sorted = sortedRows(batch);
  let cut = into.length;
  while (cut > 0 && compareMerged(into[cut - 1], sorted[0]) > 0) cut -= 1;
  if (cut === into.length) {
    for (const row of sorted) into.push(row);
    return;
  }
  const tail = into.splice(cut);
  for (const row of mergeSorted(tail, sorted)) into.push(row);
}

/** Remove a session's rows in place (all of them, or those before `beforeSeq`); one pass. Returns how many. */
export function removeSessionRows(rows: HistoryRow[], session: string, beforeSeq = Infinity): number {
  let w = 0;
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r];
    if (row.event.session === session && row.seq < beforeSeq) continue;
    rows[w++] = row;
  }
  const removed = rows.length - w;
  rows.length = w;
  return removed;
}

/** Position of the row with `row`'s time, session and seq in a sorted list (binary search), or -1. */
export function indexOfMerged(rows: readonly HistoryRow[], row: HistoryRow | undefined): number {
  if (row === undefined) return -1;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareMerged(rows[mid], row);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** What the merged History filters by: the History filter, and the servers (session ids; empty: every server). */
export interface MergedFilter {
  filter: TraceFilter;
  sessions: readonly string[];
}

/**
 * The rows that pass, in order (the same rules as filterRows in trace-filter.ts, with the server
 * filter first). `minSeqOf`: the oldest seq each session still keeps, for folding.
 */
export function filterMerged(rows: readonly HistoryRow[], { filter, sessions }: MergedFilter, minSeqOf: (session: string) => number, context?: QueryContext): HistoryRow[] {
  const test = compileFilter(filter, context);
  const only = sessions.length > 0 ? new Set(sessions) : undefined;
  const out: HistoryRow[] = [];
  for (const row of rows) {
    if (only && !only.has(row.event.session)) continue;
    if (!filter.fold) {
      if (test(row)) out.push(row);
      continue;
    }
    if (foldedAway(row, minSeqOf(row.event.session))) continue;
    if (test(row) || (row.kind === 'request' && row.partner !== undefined && test(row.partner))) out.push(row);
  }
  return out;
}
