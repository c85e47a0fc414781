import { describe, expect, it } from 'vitest';
import { evaluatePath, formatPath, jsonDifferences, jsonEqual, matches, parsePath, type PathKey } from './json-path.ts';

const path = (text: string) => {
  const parsed = parsePath(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.path;
};
const hits = (text: string, keys: PathKey[]) => matches(path(text), keys);

describe('parsePath', () => {
  it('reads every supported form', () => {
    expect(path('$').selectors).toEqual([]);
    expect(path("$.a['b c'][2][*]..d.*").selectors).toEqual([
      { kind: 'name', name: 'a', descend: false },
      { kind: 'name', name: 'b c', descend: false },
      { kind: 'index', index: 2, descend: false },
      { kind: 'wildcard', descend: false },
      { kind: 'name', name: 'd', descend: true },
      { kind: 'wildcard', descend: false },
    ]);
    expect(path(`$..["x-y"]`).selectors).toEqual([{ kind: 'name', name: 'x-y', descend: true }]);
    expect(path("$['it\\'s']").selectors).toEqual([{ kind: 'name', name: "it's", descend: false }]);
    expect(path('$.io-thing/x').selectors).toEqual([{ kind: 'name', name: 'io-thing/x', descend: false }]);
  });

  it.each([
    ['timestamp', 'does not start with $'],
    ['$.', 'a name is missing'],
    ['$..', 'a name is missing'],
    ['$.a[', 'not closed'],
    ["$['a", 'not closed'],
    ["$['a'x", '"]" is missing'],
    ['$[a]', 'neither an index'],
    ['$a', 'unexpected "a"'],
    ['$.a b', 'unexpected " "'],
  ])('says what is wrong with %s', (text, what) => {
    const parsed = parsePath(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toContain(what);
      expect(parsed.error).toContain(`"${text}"`);
      expect(parsed.error).toContain('for example $..timestamp');
    }
  });
});

describe('matches', () => {
  it('matches names, indexes and wildcards exactly', () => {
    expect(hits('$', [])).toBe(true);
    expect(hits('$', ['a'])).toBe(false);
    expect(hits('$.a.b', ['a', 'b'])).toBe(true);
    expect(hits('$.a.b', ['a'])).toBe(false);
    expect(hits('$.a.b', ['a', 'b', 'c'])).toBe(false);
    expect(hits('$.content[0].text', ['content', 0, 'text'])).toBe(true);
    expect(hits('$.content[0].text', ['content', 1, 'text'])).toBe(false);
    expect(hits('$.content[*].text', ['content', 7, 'text'])).toBe(true);
    expect(hits('$.*', ['anything'])).toBe(true);
    // A name does not match an index of the same spelling.
    expect(hits("$['0']", [0])).toBe(false);
  });

  it('descends to any depth with ..', () => {
    expect(hits('$..timestamp', ['timestamp'])).toBe(true);
    expect(hits('$..timestamp', ['a', 3, 'b', 'timestamp'])).toBe(true);
    expect(hits('$..timestamp', ['timestamp', 'x'])).toBe(false);
    expect(hits('$..timestamp', ['timestamps'])).toBe(false);
    expect(hits('$.a..id', ['a', 'x', 'id'])).toBe(true);
    expect(hits('$.a..id', ['b', 'x', 'id'])).toBe(false);
    expect(hits('$..task.taskId', ['result', 'task', 'taskId'])).toBe(true);
    expect(hits('$..task.taskId', ['task', 'x', 'taskId'])).toBe(false);
    expect(hits('$..[0]', ['a', 0])).toBe(true);
  });

  it('stays fast on long paths with several ..', () => {
    const keys: PathKey[] = Array.from({ length: 200 }, (_, i) => (i % 2 ? 'a' : i));
    const started = performance.now();
    expect(hits('$..a..a..a..b', keys)).toBe(false);
    // Only tells a blow-up (exponential backtracking) from an answer: far from the typical millisecond.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('formatPath', () => {
  it('writes paths that parse back to the same location', () => {
    const cases: PathKey[][] = [[], ['a', 0, 'b'], ['with space', "it's", 'back\\slash'], ['x-y', '$ref', '0', 12], ['io.modelcontextprotocol/related-task']];
    for (const keys of cases) expect(matches(path(formatPath(keys)), keys)).toBe(true);
    expect(formatPath(['content', 0, 'text'])).toBe('$.content[0].text');
    expect(formatPath(['a.b'])).toBe("$['a.b']");
    expect(formatPath(['0'])).toBe("$['0']");
  });
});

describe('jsonDifferences', () => {
  it('finds nothing between equal values whatever their key order', () => {
    expect(jsonDifferences({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toEqual([]);
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
  });

  it('lists differences in document order with both values, absent as undefined', () => {
    const diffs = jsonDifferences({ a: 1, b: { x: 'old' }, list: [1, 2] }, { a: 2, b: { x: 'new', y: true }, list: [1], extra: 0 });
    expect(diffs.map((d) => [d.path, d.old, d.new])).toEqual([
      ['$.a', 1, 2],
      ['$.b.x', 'old', 'new'],
      ['$.b.y', undefined, true],
      ['$.list[1]', 2, undefined],
      ['$.extra', undefined, 0],
    ]);
  });

  it('tells types apart: null, absent, array and object, number and string', () => {
    expect(jsonDifferences({ a: null }, {}).map((d) => d.path)).toEqual(['$.a']);
    expect(jsonDifferences([], {}).map((d) => d.path)).toEqual(['$']);
    expect(jsonDifferences({ n: 1 }, { n: '1' }).map((d) => d.path)).toEqual(['$.n']);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
  });

  it('skips ignored locations and reports what they absorbed', () => {
    const rule = path('$..timestamp');
    const absorbed: unknown[] = [];
    const diffs = jsonDifferences(
      { items: [{ timestamp: 1, v: 'a' }], timestamp: 5, same: { timestamp: 9 } },
      { items: [{ timestamp: 2, v: 'b' }], timestamp: 6, same: { timestamp: 9 } },
      { ignored: (keys) => (matches(rule, keys) ? 0 : -1), onIgnored: (keys, old, now) => absorbed.push([formatPath(keys), old, now]) },
    );
    expect(diffs.map((d) => d.path)).toEqual(['$.items[0].v']);
    expect(absorbed).toEqual([
      ['$.items[0].timestamp', 1, 2],
      ['$.timestamp', 5, 6],
    ]);
  });

  it('stops at the limit', () => {
    expect(jsonDifferences([1, 2, 3], [4, 5, 6], { limit: 2 }).map((d) => d.path)).toEqual(['$[0]', '$[1]']);
  });

  it('compares values nested far deeper than the stack allows', () => {
    const deep = (leaf: number) => {
      let v: unknown = leaf;
      for (let i = 0; i < 50_000; i += 1) v = { a: v };
      return v;
    };
    expect(jsonDifferences(deep(1), deep(1))).toEqual([]);
    const diffs = jsonDifferences(deep(1), deep(2));
    expect(diffs).toHaveLength(1);
    expect(diffs[0].keys).toHaveLength(256);
    expect(jsonEqual(deep(1), deep(2))).toBe(false);
  });
});

describe('evaluatePath (issue 27: assertions and extracts)', () => {
  const doc = {
    content: [
      { type: 'text', text: 'Echo: hi' },
      { type: 'image', data: 'AAA', meta: { timestamp: 1 } },
    ],
    structuredContent: { sum: 5, nested: { timestamp: 2, list: [{ timestamp: 3 }] }, 'x-y': true, '0': 'zero' },
    timestamp: 0,
  };
  const found = (text: string, value: unknown = doc) => evaluatePath(path(text), value).map((m) => [formatPath(m.keys), m.value]);

  it('selects by name, quoted name, index and wildcard', () => {
    expect(found('$')).toEqual([['$', doc]]);
    expect(found('$.content[0].text')).toEqual([['$.content[0].text', 'Echo: hi']]);
    expect(found("$.structuredContent['x-y']")).toEqual([["$.structuredContent.x-y", true]]);
    expect(found('$.content[*].type')).toEqual([['$.content[0].type', 'text'], ['$.content[1].type', 'image']]);
    expect(found('$.structuredContent.*').map(([p]) => p)).toEqual(["$.structuredContent['0']", '$.structuredContent.sum', '$.structuredContent.nested', '$.structuredContent.x-y']);
  });

  it('selects nothing where nothing is, and keeps names and indexes apart', () => {
    expect(found('$.content[2]')).toEqual([]);
    expect(found('$.missing.deeper')).toEqual([]);
    expect(found('$.content.text')).toEqual([]);
    expect(found('$.structuredContent[0]')).toEqual([]);
    expect(found("$.structuredContent['0']")).toEqual([["$.structuredContent['0']", 'zero']]);
    expect(found('$[0]', 'a string')).toEqual([]);
    expect(found('$.toString', {})).toEqual([]);
  });

  it('descends with .. in document order, each location once', () => {
    // Each node's own member first, then those of the nodes below it, in document order (RFC 9535's order).
    expect(found('$..timestamp')).toEqual([
      ['$.timestamp', 0],
      ['$.content[1].meta.timestamp', 1],
      ['$.structuredContent.nested.timestamp', 2],
      ['$.structuredContent.nested.list[0].timestamp', 3],
    ]);
    expect(found('$..nested..timestamp')).toEqual([['$.structuredContent.nested.timestamp', 2], ['$.structuredContent.nested.list[0].timestamp', 3]]);
    expect(found('$..*..timestamp').map(([, v]) => v).sort()).toEqual([1, 2, 3]);
    expect(found('$..[0].text')).toEqual([['$.content[0].text', 'Echo: hi']]);
  });

  it('agrees with matches: every location it returns is one the path matches', () => {
    for (const text of ['$..timestamp', '$.content[*]', '$..*', '$..[0]', '$.structuredContent..*']) {
      for (const m of evaluatePath(path(text), doc)) expect(matches(path(text), m.keys), `${text} at ${formatPath(m.keys)}`).toBe(true);
    }
  });

  it('does not overflow on a value nested 20,000 deep, and stops looking at depth 256', () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 20_000; i += 1) deep = { a: deep };
    // Lengths only: a failing expectation would try to print the value itself.
    expect(evaluatePath(path('$..leaf'), deep).length).toBe(0);
    expect(evaluatePath(path('$.a.a.a'), deep).length).toBe(1);
    // The nodes at depths 0 to 256 are looked in, each giving its `a`.
    expect(evaluatePath(path('$..a'), deep).length).toBe(257);
  });

  it('returns at most 10,000 values', () => {
    const wide = { items: Array.from({ length: 30_000 }, (_, i) => i) };
    expect(evaluatePath(path('$.items[*]'), wide).length).toBe(10_000);
  });
});
