import { describe, expect, it } from 'vitest';
import { fuzzyMatch, rank, RECENT_LIMIT, remember } from './fuzzy.ts';

const marked = (text: string, query: string): string => {
  const m = fuzzyMatch(query, text);
  if (!m) return '∅';
  let out = '';
  let at = 0;
  for (const [s, e] of m.ranges) {
    out += `${text.slice(at, s)}[${text.slice(s, e)}]`;
    at = e;
  }
  return out + text.slice(at);
};

describe('fuzzyMatch', () => {
  it('matches letters in order, case-insensitively, and says which', () => {
    expect(marked('echo', 'echo')).toBe('[echo]');
    expect(marked('getTinyImage', 'ECH')).toBe('∅');
    expect(marked('Run tool', 'rt')).toBe('[R]un [t]ool');
    expect(marked('longRunningOperation', 'lro')).toBe('[l]ong[R]unning[O]peration');
    expect(marked('resources/read', 'rsrd')).toBe('[r]e[s]ources/[r]ea[d]');
    expect(marked('Run tool', 'run tl')).toBe('[Run] [t]oo[l]');
  });

  it('prefers a whole substring, at a word start, and a shorter text', () => {
    const score = (q: string, t: string) => fuzzyMatch(q, t)?.score ?? -Infinity;
    expect(score('echo', 'echo')).toBeGreaterThan(score('echo', 'e-c-h-o'));
    expect(score('echo', 'echo')).toBeGreaterThan(score('echo', 'print-echo-back'));
    expect(score('tool', 'Run tool')).toBeGreaterThan(score('tool', 'Runtools'));
    expect(score('sum', 'get-sum')).toBeGreaterThan(score('sum', 'get-summary-of-everything-here'));
    expect(score('gti', 'getTinyImage')).toBeGreaterThan(score('gti', 'goatxxi'));
  });

  it('matches everything with an empty query, with score 0 and nothing marked', () => {
    expect(fuzzyMatch('', 'anything')).toEqual({ score: 0, ranges: [] });
    expect(fuzzyMatch('  ', 'anything')).toEqual({ score: 0, ranges: [] });
  });

  it('takes the letters as they are in a text of any characters', () => {
    expect(marked('‮evil', 'evil')).toBe('‮[evil]');
    expect(marked('a.b', '.')).toBe('a[.]b');
  });
});

describe('rank and the recent list', () => {
  const items = ['echo', 'add', 'printEnv', 'getTinyImage', 'longRunningOperation'];
  const key = (s: string) => s;

  it('orders by score, ties in the given order', () => {
    expect(rank(items, 'e', key, key).map((r) => r.item)).toEqual(['echo', 'printEnv', 'getTinyImage', 'longRunningOperation']);
    expect(rank(items, 'zzz', key, key)).toEqual([]);
  });

  it('puts recent choices first, newest first, with an empty query', () => {
    expect(rank(items, '', key, key, ['getTinyImage', 'add']).map((r) => r.item)).toEqual(['getTinyImage', 'add', 'echo', 'printEnv', 'longRunningOperation']);
  });

  it('raises a recent match over a slightly better one, not over a far better one', () => {
    expect(rank(['getEnv', 'printEnv'], 'env', key, key, ['printEnv']).map((r) => r.item)[0]).toBe('printEnv');
    expect(rank(['echo', 'e-c-h-o-x'], 'echo', key, key, ['e-c-h-o-x']).map((r) => r.item)[0]).toBe('echo');
  });

  it('remembers a choice once, first, within the bound', () => {
    expect(remember(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c']);
    let list: string[] = [];
    for (let i = 0; i < 50; i += 1) list = remember(list, `k${i}`);
    expect(list).toHaveLength(RECENT_LIMIT);
    expect(list[0]).toBe('k49');
    expect(remember(['a'], 'b', 1)).toEqual(['b']);
  });
});
