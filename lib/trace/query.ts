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

/** The text filter's test (filter.ts compileFilter): a literal, case-insensitive, in the row's text or its method. */
export function textTest(needle: string): Test {
  const pattern = new RegExp(escapeRegExp(needle), 'i');
  return (row) => pattern.test(searchText(row)) || (row.method !== undefined && pattern.test(row.method));
}

/** A small number per field, for the one switch that runs every term (and the order: cheap first). */
const Code = { Kind: 0, Dir: 1, Method: 2, Id: 3, Status: 4, Duration: 5, Size: 6, Server: 7, Tool: 8, Text: 9 } as const;
type Code = (typeof Code)[keyof typeof Code];

const CODES: Record<QueryField, Code> = { kind: Code.Kind, dir: Code.Dir, method: Code.Method, id: Code.Id, status: Code.Status, duration: Code.Duration, size: Code.Size, server: Code.Server, tool: Code.Tool, text: Code.Text };

/**
 * One term made ready to run. Every term has the same shape and one function runs them all (a
 * switch, no closure per term): V8 keeps that call site monomorphic, and a query whose fields pass
 * every row costs about what the text filter costs (bench/trace-ui.mjs).
 */
interface Plan {
  code: Code;
  negate: boolean;
  /** Values: `*` alone (any value), one value, a set, or a pattern (with `*` inside). */
  any: boolean;
  single: string | undefined;
  set: ReadonlySet<string> | undefined;
  pattern: RegExp | undefined;
  /** Comparisons: the bounds (inclusive or not), in ms or bytes. */
  low: number;
  high: number;
  lowInclusive: boolean;
  highInclusive: boolean;
}

/** The plan of a term, made in one object literal (one hidden class for every plan: the switch stays monomorphic). */
function planOf(term: QueryTerm): Plan {
  const text = term.field === 'text' ? new RegExp(escapeRegExp(term.value), 'i') : undefined;
  const compared = term.field === 'duration' || term.field === 'size' ? term : undefined;
  const above = compared !== undefined && (compared.op === '>' || compared.op === '>=');
  const values = 'values' in term ? term.values : [];
  const wild = values.some((v) => v.includes('*')) && !values.includes('*');
  return {
    code: CODES[term.field],
    negate: term.negate,
    any: values.includes('*'),
    single: values.length === 1 && !values[0].includes('*') ? values[0] : undefined,
    set: values.length > 1 && !wild && !values.includes('*') ? new Set(values) : undefined,
    pattern: text ?? (wild ? new RegExp(`^(?:${values.map((v) => v.split('*').map(escapeRegExp).join('.*')).join('|')})$`, 's') : undefined),
    low: compared && above ? compared.amount : -Infinity,
    high: compared && !above ? compared.amount : Infinity,
    lowInclusive: compared?.op !== '>',
    highInclusive: compared?.op !== '<',
  };
}

function valueMatches(plan: Plan, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (plan.any) return true;
  if (plan.single !== undefined) return value === plan.single;
  if (plan.set !== undefined) return plan.set.has(value);
  return plan.pattern !== undefined && plan.pattern.test(value);
}

function inRange(plan: Plan, value: number | undefined): boolean {
  if (value === undefined) return false;
  const aboveLow = plan.lowInclusive ? value >= plan.low : value > plan.low;
  return aboveLow && (plan.highInclusive ? value <= plan.high : value < plan.high);
}

function holds(plan: Plan, row: HistoryRow, serverOf: QueryContext['serverOf']): boolean {
  switch (plan.code) {
    case 0: // Kind
      return valueMatches(plan, row.kind);
    case 1: // Dir
      return valueMatches(plan, row.dir);
    case 2: // Method
      return valueMatches(plan, row.method);
    case 3: // Id
      return row.id !== undefined && valueMatches(plan, String(row.id));
    case 4: // Status
      return valueMatches(plan, statusOf(row));
    case 5: // Duration
      return inRange(plan, row.latencyMs);
    case 6: // Size
      return inRange(plan, row.size);
    case 7: // Server
      return valueMatches(plan, serverOf?.(row));
    case 8: // Tool
      return valueMatches(plan, targetOf(row));
    case 9: {
      // Text
      const pattern = plan.pattern as RegExp;
      return pattern.test(searchText(row)) || (row.method !== undefined && pattern.test(row.method));
    }
  }
}

/**
 * The order terms run in: a text to find first (the scan every row pays anyway, as with the text
 * filter; the few rows it finds are all the other terms then see), then the fields, cheap ones
 * first, the frame parse of `tool:` last but one, and a text to leave out last (it passes most rows).
 * So a query with a text costs what the text filter costs, one without costs less (bench/trace-ui.mjs).
 */
function rank(plan: Plan): number {
  if (plan.code === 9) return plan.negate ? 100 : -1;
  return plan.code;
}

/** One predicate for the query's terms (all must hold); undefined when there is none. */
export function compileQuery(query: ParsedQuery, context: QueryContext = {}): Test | undefined {
  if (query.terms.length === 0) return undefined;
  const plans = query.terms.map(planOf).sort((a, b) => rank(a) - rank(b));
  const serverOf = context.serverOf;
  if (plans.length === 1) {
    const [only] = plans;
    return (row) => holds(only, row, serverOf) !== only.negate;
  }
  return (row) => {
    for (let i = 0; i < plans.length; i += 1) if (holds(plans[i], row, serverOf) === plans[i].negate) return false;
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
