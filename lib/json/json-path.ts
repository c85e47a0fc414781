/**
 * A small JSONPath subset for `--verify --ignore` rules (issue 10): where in a response a volatile
 * value (a timestamp, a generated id) lives, so that comparing a recording with a live server can
 * leave it out. Also the one way Loupe writes a location in a JSON value (`formatPath`), so that a
 * divergence or a lockfile change is reported in the words an ignore rule is written in.
 *
 * Supported: `$`, `.name`, `['name']` / `["name"]`, `[n]`, `[*]` / `.*`, and `..` (recursive
 * descent) before any of them (`$..timestamp`, `$..['x-y']`, `$..[0]`).
 *
 * Also the path of a collection's assertions and extracts (issue 27, lib/collections/): there the
 * path is evaluated against an answer (`evaluatePath`), over the same selectors, so that an
 * assertion's `$.content[0].text` means exactly what an ignore rule's does.
 *
 * Why our own: no JSONPath package is a dependency, and the ones on npm bring filters and script
 * expressions (`?(@.x > 1)`, `(@.length-1)`) we do not want to run from a file or a command line.
 * What verify needs is the other direction anyway: "does this concrete location match a rule?",
 * asked at every node of a diff; and the evaluation collections need is one walk over the same
 * parsed selector list. Together a few dozen lines, with one meaning for both.
 */

/** One step of a concrete location: an object key or an array index. */
export type PathKey = string | number;

