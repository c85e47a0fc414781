/**
 * The History's query language (issue 26): `method:tools/call status:error duration:>500ms
 * server:NAME dir:in size:>1mb kind:notification tool:echo id:4 "quoted text"`, a `-` before a
 * field or a quoted text to negate it, every term ANDed. Words outside a field are searched as one
 * phrase, as the text filter always did (`flood 12 of` is one needle, `"count":6` a literal), so
 * that what people typed before means what it meant.
 *
 * Hand-written rather than generated: the grammar is one loop over whitespace-separated terms
 * (`-`? (`field:` value | "quoted" | word)), and a hand-written scanner gives what a generator
 * makes awkward: an error that names the unknown field and the known ones with its position,
 * recovery (the good terms keep filtering while one is being typed), and no dependency in `lib/`.
 */
import { ROW_KINDS, searchText, statusOf, targetOf } from './query-fields.ts';
import type { HistoryRow } from './trace.ts';

export const QUERY_FIELDS = ['method', 'status', 'duration', 'server', 'dir', 'size', 'kind', 'tool', 'id', 'text'] as const;
export type QueryField = (typeof QUERY_FIELDS)[number];

export type Comparison = '>' | '>=' | '<' | '<=';
type ListField = 'method' | 'status' | 'server' | 'dir' | 'kind' | 'tool' | 'id';

/** One term; `start`/`end`: where it is in the query (for errors and completion). */
export type QueryTerm = { negate: boolean; start: number; end: number } & (
  | { field: 'text'; value: string }
  | { field: 'duration' | 'size'; op: Comparison; amount: number }
  | { field: ListField; values: string[] }
);

export interface QueryError {
  /** One sentence, in plain words, with the position (1-based) of the fault. */
  message: string;
  start: number;
  end: number;
}

export interface ParsedQuery {
  /** The terms that parsed; with an error they still filter (the faulty term is left out). */
  terms: QueryTerm[];
  /** The first fault, when there is one. */
  error?: QueryError;
}

export const STATUS_VALUES = ['ok', 'error', 'pending'] as const;
const DIR_VALUES = ['in', 'out'];
const DURATION_UNITS: Record<string, number> = { '': 1, ms: 1, s: 1000, m: 60_000 };
const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 * 1024, mib: 1024 * 1024 };
const FIELD_START = /[A-Za-z][\w-]*:/y;
const SPACE = /\s/;

function fail(message: string, start: number, end: number): QueryError {
  return { message: `${message} (at character ${start + 1})`, start, end };
}

/** A quoted string from `at` (on the quote): its text and the index after the closing quote. */
function readQuoted(source: string, at: number): { text: string; end: number } | undefined {
  let text = '';
  for (let i = at + 1; i < source.length; i += 1) {
    const c = source[i];
    if (c === '\\' && i + 1 < source.length) text += source[++i];
    else if (c === '"') return { text, end: i + 1 };
    else text += c;
  }
  return undefined;
}

function wordEnd(source: string, at: number): number {
  let i = at;
  while (i < source.length && !SPACE.test(source[i])) i += 1;
  return i;
}

const oneOf = (list: readonly string[]) => list.map((x) => (x.includes(' ') ? `"${x}"` : x)).join(', ');

function listValues(field: ListField, raw: string, start: number, end: number): string[] | QueryError {
  const values = field === 'tool' ? [raw] : raw.split(',').filter((v) => v !== '');
  if (values.length === 0) return fail(`${field}: needs a value`, start, end);
  if (field === 'status' || field === 'dir' || field === 'kind') {
    const known: readonly string[] = field === 'status' ? STATUS_VALUES : field === 'dir' ? DIR_VALUES : ROW_KINDS;
    const out = values.map((v) => (field === 'kind' && v.toLowerCase() === 'noise' ? 'stdout noise' : v.toLowerCase()));
    const bad = out.find((v) => !known.includes(v));
    if (bad !== undefined) return fail(`${field}: is one of ${oneOf(known)}, not "${bad}"`, start, end);
    return out;
  }
  return values;
}

function comparison(field: 'duration' | 'size', raw: string, start: number, end: number): { op: Comparison; amount: number } | QueryError {
  const match = /^(>=|<=|>|<)(\d+(?:\.\d+)?)([a-z]*)$/i.exec(raw);
  const example = field === 'duration' ? 'duration:>500ms or duration:<=2s' : 'size:>1mb or size:<10kb';
  if (!match) return fail(`${field}: takes a comparison and a number, as in ${example}; got "${raw}"`, start, end);
  const units = field === 'duration' ? DURATION_UNITS : SIZE_UNITS;
  const unit = match[3].toLowerCase();
  if (!(unit in units)) return fail(`${field}: knows the units ${Object.keys(units).filter((u) => u !== '').join(', ')}, not "${match[3]}"`, start, end);
  return { op: match[1] as Comparison, amount: Number(match[2]) * units[unit] };
}

