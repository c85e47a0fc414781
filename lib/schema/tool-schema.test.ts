import { describe, expect, it } from 'vitest';
import { checkInputSchema, errorSchemaOf, parseTools, validateArguments, validationIssues } from './tool-schema.ts';

const draft07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
  additionalProperties: false,
};

describe('checkInputSchema', () => {
  it('accepts draft-07 (what the TypeScript SDK emits) and 2020-12 schemas', () => {
    expect(checkInputSchema(draft07)).toMatchObject({ ok: true, dialect: 'draft-07' });
    const modern = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { xs: { type: 'array', prefixItems: [{ type: 'string' }] } } };
    expect(checkInputSchema(modern)).toMatchObject({ ok: true, dialect: '2020-12' });
    expect(checkInputSchema({ type: 'object', $defs: { a: { type: 'string' } }, properties: { a: { $ref: '#/$defs/a' } } })).toMatchObject({ ok: true, dialect: '2020-12' });
  });

  it('can check the same schema (and a shared $id) twice', () => {
    const withId = { $id: 'urn:tool:x', type: 'object' };
    expect(checkInputSchema(withId).ok).toBe(true);
    expect(checkInputSchema({ ...withId }).ok).toBe(true);
  });

  it('drops a draft-06 or 2019-09 $schema that Ajv has no meta-schema for', () => {
    const check = checkInputSchema({ $schema: 'http://json-schema.org/draft-06/schema#', type: 'object' });
    expect(check.ok && check.schema.$schema).toBe(undefined);
  });

  it('explains why a schema is unusable', () => {
    expect(checkInputSchema(undefined)).toEqual({ ok: false, reason: 'inputSchema is not a JSON object' });
    expect(checkInputSchema({ type: 'string' })).toEqual({ ok: false, reason: 'inputSchema.type is "string", not "object"' });
    expect(checkInputSchema({ properties: {} })).toEqual({ ok: false, reason: 'inputSchema.type is missing, not "object"' });
    expect(checkInputSchema({ type: 'object', properties: { a: { type: 'strnig' } } })).toMatchObject({ ok: false });
    expect(checkInputSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } })).toMatchObject({ ok: false });
    expect(checkInputSchema({ type: 'object', $schema: 'http://example.com/mine' })).toMatchObject({ ok: false, reason: 'unsupported "$schema": http://example.com/mine' });
  });
});

describe('validateArguments', () => {
  it('lists problems, empty when valid', () => {
    const check = checkInputSchema(draft07);
    expect(validateArguments(check, { message: 'hi' })).toEqual([]);
    expect(validateArguments(check, {}).join()).toMatch(/message/);
    expect(validateArguments(check, { message: 1 })).toEqual(['/message must be string']);
  });
});

describe('parseTools', () => {
  it('reads names, titles, descriptions and hints; keeps tools with broken schemas', () => {
    const { tools, problems } = parseTools([
      { name: 'echo', title: 'Echo Tool', description: 'Echoes', inputSchema: draft07, annotations: { readOnlyHint: true, destructiveHint: 'no' } },
      { name: 'broken', inputSchema: { type: 'array' }, annotations: { title: 'Broken one' } },
      { title: 'nameless' },
      { name: 'echo', inputSchema: draft07 },
    ]);
    expect(tools.map((t) => [t.name, t.title, t.check.ok])).toEqual([
      ['echo', 'Echo Tool', true],
      ['broken', 'Broken one', false],
      ['echo', undefined, true],
    ]);
    expect(tools[0].hints).toEqual({ readOnlyHint: true });
    expect(problems).toEqual(['tool #3 has no string "name" and is not listed', 'tool name "echo" appears more than once']);
  });
});

describe('validationIssues and errorSchemaOf', () => {
  it('reports a missing property at the property, and nests errors for the form', () => {
    const check = checkInputSchema({ type: 'object', properties: { a: { type: 'object', properties: { 'x/y': { type: 'string' } }, required: ['x/y'] }, n: { type: 'number' } }, required: ['a'] });
    if (!check.ok) throw new Error('expected ok');
    expect(validationIssues(check, {})).toEqual([{ path: '/a', message: 'is required' }]);
    const issues = validationIssues(check, { a: {}, n: 'x' });
    expect(issues).toEqual([
      { path: '/a/x~1y', message: 'is required' },
      { path: '/n', message: 'must be number' },
    ]);
    expect(errorSchemaOf(issues)).toEqual({ a: { 'x/y': { __errors: ['is required'] } }, n: { __errors: ['must be number'] } });
    expect(errorSchemaOf([{ path: '', message: 'must be object' }])).toEqual({ __errors: ['must be object'] });
  });

  it('checks outputSchema too, and lists icons', () => {
    const { tools } = parseTools([{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, icons: [{ src: 'data:image/png;base64,AAAA' }] }]);
    const output = tools[0].output;
    if (!output?.ok) throw new Error('expected an output check');
    expect(validationIssues(output, { n: 1 })).toEqual([]);
    expect(validationIssues(output, { n: 'x' })).toEqual([{ path: '/n', message: 'must be number' }]);
    expect(tools[0].icons).toHaveLength(1);
    expect(parseTools([{ name: 'u', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } }]).tools[0].output).toEqual({ ok: false, reason: 'outputSchema.type is "array", not "object"' });
  });
});

describe('checkInputSchema with hostile schemas (issue 10: found by the smoke run)', () => {
  it('checks a property named __proto__ like any other', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    const check = checkInputSchema(schema);
    expect(check.ok).toBe(true);
    if (check.ok) expect(Object.keys(check.schema.properties as object)).toEqual(['__proto__']);
  });

  it('says a schema thousands of levels deep is too deep instead of throwing', () => {
    let inner: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) inner = { type: 'object', properties: { a: inner } };
    expect(checkInputSchema(inner)).toEqual({ ok: false, reason: 'inputSchema is nested too deeply to check' });
  });
});
