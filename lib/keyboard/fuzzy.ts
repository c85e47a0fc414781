/**
 * Fuzzy matching for the command palette (issue 26): a query matches a text when its letters occur
 * in it in order, case-insensitively; the score prefers a whole substring, then letters at word
 * starts and letters next to each other, and a short text. The matched ranges let the palette
 * highlight the letters. A small subsequence scorer rather than a library: node_modules holds no
 * fuzzy matcher, the palette's lists are hundreds of short names, and this one is 60 lines that
 * return exactly the ranges the highlighting needs.
 */

export interface FuzzyMatch {
  score: number;
  /** Matched characters of the text as [start, end) ranges, in order, not overlapping. */
  ranges: Array<[number, number]>;
}

/** A character that starts a word: after a separator, or an upper-case letter after a lower-case one. */
function wordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const before = text[i - 1];
  if (/[\s/_\-.:#·@]/.test(before)) return true;
  return /[a-z]/.test(before) && /[A-Z]/.test(text[i]);
}

function toRanges(positions: readonly number[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const p of positions) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === p) last[1] = p + 1;
    else ranges.push([p, p + 1]);
  }
  return ranges;
}

/** The letters of `query` in `text`, each at the next word start if there is one before the next plain hit. */
function subsequence(query: string, text: string, lower: string): number[] | undefined {
  const positions: number[] = [];
  let from = 0;
  for (const ch of query) {
    const hit = lower.indexOf(ch, from);
    if (hit < 0) return undefined;
    let chosen = hit;
    // Not after the previous letter: a later word start reads better ("gt" in "get tiny" → g…t at "tiny").
    if (positions.length === 0 || hit !== positions[positions.length - 1] + 1) {
      for (let j = hit; j < lower.length; j += 1) {
        if (lower[j] === ch && wordStart(text, j)) {
          chosen = j;
          break;
        }
      }
      // Taking the word start must leave the rest of the query matchable.
      if (chosen !== hit && !fits(query.slice(positions.length + 1), lower, chosen + 1)) chosen = hit;
    }
    positions.push(chosen);
    from = chosen + 1;
  }
  return positions;
}

function fits(rest: string, lower: string, from: number): boolean {
  let at = from;
  for (const ch of rest) {
    const hit = lower.indexOf(ch, at);
    if (hit < 0) return false;
    at = hit + 1;
  }
  return true;
}

/** How well `query` matches `text`, or undefined when it does not. An empty query matches everything with score 0. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | undefined {
  const q = query.trim().toLowerCase();
  if (q === '') return { score: 0, ranges: [] };
  const lower = text.toLowerCase();
  const at = lower.indexOf(q);
  if (at >= 0) {
    // A whole substring beats any scattered match; at the start or a word start better still.
    const bonus = at === 0 ? 60 : wordStart(text, at) ? 40 : 0;
    return { score: 200 + bonus + q.length * 10 - Math.min(at, 30) - Math.min(text.length, 100) / 10, ranges: [[at, at + q.length]] };
  }
  // Scattered letters: spaces in the query only separate words ("run tl" matches "Run tool").
  const positions = subsequence(q.replace(/\s+/g, ''), text, lower);
  if (!positions) return undefined;
  let score = 0;
  positions.forEach((p, i) => {
    score += 10;
    if (wordStart(text, p)) score += 15;
    if (i > 0 && p === positions[i - 1] + 1) score += 12;
    else if (i > 0) score -= Math.min(p - positions[i - 1] - 1, 10);
  });
  return { score: score - Math.min(positions[0], 20) - Math.min(text.length, 100) / 10, ranges: toRanges(positions) };
}

export interface Ranked<T> {
  item: T;
  match: FuzzyMatch;
}

/** The recent list's bound: the palette remembers this many choices. */
export const RECENT_LIMIT = 20;

/** `key` put first in the recent list (once), the list kept to `limit`. */
export function remember(recent: readonly string[], key: string, limit = RECENT_LIMIT): string[] {
  return [key, ...recent.filter((k) => k !== key)].slice(0, Math.max(0, limit));
}

/**
 * The items that match `query`, best first: by score, a recently chosen item raised by how recent
 * it is (with an empty query, recent ones first, newest first), ties in the given order.
 */
export function rank<T>(items: readonly T[], query: string, textOf: (item: T) => string, keyOf: (item: T) => string, recent: readonly string[] = []): Ranked<T>[] {
  const recency = new Map(recent.map((key, i) => [key, recent.length - i]));
  const out: Array<Ranked<T> & { order: number; boost: number }> = [];
  items.forEach((item, order) => {
    const match = fuzzyMatch(query, textOf(item));
    if (match) out.push({ item, match, order, boost: (recency.get(keyOf(item)) ?? 0) * 5 + (recency.has(keyOf(item)) ? 50 : 0) });
  });
  out.sort((a, b) => b.match.score + b.boost - (a.match.score + a.boost) || a.order - b.order);
  return out.map(({ item, match }) => ({ item, match }));
}
