import { describe, expect, it } from 'vitest';
import { defaultsFor, negativeCases, synthArguments, type Synthesis } from './synth.ts';
import { checkInputSchema, validateArguments, type SchemaCheck } from './tool-schema.ts';

const obj = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({ type: 'object', properties, required, ...extra });
/** A check as checkInputSchema would give it, for schemas that Ajv (or prepareSchema) cannot take. */
const unchecked = (schema: Record<string, unknown>): SchemaCheck => ({ ok: true, schema, form: schema, dialect: '2020-12', fallbacks: [], unchecked: [] });
const args = (schema: unknown): Record<string, unknown> => {
  const made: Synthesis = synthArguments(schema);
  if (!made.ok) throw new Error(made.reason);
  return made.args;
};

describe('synthArguments: what the schema offers comes first', () => {
  it('prefers default, then examples[0], then const, then the first enum member', () => {
    const schema = obj(
      {
        d: { type: 'string', default: 'the default', examples: ['an example'], enum: ['the default', 'an example', 'e1'] },
        x: { type: 'string', examples: ['an example', 'second'] },
        c: { type: 'string', const: 'constant' },
        e: { type: 'string', enum: ['first', 'second'] },
      },
      ['d', 'x', 'c', 'e'],
    );
    expect(args(schema)).toEqual({ d: 'the default', x: 'an example', c: 'constant', e: 'first' });
  });

  it('fills required properties, includes optional ones with a default and leaves the other optional ones out', () => {
    const schema = obj({ name: { type: 'string' }, count: { type: 'integer', default: 3 }, verbose: { type: 'boolean' } }, ['name']);
    expect(args(schema)).toEqual({ name: 'example', count: 3 });
  });

  it('brings the properties dependentRequired and minProperties ask for', () => {
    const schema = obj({ a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' }, d: { type: 'null' } }, ['a'], { dependentRequired: { a: ['b'], b: ['c'] }, minProperties: 4 });
    expect(args(schema)).toEqual({ a: 'example', b: 0, c: false, d: null });
  });

  it('makes the least value the keywords allow', () => {
    const schema = obj(
      {
        n: { type: 'number', minimum: 2.5 },
        i: { type: 'integer', exclusiveMinimum: 7 },
        m: { type: 'integer', minimum: 11, multipleOf: 5 },
        neg: { type: 'number', maximum: -3 },
        b: { type: 'boolean' },
        z: { type: 'null' },
        short: { type: 'string', maxLength: 3 },
        long: { type: 'string', minLength: 12 },
        list: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 2 },
        none: { type: 'array', items: { type: 'string' } },
      },
      ['n', 'i', 'm', 'neg', 'b', 'z', 'short', 'long', 'list', 'none'],
    );
    expect(args(schema)).toEqual({ n: 2.5, i: 8, m: 15, neg: -3, b: false, z: null, short: 'exa', long: 'examplexxxxx', list: [1, 1], none: [] });
  });

  it('makes values of the formats Ajv checks', () => {
    const formats = ['uri', 'email', 'date-time', 'date', 'time', 'uuid', 'ipv4', 'ipv6', 'hostname', 'uri-template', 'duration'];
    const schema = obj(Object.fromEntries(formats.map((f) => [f, { type: 'string', format: f }])), formats);
    const made = args(schema);
    expect(made.uri).toBe('https://example.com/');
    expect(made.email).toBe('user@example.com');
    expect(made['date-time']).toBe('2025-01-01T00:00:00Z');
    expect(made.date).toBe('2025-01-01');
    expect(validateArguments(checkInputSchema(schema), made)).toEqual([]);
  });

  it('follows $ref into $defs (with the siblings of the $ref winning) and nests objects and arrays', () => {
    const schema = {
      type: 'object',
      $defs: { address: obj({ city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } }, ['city', 'zip']), tag: { type: 'string', enum: ['red', 'blue'] } },
      properties: { home: { $ref: '#/$defs/address' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' }, minItems: 1 }, fav: { $ref: '#/$defs/tag', default: 'blue' } },
      required: ['home', 'tags'],
    };
    expect(args(schema)).toEqual({ home: { city: 'example', zip: '00000' }, tags: ['red'], fav: 'blue' });
  });

  it('folds allOf and picks the first anyOf / oneOf option that works', () => {
    const schema = obj(
      {
        both: { allOf: [obj({ a: { type: 'string' } }, ['a']), obj({ b: { type: 'integer', minimum: 4 } }, ['b']), { minProperties: 2 }] },
        either: { anyOf: [{ type: 'string', pattern: '^(?=never)x$' }, { type: 'integer', minimum: 9 }] },
        one: { oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] },
        nullable: { anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] },
      },
      ['both', 'either', 'one', 'nullable'],
    );
    expect(args(schema)).toEqual({ both: { a: 'example', b: 4 }, either: 9, one: 'r', nullable: 'user@example.com' });
  });

  it('satisfies simple patterns and says when it cannot', () => {
    expect(args(obj({ code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, id: { type: 'string', pattern: '^(?:ab|cd)+_[a-z0-9]*$' } }, ['code', 'id']))).toEqual({ code: 'AAA-0000', id: 'ab_' });
    const made = synthArguments(obj({ key: { type: 'string', pattern: '^(?=.*[0-9])(?=.*[!@#])[a-z]{20}$' } }, ['key']));
    expect(made.ok).toBe(false);
    if (!made.ok) expect(made.reason).toMatch(/\/key: Loupe cannot make a string that matches the pattern/);
  });

  it('drops a default that breaks the schema and makes the least valid value instead', () => {
    expect(args(obj({ n: { type: 'integer', minimum: 1, default: 'three' } }, ['n']))).toEqual({ n: 1 });
  });

  it('says when even the least value is not valid, and what Ajv found', () => {
    const made = synthArguments(obj({ a: { type: 'string', not: { const: 'example' }, enum: undefined } }, ['a']));
    expect(made).toMatchObject({ ok: false, reason: expect.stringMatching(/not valid: \/a must NOT be valid/), args: { a: 'example' } });
  });

  it('reports a schema that does not compile instead of guessing', () => {
    const made = synthArguments({ type: 'object', properties: { x: { type: 'strng' } } });
    expect(made).toMatchObject({ ok: false, reason: expect.stringMatching(/^Its inputSchema cannot be used/) });
  });
});

