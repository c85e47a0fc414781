/**
 * The two ways a rule's match reads text that a peer chose (issue 21, item 7): a `method` / `name`
 * glob, and an `argument` pattern (a JavaScript regular expression). Both run on the proxy's only
 * thread for every frame, so neither may cost more than a bounded amount, whatever the text.
 *
 * Globs are matched here, not turned into a RegExp: `*a*a*a*b` as /^.*a.*a.*a.*b$/ made V8
 * backtrack for seconds on a 400-character tool name. No library was worth it for `*` alone.
 *
 * A regular expression cannot be made linear without another engine (RE2 has no lookahead, which
 * a gate such as `^(?!/tmp/)` needs), so a pattern is read once, when the rule is: the shapes that
 * backtrack exponentially are refused, the polynomial ones are priced, and the text a pattern is
 * tested against is bounded: a longer one matches without being tested. The price is meant as an upper bound of
 * V8's backtracking (each repeat multiplies the work of what follows it), so it refuses some
 * patterns that V8 would run fast. Written here rather than taken from safe-regex / safe-regex2:
 * those check only the nesting of repeats, not repeats that follow each other (`.*a.*a.*b`).
 */

/** How much of an argument a pattern sees: its first this many characters (UTF-16 code units). */
export const PATTERN_TEXT_LIMIT = 4_096;

/** The most backtracking steps a pattern may cost over PATTERN_TEXT_LIMIT characters: 0.1 to 0.5 s on a busy machine. */
const STEP_BUDGET = 100_000_000;

/**
 * Whether `text` is matched by `glob`, where `*` is any run of characters (`/` and newlines too)
 * and everything else is literal. The greedy two-pointer algorithm: when a literal fails, the last
 * `*` takes one more character and matching resumes after it. It never goes back further than the
 * last `*`, so it is O(glob × text) at worst, where a backtracking RegExp is exponential.
 */
export function globMatches(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && glob[g] === '*') {
      star = g++;
      resume = t;
    } else if (g < glob.length && glob[g] === text[t]) {
      g++;
      t++;
    } else if (star >= 0) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

export type PatternRead = { ok: true; regexp: RegExp } | { ok: false; problem: string };

/**
 * An argument pattern, compiled, or why it cannot be used. `problem` follows the field's name:
 * `"match.argument.pattern" is not a valid regular expression: …` / `… could stall the proxy: …`.
 */
export function readPattern(pattern: string): PatternRead {
  let regexp: RegExp;
  try {
    regexp = new RegExp(pattern);
  } catch (error) {
    return { ok: false, problem: `is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}` };
  }
  let risk: string | undefined;
  try {
    risk = priceOf(pattern);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    risk = 'its groups are nested too deeply to check.';
  }
  return risk === undefined ? { ok: true, regexp } : { ok: false, problem: `could stall the proxy: ${risk}` };
}

/**
 * Tests an argument's text. Text longer than PATTERN_TEXT_LIMIT cannot be tested at a bounded
 * cost, and testing only a part of it would let a peer slip past a `deny` or `pause` gate by
 * padding (`\brm\b` after 5,000 spaces), so it counts as matching: the rule fails closed.
 */
export function testPattern(regexp: RegExp, text: string): boolean {
  return text.length > PATTERN_TEXT_LIMIT || regexp.test(text);
}

/** One piece of a pattern, with its quantifier (`{1,1}` when it has none). */
interface Node {
  /** `one`: a piece that matches one character (a character, an escape, a class, `.`). */
  kind: 'one' | 'group' | 'look' | 'start' | 'end';
  source: string;
  branches: Node[][];
  min: number;
  max: number;
  quantifier: string;
}

/** The work of a piece as a function of the work of what follows it: w ↦ a·w + b. */
interface Work {
  a: number;
  b: number;
}

const L = PATTERN_TEXT_LIMIT;
const QUANTIFIER = /(?:[*+?]|\{(\d+)(?:(,)(\d*))?\})\??/y;
const ONCE: Work = { a: 1, b: 1 };

