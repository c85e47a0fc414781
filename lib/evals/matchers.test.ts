import { describe, expect, it } from 'vitest';
import { argumentMismatches, labelOf, matcherOf, matcherProblems, readRegex } from './matchers.ts';

describe('argument matchers', () => {
  it('a plain value is equality (deep, key order aside); an object of one matcher key is that matcher', () => {
    expect(matcherOf(4)).toEqual({ kind: 'equals', value: 4 });
    expect(matcherOf({ a: 1 })).toEqual({ kind: 'equals', value: { a: 1 } });
    expect(matcherOf({ equals: { contains: 'x' } })).toEqual({ kind: 'equals', value: { contains: 'x' } });
    expect(argumentMismatches({ o: { b: [1, 2], a: 'x' } }, { o: { a: 'x', b: [1, 2] } })).toEqual([]);
    expect(argumentMismatches({ a: 4 }, { a: 3 })).toEqual(['arguments.a = 3, expected 4']);
  });

  it('matches, contains, type and any, each with its sentence', () => {
    const args = { s: 'Hello world', n: 3.5, i: 2, list: ['a', 'bc'], b: true };
    expect(argumentMismatches({ s: { matches: '^Hello' }, n: { type: 'number' }, i: { type: 'number' }, list: { contains: 'bc' }, b: { any: true } }, args)).toEqual([]);
    expect(argumentMismatches({ s: { matches: '/^hello/i' } }, args)).toEqual([]);
    expect(argumentMismatches({ s: { matches: '^world' }, s2: { any: true } }, args)).toEqual(['arguments.s = "Hello world", expected to match /^world/', 'arguments.s2 is missing, expected any value']);
    expect(argumentMismatches({ s: { contains: 'planet' }, n: { type: 'integer' }, b: { type: 'array' } }, args)).toEqual([
      'arguments.s = "Hello world", expected to contain "planet"',
      'arguments.n = 3.5 (number), expected an integer',
      'arguments.b = true (boolean), expected an array',
    ]);
    // A number is matched by the text of its JSON.
    expect(argumentMismatches({ i: { matches: '^2$' } }, args)).toEqual([]);
  });

  it('a JSONPath names a nested argument; several values: one that holds is enough', () => {
    const args = { filter: { name: 'ada', tags: [{ id: 1 }, { id: 2 }] } };
    expect(argumentMismatches({ '$.filter.name': 'ada', '$.filter.tags[*].id': 2 }, args)).toEqual([]);
    expect(argumentMismatches({ '$.filter.name': { contains: 'bob' } }, args)).toEqual(['arguments.filter.name = "ada", expected to contain "bob"']);
    expect(labelOf('my key')).toBe("arguments['my key']");
  });

  it('a bad matcher is a sentence naming it', () => {
    expect(matcherProblems('a', { matches: '(' })[0]).toMatch(/^arguments\.a: "\(" is not a regular expression/);
    expect(matcherProblems('a', { type: 'float' })).toEqual(['arguments.a: the type "float" is none of string, number, integer, boolean, object, array, null']);
    expect(matcherProblems('$.a[', 1)[0]).toMatch(/^The path "\$\.a\[" is not valid/);
    expect(matcherProblems('a', { any: false })).toEqual(['arguments.a: "any" takes true only']);
  });

  it('a regular expression in /…/flags form keeps its flags, but not g or y (test() would remember where it stopped)', () => {
    const read = readRegex('/a/gi');
    expect(read.ok && read.regex.flags).toBe('i');
  });
});