describe('synthArguments: hostile schemas end in a reason, never a throw', () => {
  it('a schema 10,000 levels deep', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) schema = obj({ a: schema }, ['a']);
    const made = synthArguments(schema);
    expect(made.ok).toBe(false);
  });

  it('the same depth behind an already-checked schema stops at MAX_DEPTH', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) schema = obj({ a: schema }, ['a']);
    const made = synthArguments(schema);
    expect(made).toMatchObject({ ok: false, reason: expect.stringMatching(/nested more than 64 levels deep/) });
  });

  it('a required $ref cycle, and an optional one that is simply left out', () => {
    const required = synthArguments(obj({ next: { $ref: '#' } }, ['next']));
    expect(required).toMatchObject({ ok: false, reason: expect.stringMatching(/nested more than/) });
    const loop = { type: 'object', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, properties: { x: { $ref: '#/$defs/a' } }, required: ['x'] };
    // Ajv itself cannot compile that loop; the synthesis must stop on its own when handed it anyway.
    expect(synthArguments(loop)).toMatchObject({ ok: false, reason: expect.stringMatching(/^Its inputSchema cannot be used/) });
    expect(synthArguments(loop, unchecked(loop))).toMatchObject({ ok: false, reason: expect.stringMatching(/leads round in a circle/) });
    expect(args(obj({ label: { type: 'string' }, next: { $ref: '#' } }, ['label']))).toEqual({ label: 'example' });
  });

  it('references that would expand into a value of 2^40 parts', () => {
    const $defs: Record<string, unknown> = { l40: { type: 'string' } };
    for (let i = 39; i >= 0; i--) $defs[`l${i}`] = obj({ x: { $ref: `#/$defs/l${i + 1}` }, y: { $ref: `#/$defs/l${i + 1}` } }, ['x', 'y']);
    const made = synthArguments({ type: 'object', $defs, properties: { root: { $ref: '#/$defs/l0' } }, required: ['root'] });
    expect(made).toMatchObject({ ok: false, reason: expect.stringMatching(/more than 10000 values/) });
  });

  it('100,000 required properties end at the value budget, quickly', () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `p${i}`);
    const started = Date.now();
    expect(synthArguments({ type: 'object', required: names }, unchecked({ type: 'object', required: names }))).toMatchObject({ ok: false, reason: expect.stringMatching(/more than 10000 values/) });
    expect(Date.now() - started, 'linear work, not one pass per property').toBeLessThan(10_000);
  });

  it('sizes no one can make', () => {
    expect(synthArguments(obj({ a: { type: 'array', minItems: 1e9 } }, ['a']))).toMatchObject({ ok: false, reason: expect.stringMatching(/at least 1000000000 items/) });
    expect(synthArguments(obj({ s: { type: 'string', minLength: 1e9 } }, ['s']))).toMatchObject({ ok: false, reason: expect.stringMatching(/at least 1000000000 characters/) });
    expect(synthArguments(obj({ s: { type: 'string', pattern: '^(a{9000}){9000}$' } }, ['s']))).toMatchObject({ ok: false });
  });

  it('a property called __proto__ is an own property and pollutes nothing', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object","properties":{"polluted":{"type":"boolean","const":true}},"required":["polluted"]}},"required":["__proto__"]}');
    const made = synthArguments(schema, unchecked(schema));
    if (!made.ok) throw new Error(made.reason);
    expect(Object.hasOwn(made.args, '__proto__')).toBe(true);
    expect(JSON.stringify(made.args)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('negativeCases', () => {
  const schema = obj({ path: { type: 'string' }, depth: { type: 'integer', default: 1 }, mode: { type: 'string', enum: ['a', 'b'] } }, ['path', 'mode']);
  const check = checkInputSchema(schema);

  it('leaves out the first required property, gives the first property a wrong type, and sends {}', () => {
    const cases = negativeCases(check, args(schema));
    expect(cases).toEqual([
      { kind: 'missing-required', label: 'without required "path"', args: { depth: 1, mode: 'a' } },
      { kind: 'wrong-type', label: '"path" as integer instead of string', args: { path: 12345, depth: 1, mode: 'a' } },
      { kind: 'empty', label: 'no arguments ({})', args: {} },
    ]);
    for (const c of cases) expect(validateArguments(check, c.args)).not.toEqual([]);
  });

  it('a number property gets a string; {} is not repeated when it is the missing-required case', () => {
    const only = checkInputSchema(obj({ n: { type: 'number' } }, ['n']));
    expect(negativeCases(only, { n: 0 })).toEqual([
      { kind: 'missing-required', label: 'without required "n"', args: {} },
      { kind: 'wrong-type', label: '"n" as string instead of number', args: { n: 'not the right type' } },
    ]);
  });

  it('nothing is negative about a schema that requires nothing and accepts anything', () => {
    expect(negativeCases(checkInputSchema(obj({ anything: {} })), {})).toEqual([]);
    expect(negativeCases(checkInputSchema({ type: 'object' }), {})).toEqual([]);
  });

  it('a case that turns out valid is dropped (a string-or-number property has no wrong number)', () => {
    const loose = checkInputSchema(obj({ v: { type: ['string', 'integer', 'boolean', 'object', 'array', 'null'] } }));
    expect(negativeCases(loose, {})).toEqual([]);
  });
});

describe('defaultsFor (an elicitation requestedSchema)', () => {
  it('takes every default, and const / enum / titled option only for required properties', () => {
    const schema = obj(
      {
        name: { type: 'string', default: 'Ada' },
        age: { type: 'integer', default: 36 },
        subscribe: { type: 'boolean', default: false },
        plan: { type: 'string', enum: ['free', 'pro'] },
        tier: { type: 'string', oneOf: [{ const: 'g', title: 'Gold' }, { const: 's', title: 'Silver' }] },
        kind: { type: 'string', const: 'person' },
        optionalEnum: { type: 'string', enum: ['x'] },
        email: { type: 'string', format: 'email' },
      },
      ['plan', 'tier', 'kind', 'email'],
    );
    expect(defaultsFor(schema)).toEqual({ name: 'Ada', age: 36, subscribe: false, plan: 'free', tier: 'g', kind: 'person' });
  });

  it('gives nothing for what is not a schema of properties, and keeps __proto__ an own key', () => {
    expect(defaultsFor(undefined)).toEqual({});
    expect(defaultsFor({ type: 'object', properties: 'x' })).toEqual({});
    const made = defaultsFor(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","default":"p"}}}'));
    expect(Object.hasOwn(made, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
  });
});