/** A `field:value` term whose name ends at `colon`. */
function fieldTerm(source: string, start: number, nameStart: number, colon: number, negate: boolean): { term?: QueryTerm; error?: QueryError; end: number } {
  const name = source.slice(nameStart, colon).toLowerCase();
  let end = wordEnd(source, colon + 1);
  let raw = source.slice(colon + 1, end);
  if (source[colon + 1] === '"') {
    const quoted = readQuoted(source, colon + 1);
    if (!quoted) return { error: fail(`The quote after ${name}: is not closed`, colon + 1, source.length), end: source.length };
    raw = quoted.text;
    end = quoted.end;
  }
  if (!(QUERY_FIELDS as readonly string[]).includes(name)) {
    const hint = `Put text with a colon in quotes to search for it: "${source.slice(nameStart, end)}"`;
    const message = `Unknown field "${source.slice(nameStart, colon)}" at character ${nameStart + 1}: the fields are ${QUERY_FIELDS.join(', ')}. ${hint}`;
    return { error: { message, start: nameStart, end: colon }, end };
  }
  const field = name as QueryField;
  if (raw === '') return { error: fail(`${field}: needs a value`, start, end), end };
  if (field === 'text') return { term: { field, value: raw, negate, start, end }, end };
  if (field === 'duration' || field === 'size') {
    const compared = comparison(field, raw, start, end);
    return 'message' in compared ? { error: compared, end } : { term: { field, ...compared, negate, start, end }, end };
  }
  const values = listValues(field, raw, start, end);
  return Array.isArray(values) ? { term: { field, values, negate, start, end }, end } : { error: values, end };
}

/** Parses a query; never throws. Every term that parses is kept, the first fault is said. */
export function parseQuery(source: string): ParsedQuery {
  const terms: QueryTerm[] = [];
  let error: QueryError | undefined;
  let phrase: { start: number; end: number } | undefined;
  const flush = () => {
    if (phrase) terms.push({ field: 'text', value: source.slice(phrase.start, phrase.end), negate: false, start: phrase.start, end: phrase.end });
    phrase = undefined;
  };
  let i = 0;
  while (i < source.length) {
    if (SPACE.test(source[i])) {
      i += 1;
      continue;
    }
    const start = i;
    const negated = source[i] === '-' && i + 1 < source.length && !SPACE.test(source[i + 1]);
    const at = negated ? i + 1 : i;
    FIELD_START.lastIndex = at;
    // `https://…` is text, and so is `Error: …` (an unknown name with nothing after its colon).
    const named = FIELD_START.test(source);
    const after = source.slice(FIELD_START.lastIndex, FIELD_START.lastIndex + 2);
    const known = named && (QUERY_FIELDS as readonly string[]).includes(source.slice(at, FIELD_START.lastIndex - 1).toLowerCase());
    const field = named && after !== '//' && (known || (after !== '' && !SPACE.test(after[0])));
    const quoted = !field && source[at] === '"' ? readQuoted(source, at) : undefined;
    if (field) {
      flush();
      const got = fieldTerm(source, start, at, FIELD_START.lastIndex - 1, negated);
      if (got.term) terms.push(got.term);
      error ??= got.error;
      i = got.end;
    } else if (quoted && (quoted.end >= source.length || SPACE.test(source[quoted.end]))) {
      flush();
      if (quoted.text !== '') terms.push({ field: 'text', value: quoted.text, negate: negated, start, end: quoted.end });
      i = quoted.end;
    } else if (source[at] === '"' && !quoted) {
      flush();
      error ??= fail('This quote is not closed', at, source.length);
      i = source.length;
    } else {
      // A word: joins the phrase (`-32601` is text: only a field or a quote is negated).
      i = wordEnd(source, start);
      phrase = { start: phrase?.start ?? start, end: i };
    }
  }
  flush();
  return error ? { terms, error } : { terms };
}

/** What a query needs beyond the row: the server a row belongs to. */
export interface QueryContext {
  serverOf?(row: HistoryRow): string | undefined;
}

