import { describe, expect, it } from 'vitest';
import { FALLBACK_KEY, fallbackReason, fromEditorText, prepareSchema, resolvePointer, toEditorText } from './form.ts';
import { checkInputSchema, validateArguments } from './tool-schema.ts';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('prepareSchema', () => {
  it('leaves drawable schemas alone: local $ref, oneOf, nullable type arrays, enums, formats', () => {
    const schema = obj(
      {
        a: { $ref: '#/$defs/A' },
        b: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        c: { type: ['string', 'null'] },
        d: { type: 'string', format: 'email' },
        e: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } },
      },
      { $defs: { A: { type: 'string' } } },
    );
    const prepared = prepareSchema(schema);
    expect(prepared.fallbacks).toEqual([]);
    expect(prepared.unchecked).toEqual([]);
    expect(prepared.form).toEqual(schema);
    expect(prepared.validation).toEqual(schema);
  });

  it('replaces only the part it cannot draw, keeping title, description and default', () => {
    const prepared = prepareSchema(obj({
      name: { type: 'string' },
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], title: 'Pair', default: ['a', 1] },
      either: { type: ['string', 'number'], description: 'text or number' },
      bare: { type: 'array' },
      anything: true,
    }));
    expect(prepared.fallbacks).toEqual([
      { path: '/properties/pair', reason: 'it is a tuple (prefixItems)' },
      { path: '/properties/either', reason: 'it accepts several types (string, number)' },
      { path: '/properties/bare', reason: 'the array has no "items" schema' },
      { path: '/properties/anything', reason: 'any JSON value is accepted' },
    ]);
    const props = prepared.form.properties as Record<string, Record<string, unknown>>;
    expect(props.name).toEqual({ type: 'string' });
    expect(props.pair).toEqual({ [FALLBACK_KEY]: 'it is a tuple (prefixItems)', title: 'Pair', default: ['a', 1] });
    expect(props.either).toMatchObject({ description: 'text or number' });
    // Validation keeps the real constraints.
    expect((prepared.validation.properties as Record<string, unknown>).pair).toMatchObject({ prefixItems: [{ type: 'string' }, { type: 'number' }] });
  });

  it('never fetches a remote $ref: that part is unconstrained and reported as not validated', () => {
    const prepared = prepareSchema(obj({ ext: { $ref: 'https://example.com/schemas/thing.json', description: 'elsewhere' }, ok: { type: 'string' } }));
    expect(prepared.unchecked).toEqual([{ path: '/properties/ext', reason: 'remote $ref "https://example.com/schemas/thing.json" is not fetched' }]);
    expect(prepared.fallbacks).toEqual([{ path: '/properties/ext', reason: 'remote $ref "https://example.com/schemas/thing.json" is not fetched' }]);
    expect(JSON.stringify(prepared.validation)).not.toContain('"$ref"');
    const check = checkInputSchema(obj({ ext: { $ref: 'https://example.com/schemas/thing.json' } }));
    expect(check).toMatchObject({ ok: true, unchecked: [{ path: '/properties/ext' }] });
    expect(validateArguments(check, { ext: { anything: 1 } })).toEqual([]);
  });

  it('treats a $ref to an $id declared inside the schema as local, but draws it as JSON', () => {
    const schema = obj({ x: { $ref: 'urn:loupe:thing' } }, { $defs: { thing: { $id: 'urn:loupe:thing', type: 'string' } } });
    const prepared = prepareSchema(schema);
    expect(prepared.unchecked).toEqual([]);
    expect(prepared.fallbacks).toEqual([{ path: '/properties/x', reason: 'the form cannot follow $ref "urn:loupe:thing"' }]);
    const check = checkInputSchema(schema);
    expect(validateArguments(check, { x: 1 })).toEqual(['/x must be string']);
  });

  it('handles recursive schemas without looping (the form expands them lazily)', () => {
    const tree = obj({ root: { $ref: '#/$defs/node' } }, { $defs: { node: obj({ value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }) } });
    const prepared = prepareSchema(tree);
    expect(prepared.fallbacks).toEqual([]);
    const check = checkInputSchema(tree);
    expect(validateArguments(check, { root: { value: 'a', children: [{ value: 'b', children: [] }] } })).toEqual([]);
    expect(validateArguments(check, { root: { value: 'a', children: [{ value: 2 }] } })).toEqual(['/root/children/0/value must be string']);
  });

  it('draws `anyOf: [X, {type: null}]` as X', () => {
    const prepared = prepareSchema(obj({ when: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }], title: 'When', default: null } }));
    expect((prepared.form.properties as Record<string, unknown>).when).toEqual({ type: 'string', format: 'date-time', title: 'When', default: null });
  });

  it('gives a titled enum without a type (oneOf of consts) the type of its values', () => {
    const prepared = prepareSchema(obj({ color: { oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] }, mixed: { oneOf: [{ const: 1 }, { const: 'a' }] } }));
    const props = prepared.form.properties as Record<string, Record<string, unknown>>;
    expect(props.color.type).toBe('string');
    expect(props.mixed.type).toBeUndefined();
    expect(prepared.validation.properties).toEqual(obj({ color: { oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] }, mixed: { oneOf: [{ const: 1 }, { const: 'a' }] } }).properties);
  });

  it('reports only the outermost replaced part, and escapes pointer characters', () => {
    const prepared = prepareSchema(obj({ 'a/b~c': { type: ['object', 'array'], properties: { inner: { type: 'array' } } } }));
    expect(prepared.fallbacks).toEqual([{ path: '/properties/a~1b~0c', reason: 'it accepts several types (object, array)' }]);
  });
});

describe('resolvePointer', () => {
  it('follows JSON pointers with escapes, and fails softly', () => {
    const root = { $defs: { 'a/b': { x: [10, 20] } } };
    expect(resolvePointer(root, '#/$defs/a~1b/x/1')).toBe(20);
    expect(resolvePointer(root, '#')).toBe(root);
    expect(resolvePointer(root, '#/nowhere')).toBeUndefined();
    expect(resolvePointer(root, 'other.json#/x')).toBeUndefined();
  });
});

describe('the JSON editor field', () => {
  it('round-trips values and explains why it is there', () => {
    expect(toEditorText(undefined)).toBe('');
    expect(fromEditorText(toEditorText({ a: [1, null] }))).toEqual({ ok: true, value: { a: [1, null] } });
    expect(fromEditorText('  ')).toEqual({ ok: true, value: undefined });
    expect(fromEditorText('{oops')).toMatchObject({ ok: false });
    expect(fallbackReason({ [FALLBACK_KEY]: 'because' })).toBe('because');
    expect(fallbackReason({})).toMatch(/does not say which type/);
  });
});
