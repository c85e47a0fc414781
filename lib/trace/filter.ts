/**
 * Filters over history rows: by kind, method, direction, text anywhere in the raw JSON, errors
 * only, violations only; and the folded view, where a request and its response are one row.
 * Written for 100,000 rows in well under 100 ms: one pass, no allocation per row.
 */
import type { HistoryRow } from './trace.ts';
import { searchText } from './query-fields.ts';
import { compileQuery, parseQuery, queryDependsOnPairing, queryNarrows, type QueryContext } from './query.ts';

export { ROW_KINDS, searchText, type RowKind } from './query-fields.ts';
export type { QueryContext } from './query.ts';

export type DirectionFilter = 'any' | 'in' | 'out';

export interface TraceFilter {
  /** Kinds to show; empty: every kind. */
  kinds: readonly string[];
  /** Methods to show (a response has its request's method); empty: every method. */
  methods: readonly string[];
  dir: DirectionFilter;
  /** Case-insensitive, anywhere in the raw frame (or the text of a noise/stderr/transport row). */
  text: string;
  errorsOnly: boolean;
  violationsOnly: boolean;
  /** Show a request and its response as one row (the response is folded into its request). */
  fold: boolean;
  /** The History query (query.ts): one more condition; the searchbox writes it. Its faulty terms are left out. */
  query?: string;
}

export const EMPTY_FILTER: TraceFilter = { kinds: [], methods: [], dir: 'any', text: '', errorsOnly: false, violationsOnly: false, fold: false, query: '' };

/** Whether anything but folding narrows the rows. */
export function isNarrowing(filter: TraceFilter): boolean {
  return filter.kinds.length > 0 || filter.methods.length > 0 || filter.dir !== 'any' || filter.text.trim() !== '' || filter.errorsOnly || filter.violationsOnly || parseQuery(filter.query ?? '').terms.length > 0;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Test = (row: HistoryRow) => boolean;

/**
 * One predicate for everything but folding; the cheap checks come first. The text is matched
 * with a case-insensitive RegExp of the literal needle: V8 scans the raw strings as they are,
 * with no lower-cased copy per row (measured: ~5 ms per 100,000 frames, against ~10 ms for
 * toLowerCase().includes() and twice the memory for a cached lower-case copy).
 */
export function compileFilter(filter: TraceFilter, context?: QueryContext): Test {
  const kinds = filter.kinds.length > 0 ? new Set(filter.kinds) : undefined;
  const methods = filter.methods.length > 0 ? new Set(filter.methods) : undefined;
  const needle = filter.text.trim();
  const pattern = needle === '' ? undefined : new RegExp(escapeRegExp(needle), 'i');
  const { dir, errorsOnly, violationsOnly } = filter;
  const query = filter.query ? compileQuery(parseQuery(filter.query), context) : undefined;
  // The query alone (the searchbox, no control set): its own predicate, with no wrapper per row.
  if (query && !kinds && !methods && dir === 'any' && !errorsOnly && !violationsOnly && pattern === undefined) return query;
  return (row) => {
    if (kinds && !kinds.has(row.kind)) return false;
    if (methods && (row.method === undefined || !methods.has(row.method))) return false;
    if (dir !== 'any' && row.dir !== dir) return false;
    if (errorsOnly && !row.isError) return false;
    if (violationsOnly && !row.violations) return false;
    if (query && !query(row)) return false;
    if (pattern === undefined) return true;
    return pattern.test(searchText(row)) || (row.method !== undefined && pattern.test(row.method));
  };
}

/**
 * In the folded view a response is drawn inside its request's row, unless it has something to
 * say on its own (a violation) or its request is no longer kept (`minSeq`).
 */
export function foldedAway(row: HistoryRow, minSeq: number): boolean {
  if (row.kind !== 'response' && row.kind !== 'error') return false;
  const request = row.partner;
  return request !== undefined && request.kind === 'request' && request.partner === row && request.seq >= minSeq && !row.violations;
}

/** The rows that pass `filter`, in order. A folded request passes when it or its response does. */
export function filterRows(rows: readonly HistoryRow[], filter: TraceFilter, minSeq = rows.length > 0 ? rows[0].seq : 0, context?: QueryContext): HistoryRow[] {
  const test = compileFilter(filter, context);
  const out: HistoryRow[] = [];
  if (!filter.fold) {
    for (const row of rows) if (test(row)) out.push(row);
    return out;
  }
  for (const row of rows) {
    if (foldedAway(row, minSeq)) continue;
    if (test(row) || (row.kind === 'request' && row.partner !== undefined && test(row.partner))) out.push(row);
  }
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Whether `next` only narrows `prev` (same choices, the text extended), so that filtering the
 * rows `prev` let through gives the same answer as filtering everything: typing one more
 * character then costs the matches, not the trace.
 */
export function narrows(prev: TraceFilter, next: TraceFilter): boolean {
  if (prev.fold !== next.fold || prev.dir !== next.dir || prev.errorsOnly !== next.errorsOnly || prev.violationsOnly !== next.violationsOnly) return false;
  if (!sameList(prev.kinds, next.kinds) || !sameList(prev.methods, next.methods)) return false;
  if ((prev.query ?? '') !== (next.query ?? '') && !queryNarrows(prev.query ?? '', next.query ?? '')) return false;
  return next.text.trim().toLowerCase().includes(prev.text.trim().toLowerCase());
}

/**
 * Whether a row's state that a later frame may change (a request's error or its folded response)
 * matters to `filter`: then appending rows is not enough and the view is filtered again.
 */
export function dependsOnPairing(filter: TraceFilter): boolean {
  return filter.fold || filter.errorsOnly || queryDependsOnPairing(filter.query ?? '');
}

/** The rows of a folded view with each folded response put back after its request (for export). */
export function unfold(rows: readonly HistoryRow[]): HistoryRow[] {
  const out = new Set<HistoryRow>();
  for (const row of rows) {
    out.add(row);
    if (row.kind === 'request' && row.partner?.partner === row) out.add(row.partner);
  }
  return [...out].sort((a, b) => a.seq - b.seq);
}

/** Position of the row with `seq` in rows sorted by seq (binary search), or -1. */
export function indexOfSeq(rows: readonly HistoryRow[], seq: number | undefined): number {
  if (seq === undefined) return -1;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = rows[mid].seq;
    if (at === seq) return mid;
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