/**
 * Undefined when the pattern is cheap enough; otherwise why not, in words. Reads a pattern that
 * compiled, in the syntax of a RegExp without flags (Annex B: a `{` that is no quantifier is a
 * literal), into pieces, then prices each branch from the work of what follows each piece.
 */
function priceOf(pattern: string): string | undefined {
  const { branches } = parseBranches(pattern, 0, false);
  const nested = branches.flat().map(exponential).find((why) => why !== undefined);
  if (nested) return nested;
  const steps = sum(branches.map((branch) => (branch[0]?.kind === 'start' ? 1 : L) * apply(workOf(branch), 1)));
  if (steps <= STEP_BUDGET) return undefined;
  const open = countOpen(branches);
  const anchored = branches.every((branch) => branch[0]?.kind === 'start');
  return (
    `with ${open} open-ended repeat${open === 1 ? '' : 's'} (*, +, {n,})${anchored ? '' : ' and no ^ at its start'}, a crafted argument could make it backtrack about ${roughly(steps)} steps ` +
    `(Loupe allows ${roughly(STEP_BUDGET)}; an argument longer than ${L} characters always matches). ` +
    `Use fewer repeats${anchored ? '' : ', or anchor the pattern with ^'}: each repeat multiplies the work of what follows it, unless what follows is a character it cannot match.`
  );
}

function parseBranches(pattern: string, from: number, inGroup: boolean): { branches: Node[][]; end: number } {
  const branches: Node[][] = [[]];
  let i = from;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === ')' && inGroup) return { branches, end: i + 1 };
    if (c === '|') {
      branches.push([]);
      i++;
      continue;
    }
    const start = i;
    let node: Node;
    if (c === '(') {
      const prefix = groupPrefix(pattern, i);
      const inner = parseBranches(pattern, i + prefix, true);
      const look = prefix > 1 && pattern[i + 2] !== ':' && !(pattern[i + 2] === '<' && prefix > 4);
      node = piece(look ? 'look' : 'group', pattern.slice(i, inner.end), inner.branches);
      i = inner.end;
    } else {
      i = c === '\\' ? i + 2 : c === '[' ? classEnd(pattern, i) : i + 1;
      node = piece(c === '^' ? 'start' : c === '$' ? 'end' : 'one', pattern.slice(start, i), []);
    }
    QUANTIFIER.lastIndex = i;
    const q = node.kind === 'start' || node.kind === 'end' ? null : QUANTIFIER.exec(pattern);
    if (q) {
      [node.min, node.max] = bounds(q);
      node.quantifier = q[0];
      i += q[0].length;
    }
    branches[branches.length - 1].push(node);
  }
  return { branches, end: i };
}

const piece = (kind: Node['kind'], source: string, branches: Node[][]): Node => ({ kind, source, branches, min: 1, max: 1, quantifier: '' });
const varies = (node: Node): boolean => node.min !== node.max || node.branches.some((b) => b.some(varies));
const chooses = (node: Node): boolean => node.branches.length > 1 || node.branches.some((b) => b.some(chooses));

/** A group repeated a varying number of times that itself repeats or chooses: exponential backtracking. */
function exponential(node: Node): string | undefined {
  const inner = node.branches.flat().map(exponential).find((why) => why !== undefined);
  if (inner) return inner;
  if (node.kind === 'one' || node.max <= 1 || node.min === node.max) return undefined;
  const inside = node.branches.some((b) => b.some(varies)) ? 'itself repeats' : chooses(node) ? 'offers a choice (|)' : undefined;
  if (!inside) return undefined;
  const instead = inside === 'itself repeats' ? 'a+ instead of (a+)+' : '[ab]+ instead of (a|b)+';
  return `it repeats ${node.source} with ${node.quantifier}, a part that ${inside}, so on a crafted argument it backtracks exponentially. Write it without repeating such a part (for example ${instead}).`;
}