type Step = { kind: 'name'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' };

/** One step of a rule; `descend` (`..`) lets it match at any depth below the previous step. */
export type Selector = Step & { descend: boolean };

export interface JsonPath {
  /** The rule as the user wrote it. */
  text: string;
  selectors: Selector[];
}

export type ParsedPath = { ok: true; path: JsonPath } | { ok: false; error: string };

const NAME_CHAR = /[^.[\]\s'"*]/;
const HINT = 'Write it as a JSONPath starting with $, for example $..timestamp or $.content[0].text.';

/** Parses a rule. Bad syntax is a value with one plain sentence (the CLI prints it and exits 2). */
export function parsePath(text: string): ParsedPath {
  const fail = (what: string, at: number): ParsedPath => ({ ok: false, error: `The path "${text}" is not valid: ${what} at character ${at + 1}. ${HINT}` });
  if (!text.startsWith('$')) return fail('it does not start with $', 0);
  const selectors: Selector[] = [];
  let i = 1;
  while (i < text.length) {
    let descend = false;
    if (text.startsWith('..', i)) {
      descend = true;
      i += 2;
    } else if (text[i] === '.') {
      i += 1;
    } else if (text[i] !== '[') {
      return fail(`unexpected "${text[i]}"`, i);
    }
    if (text[i] === '[') {
      const read = readBracket(text, i);
      if (!read.ok) return fail(read.error, read.at);
      selectors.push({ ...read.selector, descend });
      i = read.next;
      continue;
    }
    if (text[i] === '*') {
      selectors.push({ kind: 'wildcard', descend });
      i += 1;
      continue;
    }
    const start = i;
    while (i < text.length && NAME_CHAR.test(text[i])) i += 1;
    if (i === start) return fail(i < text.length ? `unexpected "${text[i]}" after "."` : 'a name is missing after "."', i);
    selectors.push({ kind: 'name', name: text.slice(start, i), descend });
  }
  return { ok: true, path: { text, selectors } };
}

type Bracket = { ok: true; selector: Step; next: number } | { ok: false; error: string; at: number };

/** `[n]`, `[*]`, `['name']` or `["name"]` starting at `text[at] === '['`. */
function readBracket(text: string, at: number): Bracket {
  let i = at + 1;
  const quote = text[i];
  if (quote === "'" || quote === '"') {
    let name = '';
    i += 1;
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\' && i + 1 < text.length) i += 1;
      name += text[i];
      i += 1;
    }
    if (i >= text.length) return { ok: false, error: `the quoted name is not closed with ${quote}`, at };
    if (text[i + 1] !== ']') return { ok: false, error: '"]" is missing', at: i + 1 };
    return { ok: true, selector: { kind: 'name', name }, next: i + 2 };
  }
  const close = text.indexOf(']', i);
  if (close < 0) return { ok: false, error: '"[" is not closed with "]"', at };
  const inside = text.slice(i, close).trim();
  if (inside === '*') return { ok: true, selector: { kind: 'wildcard' }, next: close + 1 };
  if (/^\d+$/.test(inside)) return { ok: true, selector: { kind: 'index', index: Number(inside) }, next: close + 1 };
  return { ok: false, error: `"[${inside}]" is neither an index, * nor a quoted name`, at };
}

function stepMatches(selector: Selector, key: PathKey): boolean {
  if (selector.kind === 'wildcard') return true;
  if (selector.kind === 'index') return key === selector.index;
  return key === selector.name;
}

/** Whether the concrete location `keys` (from the root) is one the path selects. */
export function matches(path: JsonPath, keys: readonly PathKey[]): boolean {
  const { selectors } = path;
  // Memoised on (selector, key) positions: `..` rules would otherwise try every split again and again.
  const seen = new Map<number, boolean>();
  const match = (s: number, k: number): boolean => {
    if (s === selectors.length) return k === keys.length;
    const memo = s * (keys.length + 1) + k;
    const known = seen.get(memo);
    if (known !== undefined) return known;
    const selector = selectors[s];
    let found = false;
    if (selector.descend) {
      for (let j = k; j < keys.length && !found; j += 1) found = stepMatches(selector, keys[j]) && match(s + 1, j + 1);
    } else {
      found = k < keys.length && stepMatches(selector, keys[k]) && match(s + 1, k + 1);
    }
    seen.set(memo, found);
    return found;
  };
  return match(0, 0);
}

/** One value a path selects, with its concrete location. */
export interface PathMatch {
  keys: PathKey[];
  value: unknown;
}

/** Below this depth `..` does not look (a hostile answer can nest 20,000 deep). */
const MAX_EVAL_DEPTH = 256;
/** The most values one evaluation returns: `$..*` over a large answer would otherwise copy all of it. */
const MAX_EVAL_MATCHES = 10_000;

/** The children of a JSON value, in document order. */
function childrenOf(node: PathMatch): PathMatch[] {
  const { value, keys } = node;
  if (Array.isArray(value)) return value.map((v, i) => ({ keys: [...keys, i], value: v }));
  if (value !== null && typeof value === 'object') return Object.keys(value).map((k) => ({ keys: [...keys, k], value: (value as Record<string, unknown>)[k] }));
  return [];
}

/** The node and every node below it (to MAX_EVAL_DEPTH), in document order, without recursion. */
function selfAndBelow(node: PathMatch, out: PathMatch[]): void {
  const stack = [node];
  while (stack.length > 0 && out.length < MAX_EVAL_MATCHES) {
    const next = stack.pop()!;
    out.push(next);
    if (next.keys.length < MAX_EVAL_DEPTH) stack.push(...childrenOf(next).reverse());
  }
}

function stepOf(selector: Selector, node: PathMatch): PathMatch[] {
  const { value, keys } = node;
  if (selector.kind === 'wildcard') return childrenOf(node);
  if (selector.kind === 'index') return Array.isArray(value) && selector.index < value.length ? [{ keys: [...keys, selector.index], value: value[selector.index] }] : [];
  const isObj = value !== null && typeof value === 'object' && !Array.isArray(value);
  return isObj && Object.hasOwn(value, selector.name) ? [{ keys: [...keys, selector.name], value: (value as Record<string, unknown>)[selector.name] }] : [];
}

/**
 * The values `path` selects in `doc`, in document order, each once, with where it is: the same
 * locations `matches` accepts (an index selects array elements only, a name object members only).
 * `$` alone selects the document. `..` looks at most 256 levels deep; at most 10,000 values.
 */
export function evaluatePath(path: JsonPath, doc: unknown): PathMatch[] {
  let nodes: PathMatch[] = [{ keys: [], value: doc }];
  for (const selector of path.selectors) {
    let bases = nodes;
    if (selector.descend) {
      bases = [];
      for (const node of nodes) selfAndBelow(node, bases);
    }
    const next: PathMatch[] = [];
    const seen = new Set<string>();
    for (const base of bases) {
      for (const found of stepOf(selector, base)) {
        // A `..` after a `..` reaches a node from several bases: each location is kept once.
        const at = formatPath(found.keys);
        if (seen.has(at)) continue;
        seen.add(at);
        next.push(found);
        if (next.length >= MAX_EVAL_MATCHES) break;
      }
      if (next.length >= MAX_EVAL_MATCHES) break;
    }
    nodes = next;
  }
  return nodes;
}

const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** A concrete location written as a path that `parsePath` reads back to the same location. */
export function formatPath(keys: readonly PathKey[]): string {
  let out = '$';
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (PLAIN_NAME.test(key)) out += `.${key}`;
    else out += `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}

/** Where two JSON values differ. `old` / `new` are undefined where that side has nothing there. */
export interface Difference {
  keys: PathKey[];
  path: string;
  old: unknown;
  new: unknown;
}

export interface DiffOptions {
  /** Whether a location is left out of the comparison: the index of the rule that matched it, or -1. */
  ignored?: (keys: readonly PathKey[]) => number;
  /** Called for an ignored location whose two values differ (the rule absorbed a difference). */
  onIgnored?: (keys: readonly PathKey[], old: unknown, now: unknown, rule: number) => void;
  /** Stop after this many differences (default: all). */
  limit?: number;
}

const ABSENT: unique symbol = Symbol('absent');
type Side = unknown | typeof ABSENT;

/**
 * Below this depth two values are compared whole (jsonEqual) and a difference is reported at that
 * location: a hostile server can nest 20,000 deep, and carrying a path that long to every node
 * would cost depth² steps.
 */
const MAX_PATH_DEPTH = 256;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The locations where `a` and `b` differ, in document order (`a`'s keys first, then keys only `b`
 * has). Iterative, so a value of any depth cannot overflow the stack. Object key order does not
 * matter; array order does.
 */
export function jsonDifferences(a: unknown, b: unknown, options: DiffOptions = {}): Difference[] {
  const out: Difference[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const stack: [Side, Side, PathKey[]][] = [[a, b, []]];
  const add = (x: Side, y: Side, keys: PathKey[]) => out.push({ keys, path: formatPath(keys), old: x === ABSENT ? undefined : x, new: y === ABSENT ? undefined : y });
  while (stack.length > 0 && out.length < limit) {
    const [x, y, keys] = stack.pop()!;
    const rule = options.ignored ? options.ignored(keys) : -1;
    if (rule >= 0) {
      if (options.onIgnored && !jsonEqual(x, y)) options.onIgnored(keys, x === ABSENT ? undefined : x, y === ABSENT ? undefined : y, rule);
      continue;
    }
    if (keys.length >= MAX_PATH_DEPTH) {
      if (!jsonEqual(x, y)) add(x, y, keys);
      continue;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = Math.max(x.length, y.length) - 1; i >= 0; i -= 1) stack.push([i < x.length ? x[i] : ABSENT, i < y.length ? y[i] : ABSENT, [...keys, i]]);
      continue;
    }
    if (isObject(x) && isObject(y)) {
      const names = [...Object.keys(x), ...Object.keys(y).filter((k) => !Object.hasOwn(x, k))];
      for (let i = names.length - 1; i >= 0; i -= 1) {
        const k = names[i];
        stack.push([Object.hasOwn(x, k) ? x[k] : ABSENT, Object.hasOwn(y, k) ? y[k] : ABSENT, [...keys, k]]);
      }
      continue;
    }
    if (x !== y) add(x, y, keys);
  }
  return out;
}

/** Deep equality of two JSON values (object key order aside), without recursion. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i += 1) stack.push([x[i], y[i]]);
      continue;
    }
    if (isObject(x) && isObject(y)) {
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      for (const k of kx) {
        if (!Object.hasOwn(y, k)) return false;
        stack.push([x[k], y[k]]);
      }
      continue;
    }
    return false;
  }
  return true;
}
