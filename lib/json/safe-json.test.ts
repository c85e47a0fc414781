import { describe, expect, it } from 'vitest';
import { compactJson, formatJson, jsonDepth, stringifyIteratively, stringifySafe, tooDeepNote } from './safe-json.ts';

function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A small seeded PRNG (mulberry32): the generated values are the same on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 4 ? 7 : 9));
  switch (pick) {
    case 0: return null;
    case 1: return random() < 0.5;
    case 2: return [0, -0, 1.5e300, -3, NaN, Infinity, 2 ** 60][Math.floor(random() * 7)];
    case 3: return ['', 'a"b\\c', '\u2028\n\t', '\ud800', 'é😀', '</script>'][Math.floor(random() * 6)];
    case 4: return undefined;
    case 5: return new Date(0);
    case 6: return 'x';
    case 7: return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default: return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}${random() < 0.2 ? '"' : ''}`, randomValue(random, depth + 1)]));
  }
}

describe('stringifyIteratively', () => {
  it('writes exactly what JSON.stringify writes, compact and indented (seeded values)', () => {
    const random = prng(8);
    for (let n = 0; n < 2_000; n += 1) {
      const value = randomValue(random);
      expect(stringifyIteratively(value)).toBe(JSON.stringify(value));
      expect(stringifyIteratively(value, 2)).toBe(JSON.stringify(value, null, 2));
    }
  });

  it('serialises 20,000 levels, where JSON.stringify throws', () => {
    const value = JSON.parse(nested(20_000));
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(stringifySafe(value)).toBe(nested(20_000));
    expect(stringifySafe(JSON.parse('['.repeat(9_000) + ']'.repeat(9_000)))).toBe('['.repeat(9_000) + ']'.repeat(9_000));
  });

  it('refuses cycles like JSON.stringify', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyIteratively(cyclic)).toThrow(TypeError);
  });
});

describe('jsonDepth and formatJson', () => {
  it('measures depth without recursion and stops past the limit', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth([])).toBe(1);
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
    expect(jsonDepth(JSON.parse(nested(20_000)))).toBe(20_000);
    expect(jsonDepth(JSON.parse(nested(20_000)), 100)).toBe(101);
  });

  it('pretty-prints shallow values and gives compact text, flagged, for deep ones', () => {
    expect(formatJson({ a: [1] })).toEqual({ text: '{\n  "a": [\n    1\n  ]\n}', tooDeep: false });
    const deep = formatJson(JSON.parse(nested(20_000)));
    expect(deep.tooDeep).toBe(true);
    expect(deep.text).toBe(nested(20_000));
    expect(tooDeepNote(100)).toBe('Nested deeper than 100 levels; shown collapsed.');
  });
});

describe('compactJson', () => {
  it('shows any parsed value compactly and never throws', () => {
    const deep = JSON.parse('['.repeat(20_000) + ']'.repeat(20_000));
    expect(compactJson(deep)).toBe('['.repeat(20_000) + ']'.repeat(20_000));
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(compactJson(cycle)).toBe('');
    expect(compactJson({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
  });
});
