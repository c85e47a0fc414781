/**
 * Argument matchers of an eval case (issue 27): what one argument of an expected tool call must be.
 * The shape a person writes by hand, one key deciding the kind (as the collections' assertions do,
 * lib/collections/schema.ts):
 *
 *   4 / "hello" / [1, 2] / null    equal to this value (deeply; object key order aside)
 *   { "equals": { "a": 1 } }       equal to this value, for an object that would read as a matcher
 *   { "matches": "^he" }           the value (its JSON text when not a string) matches the regular expression
 *   { "contains": "ell" }          a string containing it, or an array with an element equal to it or a string containing it
 *   { "type": "number" }           string, number, integer, boolean, object, array or null
 *   { "any": true }                present, whatever its value
 *
 * An argument is named by its key (`message`) or by a JSONPath into the arguments (`$.filter.name`,
 * lib/json/json-path.ts). An argument that is absent fails every matcher, `{ "any": true }` too.
 */
import { evaluatePath, formatPath, jsonEqual, parsePath } from '../json/json-path.ts';
import { isObj } from '../json/json-values.ts';

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
export type JsonType = (typeof TYPES)[number];

export type Matcher =
  | { kind: 'equals'; value: unknown }
  | { kind: 'matches'; pattern: string }
  | { kind: 'contains'; text: unknown }
  | { kind: 'type'; type: JsonType }
  | { kind: 'any' };

/** A JavaScript regular expression, `source` or `/source/flags`; why not, when it does not compile. */
export function readRegex(text: string): { ok: true; regex: RegExp } | { ok: false; error: string } {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text);
  try {
    // g and y make test() remember where it stopped: a second run would start mid-text.
    return { ok: true, regex: literal ? new RegExp(literal[1], literal[2].replace(/[gy]/g, '')) : new RegExp(text) };
  } catch (error) {
    return { ok: false, error: `${JSON.stringify(text)} is not a regular expression (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The matcher a written value stands for: an object of one matcher key is that matcher, anything else a value to equal. */
export function matcherOf(written: unknown): Matcher {
  if (!isObj(written) || Object.keys(written).length !== 1) return { kind: 'equals', value: written };
  if ('equals' in written) return { kind: 'equals', value: written.equals };
  if (typeof written.matches === 'string') return { kind: 'matches', pattern: written.matches };
  if ('contains' in written) return { kind: 'contains', text: written.contains };
  if (typeof written.type === 'string' && (TYPES as readonly string[]).includes(written.type)) return { kind: 'type', type: written.type as JsonType };
  if (written.any === true) return { kind: 'any' };
  return { kind: 'equals', value: written };
}

/** What is wrong with a written matcher and its key (a bad path, a bad regular expression, an unknown type). */
export function matcherProblems(key: string, written: unknown): string[] {
  const problems: string[] = [];
  if (key.startsWith('$')) {
    const path = parsePath(key);
    if (!path.ok) problems.push(path.error);
  }
  if (isObj(written) && Object.keys(written).length === 1) {
    if (typeof written.type === 'string' && !(TYPES as readonly string[]).includes(written.type)) problems.push(`${labelOf(key)}: the type ${JSON.stringify(written.type)} is none of ${TYPES.join(', ')}`);
    if ('matches' in written && typeof written.matches !== 'string') problems.push(`${labelOf(key)}: "matches" takes a regular expression as a string`);
    if ('any' in written && written.any !== true) problems.push(`${labelOf(key)}: "any" takes true only`);
  }
  const matcher = matcherOf(written);
  if (matcher.kind === 'matches') {
    const read = readRegex(matcher.pattern);
    if (!read.ok) problems.push(`${labelOf(key)}: ${read.error}`);
  }
  return problems;
}

/** `arguments.message`, `arguments.filter.name`, `arguments['my key']`: where an argument is, in words. */
export function labelOf(key: string): string {
  const path = key.startsWith('$') ? key : formatPath([key]);
  return `arguments${path.slice(1)}`;
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'object';
}

/** A value as a short text for a reason: its JSON, cut at 120 characters. */
export function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 120 ? text : `${text.slice(0, 117)}…`;
}

function holds(matcher: Matcher, value: unknown): boolean {
  switch (matcher.kind) {
    case 'equals':
      return jsonEqual(value, matcher.value);
    case 'matches': {
      const read = readRegex(matcher.pattern);
      return read.ok && read.regex.test(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
    }
    case 'contains': {
      const inside = (v: unknown) => (typeof v === 'string' && typeof matcher.text === 'string' ? v.includes(matcher.text) : jsonEqual(v, matcher.text));
      return Array.isArray(value) ? value.some(inside) : typeof value === 'string' && inside(value);
    }
    case 'type': {
      const type = jsonTypeOf(value);
      return type === matcher.type || (matcher.type === 'number' && type === 'integer');
    }
    case 'any':
      return true;
  }
}

function expectation(matcher: Matcher): string {
  switch (matcher.kind) {
    case 'equals':
      return shortJson(matcher.value);
    case 'matches':
      return `to match ${matcher.pattern.startsWith('/') ? matcher.pattern : `/${matcher.pattern}/`}`;
    case 'contains':
      return `to contain ${shortJson(matcher.text)}`;
    case 'type':
      return `${/^[aeiou]/.test(matcher.type) ? 'an' : 'a'} ${matcher.type}`;
    case 'any':
      return 'any value';
  }
}

/** The values at an argument's key or path (none: absent). */
function valuesAt(key: string, args: Record<string, unknown>): unknown[] {
  if (!key.startsWith('$')) return Object.hasOwn(args, key) ? [args[key]] : [];
  const path = parsePath(key);
  return path.ok ? evaluatePath(path.path, args).map((m) => m.value) : [];
}

/**
 * Where the arguments miss the written matchers, one sentence each (`arguments.a = 3, expected 4`);
 * none when every matcher holds. A path that selects several values holds when one of them does.
 */
export function argumentMismatches(written: Readonly<Record<string, unknown>> | undefined, args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, raw] of Object.entries(written ?? {})) {
    const matcher = matcherOf(raw);
    const values = valuesAt(key, args);
    if (values.length === 0) {
      out.push(`${labelOf(key)} is missing, expected ${expectation(matcher)}`);
      continue;
    }
    if (values.some((v) => holds(matcher, v))) continue;
    const shown = values[0];
    const type = matcher.kind === 'type' ? ` (${jsonTypeOf(shown)})` : '';
    out.push(`${labelOf(key)} = ${shortJson(shown)}${type}, expected ${expectation(matcher)}`);
  }
  return out;
}