type Test = (row: HistoryRow) => boolean;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A test of one value against the term's values: exact, or with `*` standing for any text. */
function valueTest(values: readonly string[]): (value: string | undefined) => boolean {
  if (values.some((v) => v.includes('*'))) {
    const pattern = new RegExp(`^(?:${values.map((v) => v.split('*').map(escapeRegExp).join('.*')).join('|')})$`, 's');
    return (value) => value !== undefined && pattern.test(value);
  }
  if (values.length === 1) {
    const only = values[0];
    return (value) => value === only;
  }
  const set = new Set(values);
  return (value) => value !== undefined && set.has(value);
}

/** The text filter's test (filter.ts compileFilter): a literal, case-insensitive, in the row's text or its method. */
export function textTest(needle: string): Test {
  const pattern = new RegExp(escapeRegExp(needle), 'i');
  return (row) => pattern.test(searchText(row)) || (row.method !== undefined && pattern.test(row.method));
}

function compare(op: Comparison, amount: number): (value: number | undefined) => boolean {
  switch (op) {
    case '>':
      return (v) => v !== undefined && v > amount;
    case '>=':
      return (v) => v !== undefined && v >= amount;
    case '<':
      return (v) => v !== undefined && v < amount;
    case '<=':
      return (v) => v !== undefined && v <= amount;
  }
}

function termTest(term: QueryTerm, context: QueryContext): Test {
  switch (term.field) {
    case 'text':
      return textTest(term.value);
    case 'duration': {
      const test = compare(term.op, term.amount);
      return (row) => test(row.latencyMs);
    }
    case 'size': {
      const test = compare(term.op, term.amount);
      return (row) => test(row.size);
    }
    case 'method': {
      const test = valueTest(term.values);
      return (row) => test(row.method);
    }
    case 'status': {
      const test = valueTest(term.values);
      return (row) => test(statusOf(row));
    }
    case 'dir': {
      const test = valueTest(term.values);
      return (row) => test(row.dir);
    }
    case 'kind': {
      const test = valueTest(term.values);
      return (row) => test(row.kind);
    }
    case 'tool': {
      const test = valueTest(term.values);
      return (row) => test(targetOf(row));
    }
    case 'id': {
      const test = valueTest(term.values);
      return (row) => row.id !== undefined && test(String(row.id));
    }
    case 'server': {
      const test = valueTest(term.values);
      const serverOf = context.serverOf;
      return (row) => test(serverOf?.(row));
    }
  }
}

/** Cheap checks first; the text scan and the frame parse of `tool:` last. */
const COST: Record<QueryField, number> = { kind: 0, dir: 0, method: 0, id: 1, status: 1, duration: 1, size: 1, server: 2, tool: 3, text: 4 };

/** One predicate for the query's terms (all must hold); undefined when there is none. */
export function compileQuery(query: ParsedQuery, context: QueryContext = {}): Test | undefined {
  const terms = [...query.terms].sort((a, b) => COST[a.field] - COST[b.field]);
  const tests = terms.map((term) => {
    const test = termTest(term, context);
    return term.negate ? (row: HistoryRow) => !test(row) : test;
  });
  if (tests.length === 0) return undefined;
  if (tests.length === 1) return tests[0];
  if (tests.length === 2) {
    const [a, b] = tests;
    return (row) => a(row) && b(row);
  }
  return (row) => {
    for (const test of tests) if (!test(row)) return false;
    return true;
  };
}

/** The rows of `rows` the query lets through (the CLI's and the tests' entry; the page goes through filter.ts). */
export function queryRows(rows: readonly HistoryRow[], source: string, context?: QueryContext): HistoryRow[] {
  const test = compileQuery(parseQuery(source), context);
  return test ? rows.filter(test) : [...rows];
}

/** Whether a row's later state (its answer: status, duration) matters to the query. */
export function queryDependsOnPairing(source: string): boolean {
  return parseQuery(source).terms.some((t) => t.field === 'status' || t.field === 'duration');
}

function termKey(term: QueryTerm): string {
  const { start: _s, end: _e, ...rest } = term;
  return JSON.stringify(rest);
}

/**
 * Whether every row `next` lets through is one `prev` lets through: each term of `prev` is in
 * `next`, or is a text that a text of `next` extends. Typing one more character of a term then
 * filters the rows shown, not the trace.
 */
export function queryNarrows(prev: string, next: string): boolean {
  const before = parseQuery(prev).terms;
  if (before.length === 0) return true;
  const after = parseQuery(next).terms;
  const keys = new Set(after.map(termKey));
  return before.every((term) => {
    if (keys.has(termKey(term))) return true;
    if (term.field !== 'text' || term.negate) return false;
    const needle = term.value.toLowerCase();
    return after.some((t) => t.field === 'text' && !t.negate && t.value.toLowerCase().includes(needle));
  });
}
