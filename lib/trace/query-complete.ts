/**
 * Completion for the History query (query.ts): field names as they are typed, then the values
 * the trace holds (methods, servers, kinds, tools) or the values a field takes (status, dir), and
 * examples for the comparisons. Pure: the toolbar asks with the text and the caret.
 */
import { ROW_KINDS, targetOf, TARGET_METHODS } from './query-fields.ts';
import { QUERY_FIELDS, STATUS_VALUES, type QueryField } from './query.ts';
import type { HistoryRow } from './trace.ts';

/** What the trace holds, for value completion. */
export interface QueryValues {
  method: readonly string[];
  server: readonly string[];
  kind: readonly string[];
  tool: readonly string[];
}

export interface QuerySuggestion {
  /** What the list shows. */
  label: string;
  /** A short word on what it is. */
  detail: string;
  /** The text that replaces `from`..`to` of the query. */
  insert: string;
}

export interface QueryCompletion {
  from: number;
  to: number;
  items: QuerySuggestion[];
}

const FIELD_HELP: Record<QueryField, string> = {
  method: 'JSON-RPC method',
  status: 'ok, error or pending',
  duration: 'answer time, e.g. >500ms',
  server: 'server name',
  dir: 'in or out',
  size: 'frame size, e.g. >1mb',
  kind: 'request, response, notification…',
  tool: 'tool, prompt or URI of a call',
  id: 'JSON-RPC id',
  text: 'text anywhere in the frame',
};

const EXAMPLES: Partial<Record<QueryField, readonly string[]>> = {
  duration: ['>100ms', '>500ms', '>1s', '<10ms'],
  size: ['>1kb', '>100kb', '>1mb', '<200b'],
};

const MAX_ITEMS = 50;

function quoteIfNeeded(value: string): string {
  return /[\s"]/.test(value) || value === '' ? `"${value.replace(/["\\]/g, '\\$&')}"` : value;
}

function valuesOf(field: QueryField, values: QueryValues): readonly string[] {
  switch (field) {
    case 'status':
      return STATUS_VALUES;
    case 'dir':
      return ['in', 'out'];
    case 'kind':
      return values.kind.length > 0 ? values.kind : ROW_KINDS;
    case 'method':
    case 'server':
    case 'tool':
      return values[field];
    default:
      return EXAMPLES[field] ?? [];
  }
}

/** Where the term under the caret starts (after whitespace not inside quotes). */
function termStart(text: string, caret: number): number {
  let start = 0;
  let inQuote = false;
  for (let i = 0; i < caret; i += 1) {
    const c = text[i];
    if (c === '\\' && inQuote) i += 1;
    else if (c === '"') inQuote = !inQuote;
    else if (!inQuote && /\s/.test(c)) start = i + 1;
  }
  return start;
}

/**
 * Suggestions for the term the caret ends: field names for a bare word (`meth` → `method:`),
 * values for `field:` and what follows it. `all`: also when the term is empty (ArrowDown asked).
 */
export function completeQuery(text: string, caret: number, values: QueryValues, all = false): QueryCompletion {
  const from = termStart(text, caret);
  const negate = text[from] === '-' ? '-' : '';
  const term = text.slice(from + negate.length, caret);
  const colon = term.indexOf(':');
  const none = { from, to: caret, items: [] };
  if (colon < 0) {
    if (term === '' && !all) return none;
    if (term.startsWith('"')) return none;
    const lower = term.toLowerCase();
    const items = QUERY_FIELDS.filter((f) => f.startsWith(lower)).map((f) => ({ label: `${f}:`, detail: FIELD_HELP[f], insert: `${negate}${f}:` }));
    return { from, to: caret, items };
  }
  const field = term.slice(0, colon).toLowerCase() as QueryField;
  if (!(QUERY_FIELDS as readonly string[]).includes(field)) return none;
  const typed = term.slice(colon + 1).replace(/^"/, '').toLowerCase();
  const prefix = `${negate}${term.slice(0, colon)}:`;
  const candidates = valuesOf(field, values);
  const starts = candidates.filter((v) => v.toLowerCase().startsWith(typed));
  const contains = typed === '' ? [] : candidates.filter((v) => !v.toLowerCase().startsWith(typed) && v.toLowerCase().includes(typed));
  const items = [...starts, ...contains].slice(0, MAX_ITEMS).map((v) => ({ label: `${field}:${v}`, detail: FIELD_HELP[field], insert: `${prefix}${quoteIfNeeded(v)} ` }));
  return { from, to: caret, items };
}

/** Methods, kinds and tools present in `rows` (one pass; only call frames are parsed, once each). */
export function queryValues(rows: readonly HistoryRow[], methods: Iterable<string>, servers: readonly string[]): QueryValues {
  const kinds = new Set<string>();
  const tools = new Set<string>();
  for (const row of rows) {
    kinds.add(row.kind);
    if (row.kind === 'request' && row.method !== undefined && TARGET_METHODS.has(row.method)) {
      const target = targetOf(row);
      if (target !== undefined) tools.add(target);
    }
  }
  const sorted = (set: Iterable<string>) => [...set].sort((a, b) => a.localeCompare(b));
  return { method: sorted(methods), server: sorted(new Set(servers)), kind: ROW_KINDS.filter((k) => kinds.has(k)), tool: sorted(tools) };
}
