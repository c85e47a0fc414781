import { customizeValidator } from '@rjsf/validator-ajv8';
import { describe, expect, it } from 'vitest';
import { deepEqual, liteValidate } from './schema-lite.ts';

const keywords = (schema: unknown, data: unknown) => liteValidate(schema, data).map((e) => `${e.instancePath}:${e.keyword}`);

describe('liteValidate', () => {
  const schema = {
    type: 'object',
    properties: {
      message: { type: 'string', minLength: 2, pattern: '^h' },
      count: { type: 'integer', minimum: 1, maximum: 5 },
      mode: { enum: ['a', 'b'] },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 2 },
      nested: { $ref: '#/$defs/point' },
    },
    required: ['message'],
    additionalProperties: false,
    $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
  };

  it('accepts valid data', () => {
    expect(liteValidate(schema, { message: 'hi', count: 3, mode: 'a', tags: ['x'], nested: { x: 1.5 } })).toEqual([]);
  });

  it('reports errors with Ajv-like paths, keywords and messages', () => {
    expect(keywords(schema, { count: 1.5, mode: 'c', tags: ['x', 'x', 'y'], nested: {}, extra: 1 })).toEqual([
      ':required',
      '/count:type',
      '/mode:enum',
      '/tags:maxItems',
      '/tags:uniqueItems',
      '/nested:required',
      ':additionalProperties',
    ]);
    expect(liteValidate(schema, { message: 'x' }).map((e) => e.message)).toEqual(['must NOT have fewer than 2 characters', 'must match pattern "^h"']);
    expect(liteValidate(schema, {})[0]).toMatchObject({ params: { missingProperty: 'message' }, message: "must have required property 'message'" });
  });

  it('handles combinators, const, if/then/else, tuples and boolean schemas', () => {
    expect(keywords({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toEqual([':anyOf']);
    expect(keywords({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1)).toEqual([':oneOf']);
    expect(keywords({ not: { const: 1 } }, 1)).toEqual([':not']);
    expect(keywords({ if: { const: 'a' }, then: { type: 'number' }, else: { type: 'string' } }, 'a')).toEqual([':type']);
    expect(keywords({ prefixItems: [{ type: 'string' }], items: { type: 'number' } }, ['a', 1, 'b'])).toEqual(['/2:type']);
    expect(keywords({ items: [{ type: 'string' }], additionalItems: false }, ['a', 1])).toEqual(['/1:false schema']);
    expect(keywords({ type: ['string', 'null'] }, null)).toEqual([]);
    expect(keywords(true, 1)).toEqual([]);
  });

  it('survives recursive refs and broken patterns', () => {
    expect(liteValidate({ $ref: '#' }, 1)).toEqual([]);
    expect(liteValidate({ type: 'string', pattern: '(' }, 'x')).toEqual([]);
  });

  it('agrees with Ajv on what is valid for typical tool schemas', () => {
    const ajv = customizeValidator().ajv;
    const cases: Array<[unknown, unknown]> = [
      [schema, { message: 'hey' }],
      [schema, { message: 'hey', count: 0 }],
      [schema, { message: 'hey', nested: { x: 'no' } }],
      [{ type: 'number', multipleOf: 0.1 }, 0.3],
      [{ type: 'number', exclusiveMaximum: 3 }, 3],
      [{ type: 'object', minProperties: 1 }, {}],
    ];
    for (const [s, data] of cases) {
      expect(liteValidate(s, data).length === 0).toBe(ajv.validate(s as object, data));
    }
  });

  it('compares deeply', () => {
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual([1], { 0: 1 })).toBe(false);
  });
});