/** The work of a branch: its pieces composed left to right. */
function workOf(branch: Node[]): Work {
  let acc: Work = { a: 1, b: 0 };
  for (const [k, node] of branch.entries()) acc = then(acc, workOfNode(node, branch[k + 1]));
  return acc;
}

function workOfNode(node: Node, next: Node | undefined): Work {
  const once = onceOf(node);
  if (node.min === node.max) return power(once, node.min);
  const counts = Math.min(node.max - node.min + 1, L);
  // Greedy or lazy, the count is tried one by one; where what follows cannot start inside the
  // repeat, every count but one fails at once (the repeat acts as if possessive).
  if (node.kind === 'one' && stopsAt(node, next)) return { a: 1, b: 2 * counts };
  if (node.max <= 1) return { a: once.a + 1, b: once.b };
  return { a: counts, b: counts * once.b };
}

function onceOf(node: Node): Work {
  // A backreference compares as many characters as its group took.
  if (node.kind === 'one' && /^\\(?:[1-9]|k)/.test(node.source)) return { a: 1, b: L };
  if (node.kind === 'one' || node.kind === 'start' || node.kind === 'end') return ONCE;
  const work = node.branches.map(workOf).reduce((x, y) => ({ a: x.a + y.a, b: x.b + y.b }));
  // A lookaround is atomic: it runs once, then what follows runs once.
  return node.kind === 'look' ? { a: 1, b: apply(work, 1) } : work;
}

/** Whether the piece after a repeated character can never match where the repeat could go on: a literal outside its set, or the end. */
function stopsAt(node: Node, next: Node | undefined): boolean {
  if (next?.kind === 'end') return true;
  if (next?.kind !== 'one' || next.min < 1 || !/^(?:\\[^A-Za-z0-9]|[^\\[.])$/.test(next.source)) return false;
  if (!/^(?:\\[dDwWsS]|\\[^A-Za-z0-9]|\[.*\]|[^\\])$/s.test(node.source)) return false;
  try {
    return !new RegExp(`^(?:${node.source})$`).test(next.source.at(-1) as string);
  } catch {
    return false;
  }
}

const then = (f: Work, g: Work): Work => ({ a: f.a * g.a, b: f.a * g.b + f.b });
const apply = (f: Work, w: number): number => f.a * w + f.b;

/** `f` applied n times, in closed form (a count may be in the millions). */
function power(f: Work, n: number): Work {
  if (f.a === 1) return { a: 1, b: f.b * n };
  const an = f.a ** n;
  return { a: an, b: (f.b * (an - 1)) / (f.a - 1) };
}

function countOpen(branches: Node[][]): number {
  return sum(branches.flat().map((node) => (node.max === Infinity || node.max - node.min >= L ? 1 : 0) + countOpen(node.branches)));
}

const sum = (values: number[]): number => values.reduce((x, y) => x + y, 0);

function bounds(q: RegExpExecArray): [number, number] {
  const head = q[0][0];
  if (head === '*') return [0, Infinity];
  if (head === '+') return [1, Infinity];
  if (head === '?') return [0, 1];
  const min = Number(q[1]);
  if (q[2] === undefined) return [min, min];
  return [min, q[3] === '' ? Infinity : Number(q[3])];
}

/** The index after a character class that starts at `i` (`[]` is empty and `[^]` any character, as in JavaScript). */
function classEnd(pattern: string, i: number): number {
  let j = i + 1;
  if (pattern[j] === '^') j++;
  while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** How many characters open a group: `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`. */
function groupPrefix(pattern: string, i: number): number {
  if (pattern[i + 1] !== '?') return 1;
  if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') return pattern.indexOf('>', i) - i + 1;
  return pattern[i + 2] === '<' ? 4 : 3;
}

function roughly(n: number): string {
  if (!Number.isFinite(n) || n >= 1e15) return 'more than a thousand trillion';
  for (const [size, word] of [
    [1e12, 'trillion'],
    [1e9, 'billion'],
    [1e6, 'million'],
  ] as const) {
    if (n >= size) return `${Math.round(n / size)} ${word}`;
  }
  return String(Math.round(n));
}
