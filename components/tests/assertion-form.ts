/**
 * An assertion as the Tests tab edits it (issue 27): one row of a check (a select), a path where the
 * check has one, and a value as typed. Back to an assertion through lib/collections/read.ts, the
 * reader the proxy and `--test` use, so a row the page accepts is one the file accepts.
 */
import { readAssertion } from '../../lib/collections/read.ts';
import type { Assertion } from '../../lib/collections/schema.ts';

export type Check = 'isError' | 'equals' | 'matches' | 'type' | 'exists' | 'outputSchema' | 'textContains' | 'durationUnderMs' | 'notification' | 'refusedByRule';

export interface AssertionRow {
  check: Check;
  /** The JSONPath (`equals`, `matches`, `type`, `exists`). */
  path: string;
  /** As typed: JSON for `equals`, `true`/`false` for `isError` and `exists`, a type name, a pattern, text, a number. */
  value: string;
}

/** The select's choices, in the order a person reaches for them. */
export const CHECKS: ReadonlyArray<[Check, string]> = [
  ['isError', 'result is an error'],
  ['equals', 'value at path equals'],
  ['matches', 'value at path matches pattern'],
  ['type', 'value at path has type'],
  ['exists', 'value at path exists'],
  ['textContains', 'text contains'],
  ['outputSchema', 'structuredContent fits outputSchema'],
  ['durationUnderMs', 'answers within (ms)'],
  ['notification', 'notification seen'],
  ['refusedByRule', 'refused by rule'],
];

export const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

export const hasPath = (check: Check): boolean => check === 'equals' || check === 'matches' || check === 'type' || check === 'exists';

/** What the value field holds for a check, as its label says it (absent: the check has no value). */
export const VALUE_LABEL: Partial<Record<Check, string>> = {
  isError: 'Is an error',
  equals: 'Expected (JSON)',
  matches: 'Pattern',
  type: 'Type',
  exists: 'Exists',
  textContains: 'Text',
  durationUnderMs: 'Milliseconds',
  notification: 'Method',
  refusedByRule: 'Rule name (empty: any rule)',
};

/** The value a check starts with when chosen in the select. */
export function blankRow(check: Check, path = '$'): AssertionRow {
  const value = check === 'isError' ? 'false' : check === 'exists' ? 'true' : check === 'type' ? 'string' : check === 'equals' ? 'null' : check === 'durationUnderMs' ? '1000' : '';
  return { check, path: hasPath(check) ? path : '', value };
}

export function rowOf(a: Assertion): AssertionRow {
  if ('isError' in a) return { check: 'isError', path: '', value: String(a.isError) };
  if ('equals' in a) return { check: 'equals', path: a.path, value: JSON.stringify(a.equals) ?? 'null' };
  if ('matches' in a) return { check: 'matches', path: a.path, value: a.matches };
  if ('type' in a) return { check: 'type', path: a.path, value: a.type };
  if ('exists' in a) return { check: 'exists', path: a.path, value: String(a.exists) };
  if ('outputSchema' in a) return { check: 'outputSchema', path: '', value: '' };
  if ('textContains' in a) return { check: 'textContains', path: '', value: a.textContains };
  if ('durationUnderMs' in a) return { check: 'durationUnderMs', path: '', value: String(a.durationUnderMs) };
  if ('notification' in a) return { check: 'notification', path: '', value: a.notification };
  return { check: 'refusedByRule', path: '', value: a.refusedByRule === true ? '' : a.refusedByRule };
}

function raw(row: AssertionRow): { ok: true; value: unknown } | { ok: false; error: string } {
  const value = row.value.trim();
  switch (row.check) {
    case 'isError':
    case 'exists':
      return { ok: true, value: hasPath(row.check) ? { path: row.path.trim(), exists: value !== 'false' } : { isError: value !== 'false' } };
    case 'equals':
      try {
        return { ok: true, value: { path: row.path.trim(), equals: JSON.parse(row.value) as unknown } };
      } catch {
        return { ok: false, error: `the expected value is not JSON (a string is written in quotes: "${row.value}")` };
      }
    case 'matches':
      return { ok: true, value: { path: row.path.trim(), matches: row.value } };
    case 'type':
      return { ok: true, value: { path: row.path.trim(), type: value } };
    case 'outputSchema':
      return { ok: true, value: { outputSchema: true } };
    case 'textContains':
      return { ok: true, value: { textContains: row.value } };
    case 'durationUnderMs':
      return value !== '' && Number.isFinite(Number(value)) ? { ok: true, value: { durationUnderMs: Number(value) } } : { ok: false, error: 'the time is not a number of milliseconds' };
    case 'notification':
      return { ok: true, value: { notification: value } };
    case 'refusedByRule':
      return { ok: true, value: { refusedByRule: value === '' ? true : value } };
  }
}

/** The rows back as assertions, or the first row's problem (`assertion 2: …`). */
export function assertionsOf(rows: readonly AssertionRow[]): { ok: true; assertions: Assertion[] } | { ok: false; error: string } {
  const out: Assertion[] = [];
  for (const [i, row] of rows.entries()) {
    const where = `assertion ${i + 1}`;
    const value = raw(row);
    if (!value.ok) return { ok: false, error: `${where}: ${value.error}` };
    const read = readAssertion(value.value, where);
    if (!read.ok) return read;
    out.push(read.value);
  }
  return { ok: true, assertions: out };
}
