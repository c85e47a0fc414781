/**
 * LLM provider compatibility (lib/doctor/providers.ts, lib/doctor/provider-clean.ts): every rule with one
 * tool that breaks it and one that does not, checking the words the user reads and the cleaned
 * schema; then the doctor zoo (e2e/fixtures/doctor-zoo.mjs) over stdio, where the planted problems
 * the providers care about must be found.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanName, cleanSchemaFor, providerFindings, type Provider } from './providers.ts';
import type { Finding } from '../model/doctor.ts';
import { where } from './provider-clean.ts';
import { READ } from './provider-rules.ts';

const obj = (properties: Record<string, unknown>, more: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'object', properties, ...more });
/** An object OpenAI strict mode takes as it is. */
const strictObj = (properties: Record<string, unknown>) => obj(properties, { required: Object.keys(properties), additionalProperties: false });
const str = { type: 'string' };

function findingsOf(inputSchema: unknown, providers: Provider[], more: Record<string, unknown> = {}): Finding[] {
  const tool = { name: 'get_weather', description: 'Weather for a city.', inputSchema, ...more };
  return providerFindings({ server: { name: 'test' }, lists: { tools: { items: [tool], cursors: [] } } }, providers);
}
const rules = (findings: Finding[]) => findings.map((f) => f.rule).sort();
const one = (findings: Finding[], rule: string) => {
  const found = findings.filter((f) => f.rule === rule);
  expect(found, `one ${rule} in ${rules(findings).join(', ')}`).toHaveLength(1);
  return found[0];
};

describe('tool names', () => {
  it('refuses characters outside each provider\'s pattern, and says the name Loupe would use', () => {
    const bad = findingsOf(strictObj({}), ['openai-strict', 'openai', 'anthropic', 'gemini'], { name: 'get weather' });
    for (const provider of ['openai-strict', 'openai', 'anthropic', 'gemini']) {
      const f = one(bad, `${provider}-name-characters`);
      expect(f).toMatchObject({ severity: 'error', provider, about: { kind: 'tool', name: 'get weather' } });
      expect(f.message).toContain('Tool "get weather" has a space in its name');
      expect(f.fix).toContain('"get_weather"');
      expect(f.source.read).toBe(READ);
    }
    expect(findingsOf(strictObj({}), ['openai-strict', 'anthropic'], { name: 'get_weather-2' })).toEqual([]);
  });

  it('knows that Gemini takes dots and colons and Anthropic does not', () => {
    const found = findingsOf(obj({}), ['anthropic', 'gemini'], { name: 'files.read' });
    expect(rules(found)).toEqual(['anthropic-name-characters']);
    expect(found[0].message).toContain('"." in its name; Anthropic accepts only letters a-z and A-Z, digits, underscores and dashes');
  });

  it('refuses a name over 64 characters', () => {
    const long = findingsOf(obj({}), ['anthropic'], { name: 'x'.repeat(65) });
    expect(one(long, 'anthropic-name-length').message).toContain('a name of 65 characters; Anthropic accepts at most 64');
    expect(findingsOf(obj({}), ['anthropic'], { name: 'x'.repeat(64) })).toEqual([]);
  });

  it('warns that Vertex AI wants a Gemini name to start with a letter or an underscore', () => {
    const f = one(findingsOf(obj({}), ['gemini'], { name: '3d_render' }), 'gemini-name-start');
    expect(f.severity).toBe('warning');
    expect(f.message).toContain('starts with "3"');
    expect(findingsOf(obj({}), ['gemini'], { name: 'render_3d' })).toEqual([]);
  });

  it('cleans names to the provider\'s pattern', () => {
    expect(cleanName('get weather', 'openai')).toBe('get_weather');
    expect(cleanName('files.read', 'gemini')).toBe('files.read');
    expect(cleanName('files.read', 'anthropic')).toBe('files_read');
    expect(cleanName('3d', 'gemini')).toBe('_3d');
    expect(cleanName('ü'.repeat(70), 'openai')).toBe('_'.repeat(64));
  });
});

describe('the top of the schema', () => {
  it('needs an object schema everywhere', () => {
    for (const provider of ['openai-strict', 'openai', 'anthropic', 'gemini'] as const) {
      const f = one(findingsOf({ type: 'string' }, [provider]), `${provider}-root-type`);
      expect(f.message).toContain('an input schema that is type "string", not an object schema');
      expect(f.cleaned).toMatchObject({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
    }
    expect(one(findingsOf(undefined, ['anthropic']), 'anthropic-root-type').message).toContain('an input schema that is missing');
    expect(findingsOf(obj({ city: str }), ['anthropic'])).toEqual([]);
  });

  const place = { city: str, lat: { type: 'number' }, lon: { type: 'number' } };
  const either = obj(place, { oneOf: [{ required: ['city'] }, { required: ['lat', 'lon'] }] });

  it('refuses oneOf / anyOf / allOf at the top for Anthropic, and says the alternatives in the description', () => {
    const f = one(findingsOf(either, ['anthropic']), 'anthropic-root-combinator');
    expect(f.message).toBe('Tool "get_weather" puts oneOf at the top of its input schema, which Anthropic refuses.');
    expect(f.source.url).toContain('github.com/anthropics');
    expect(f.cleaned).toEqual({ ...obj(place), description: '(give exactly one of: city; lat and lon)' });
    const { oneOf: _alternatives, ...plain } = either;
    expect(findingsOf(plain, ['anthropic'])).toEqual([]);
  });

  it('merges a top-level union of objects into one object, and wraps anything else', () => {
    const union = { anyOf: [strictObj({ city: str }), strictObj({ zip: str })] };
    const { schema, changes } = cleanSchemaFor('anthropic', union);
    expect(schema).toEqual({ type: 'object', properties: { city: str, zip: str }, required: [], additionalProperties: false });
    expect(changes[0]).toContain('merged the 2 alternatives of the top-level anyOf into one object (properties city, zip): the model may mix them');
    const odd = cleanSchemaFor('anthropic', { type: 'object', oneOf: [str, { type: 'number' }] });
    expect(odd.schema).toMatchObject({ type: 'object', properties: { input: { oneOf: [str, { type: 'number' }] } }, required: ['input'] });
    expect(odd.changes[0]).toContain('unwrap them before calling the tool');
  });

  it('refuses a top-level anyOf in OpenAI strict mode, where the document says so', () => {
    const f = one(findingsOf({ ...strictObj({ a: str }), anyOf: [{ required: ['a'] }] }, ['openai-strict']), 'openai-strict-root-combinator');
    expect(f.source.url).toContain('structured-outputs#supported-schemas');
    expect(findingsOf(strictObj({ a: str }), ['openai-strict'])).toEqual([]);
  });
});

describe('OpenAI strict mode', () => {
  it('needs additionalProperties: false on every object', () => {
    const open = strictObj({ where: obj({ city: str }, { required: ['city'] }) });
    const f = one(findingsOf(open, ['openai-strict']), 'openai-strict-additional-properties');
    expect(f.message).toContain('objects without "additionalProperties": false (where)');
    expect(f.cleaned).toEqual(strictObj({ where: strictObj({ city: str }) }));
    const map = cleanSchemaFor('openai-strict', strictObj({ env: { type: 'object', additionalProperties: str } }));
    expect(map.changes).toContain('set additionalProperties: false on env, which accepted other keys: the model can no longer send a key that is not listed');
  });

  it('needs every property required, and makes optional ones nullable', () => {
    const optional = obj({ city: str, unit: { type: 'string', enum: ['C', 'F'] }, days: { type: 'integer' } }, { required: ['city'], additionalProperties: false });
    const f = one(findingsOf(optional, ['openai-strict']), 'openai-strict-required');
    expect(f.message).toBe('Tool "get_weather" has optional properties (unit, days); OpenAI strict mode requires every property to be listed in "required".');
    expect(f.cleaned).toEqual({
      type: 'object',
      properties: { city: str, unit: { anyOf: [{ type: 'string', enum: ['C', 'F'] }, { type: 'null' }] }, days: { type: ['integer', 'null'] } },
      required: ['city', 'unit', 'days'],
      additionalProperties: false,
    });
    expect(cleanSchemaFor('openai-strict', optional).changes).toContain('made unit, days at the root required and nullable: the model sends null for a value it leaves out, so drop null arguments before calling the tool');
  });

  it('refuses keywords outside the documented subset, keeping simple ones in the description', () => {
    const schema = strictObj({ n: { type: 'integer', default: 3, minimum: 1 }, v: { oneOf: [str, { type: 'number' }] }, w: { not: str } });
    const f = one(findingsOf(schema, ['openai-strict']), 'openai-strict-keyword');
    expect(f.message).toBe('Tool "get_weather" uses default (at n), oneOf (at v), not (at w) in its input schema, outside the JSON Schema subset OpenAI (strict: true) accepts.');
    expect(f.cleaned).toEqual(strictObj({ n: { type: 'integer', minimum: 1, description: '(default: 3)' }, v: { anyOf: [str, { type: 'number' }] }, w: {} }));
    expect(findingsOf(strictObj({ n: { type: 'number', minimum: 0, multipleOf: 2 }, s: { type: 'string', pattern: '^a' } }), ['openai-strict'])).toEqual([]);
  });

  it('refuses formats it does not list', () => {
    const f = one(findingsOf(strictObj({ site: { type: 'string', format: 'uri' } }), ['openai-strict']), 'openai-strict-format');
    expect(f.message).toBe('Tool "get_weather" uses the format uri (at site), which OpenAI (strict: true) does not support.');
    expect(f.cleaned).toEqual(strictObj({ site: { type: 'string', description: '(format: uri)' } }));
    expect(findingsOf(strictObj({ at: { type: 'string', format: 'date-time' } }), ['openai-strict'])).toEqual([]);
  });

  it('keeps $ref and recursion, which strict mode supports, and applies its rules inside $defs', () => {
    const list = { ...strictObj({ head: { $ref: '#/$defs/node' } }), $defs: { node: obj({ value: { type: 'number' }, next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } }) } };
    const { schema } = cleanSchemaFor('openai-strict', list);
    expect(schema).toMatchObject({ properties: { head: { $ref: '#/$defs/node' } }, $defs: { node: { additionalProperties: false, required: ['value', 'next'] } } });
    expect(rules(findingsOf(list, ['openai-strict']))).toEqual(['openai-strict-additional-properties', 'openai-strict-required']);
  });

  it('counts its size limits', () => {
    const wide = strictObj(Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, str])));
    expect(one(findingsOf(wide, ['openai-strict']), 'openai-strict-limit').message).toContain('5001 object properties (the limit is 5000)');
    let deep: Record<string, unknown> = strictObj({ leaf: str });
    for (let i = 0; i < 10; i++) deep = strictObj({ down: deep });
    expect(one(findingsOf(deep, ['openai-strict']), 'openai-strict-limit').message).toContain('11 levels of nesting (the limit is 10)');
    const many = strictObj({ pick: { type: 'string', enum: Array.from({ length: 300 }, (_, i) => `${'v'.repeat(60)}${i}`) } });
    expect(one(findingsOf(many, ['openai-strict']), 'openai-strict-limit').message).toContain('characters in the enum of more than 250 values at pick (the limit is 15000)');
    expect(findingsOf(strictObj({ pick: { type: 'string', enum: ['a', 'b'] } }), ['openai-strict'])).toEqual([]);
  });
});

describe('OpenAI without strict', () => {
  it('warns that the Responses API would make optional fields required', () => {
    const f = one(findingsOf(obj({ city: str }), ['openai']), 'openai-silent-strict');
    expect(f.severity).toBe('warning');
    expect(f.fix).toContain('"strict": false');
    expect(findingsOf(strictObj({ city: str }), ['openai'])).toEqual([]);
    expect(findingsOf(obj({ city: str }, { required: ['city'] }), ['openai'])).toEqual([]);
    expect(rules(findingsOf(obj({ env: { type: 'object', additionalProperties: str } }, { required: ['env'] }), ['openai']))).toEqual(['openai-silent-strict']);
  });
});

describe('Gemini', () => {
  it('refuses keywords that are not fields of its Schema, $schema and additionalProperties among them', () => {
    const zod = { $schema: 'http://json-schema.org/draft-07/schema#', ...obj({ mode: { const: 'fast' }, n: { type: 'integer', exclusiveMinimum: 0 } }), additionalProperties: false };
    const f = one(findingsOf(zod, ['gemini']), 'gemini-keyword');
    expect(f.message).toBe('Tool "get_weather" uses $schema, additionalProperties, const (at mode), exclusiveMinimum (at n) in its input schema, outside the JSON Schema subset Gemini accepts.');
    expect(f.cleaned).toEqual(obj({ mode: { enum: ['fast'] }, n: { type: 'integer', description: '(exclusiveMinimum: 0)' } }));
    expect(findingsOf(obj({ s: { type: 'string', minLength: 1, format: 'email', nullable: true }, a: { type: 'array', items: str, maxItems: 3 } }), ['gemini'])).toEqual([]);
  });

  it('inlines references, and cuts recursion it cannot express', () => {
    const refs = { ...obj({ home: { $ref: '#/$defs/place' } }), $defs: { place: obj({ city: str }) } };
    const f = one(findingsOf(refs, ['gemini']), 'gemini-ref');
    expect(f.message).toBe('Tool "get_weather" uses references (#/$defs/place (at home)); Gemini takes no "$ref" or "$defs".');
    expect(f.cleaned).toEqual(obj({ home: obj({ city: str }) }));
    const tree = { ...obj({ root: { $ref: '#/$defs/node' } }), $defs: { node: obj({ children: { type: 'array', items: { $ref: '#/$defs/node' } } }) } };
    const cut = findingsOf(tree, ['gemini']);
    expect(rules(cut)).toEqual(['gemini-recursive-ref', 'gemini-ref']);
    expect(cut[0].cleaned).toEqual(obj({ root: obj({ children: { type: 'array', items: { type: 'object' } } }) }));
    expect(cleanSchemaFor('gemini', tree).changes).toContain('cut the recursive reference #/$defs/node at root.children[]: Gemini cannot express recursion, so the model sees no structure below it');
  });

  it('takes one type per schema, with nullable', () => {
    const f = one(findingsOf(obj({ note: { type: ['string', 'null'] } }), ['gemini']), 'gemini-type-list');
    expect(f.cleaned).toEqual(obj({ note: { type: 'string', nullable: true } }));
    expect(cleanSchemaFor('gemini', obj({ v: { type: ['string', 'number'] } })).schema).toEqual(obj({ v: { anyOf: [str, { type: 'number' }] } }));
  });

  it('takes string enums only', () => {
    const f = one(findingsOf(obj({ level: { type: 'integer', enum: [1, 2, 3] } }), ['gemini']), 'gemini-enum-strings');
    expect(f.cleaned).toEqual(obj({ level: { type: 'integer', description: '(one of: 1, 2, 3)' } }));
    expect(findingsOf(obj({ level: { type: 'string', enum: ['low', 'high'] } }), ['gemini'])).toEqual([]);
  });

  it('turns oneOf into anyOf, and merges allOf', () => {
    const f = one(findingsOf(obj({ v: { oneOf: [str, { type: 'number' }] }, w: { allOf: [obj({ a: str }), obj({ b: str })] } }), ['gemini']), 'gemini-keyword');
    expect(f.cleaned).toEqual(obj({ v: { anyOf: [str, { type: 'number' }] }, w: { type: 'object', properties: { b: str, a: str } } }));
  });

  it('warns about Vertex AI parameter names and a missing description', () => {
    const names = one(findingsOf(obj({ 'user-id': str }), ['gemini']), 'gemini-parameter-name');
    expect(names).toMatchObject({ severity: 'warning' });
    expect(names.message).toContain('(user-id)');
    expect(findingsOf(obj({ user_id: str }), ['gemini'])).toEqual([]);
    expect(one(findingsOf(obj({}), ['gemini'], { description: undefined }), 'gemini-description').severity).toBe('warning');
  });
});

describe('cleanSchemaFor', () => {
  it('drops $schema for every provider and leaves an accepted schema alone', () => {
    const zod = { $schema: 'http://json-schema.org/draft-07/schema#', ...strictObj({ a: str }) };
    for (const provider of ['openai-strict', 'openai', 'anthropic'] as const) {
      expect(cleanSchemaFor(provider, zod)).toEqual({ schema: strictObj({ a: str }), changes: ['dropped "$schema": the provider reads the schema without a dialect'] });
    }
    expect(cleanSchemaFor('anthropic', obj({ a: str }))).toEqual({ schema: obj({ a: str }), changes: [] });
  });

  it('never follows a remote reference and never loops on recursion', () => {
    const remote = obj({ city: { $ref: 'https://example.com/city.json' } });
    expect(cleanSchemaFor('gemini', remote).schema).toEqual(obj({ city: { type: 'object' } }));
    const self = obj({ again: { $ref: '#' } });
    expect(cleanSchemaFor('gemini', self).schema).toEqual(obj({ again: obj({ again: { type: 'object' } }) }));
  });

  it('stays bounded on a schema that inlining would blow up, or that nests too deep', () => {
    // d0 uses d1 twice, d1 uses d2 twice, …: 2^30 copies if every reference were written out.
    const defs = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`d${i}`, obj({ l: { $ref: `#/$defs/d${i + 1}` }, r: { $ref: `#/$defs/d${i + 1}` } })]));
    const diamond = { ...obj({ top: { $ref: '#/$defs/d0' } }), $defs: { ...defs, d30: str } };
    const started = Date.now();
    const { changes } = cleanSchemaFor('gemini', diamond);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(changes.some((c) => c.startsWith('stopped inlining at '))).toBe(true);
    let deep: Record<string, unknown> = str;
    for (let i = 0; i < 300; i++) deep = obj({ d: deep });
    expect(cleanSchemaFor('openai-strict', deep).changes.some((c) => c.includes('nested more than 128 levels deep'))).toBe(true);
  });

  it('names places the way a user reads them', () => {
    expect(where([])).toBe('the root');
    expect(where(['properties', 'a', 'items', 'properties', 'b'])).toBe('a[].b');
    expect(where(['$defs', 'node', 'anyOf', '0'])).toBe('$defs.node.anyOf[0]');
  });
});

// ---- a real server: the doctor zoo ---------------------------------------------------------------

const ZOO = decodeURIComponent(new URL('../../e2e/fixtures/doctor-zoo.mjs', import.meta.url).pathname);
const clients: Client[] = [];
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
});

describe('providerFindings over the doctor zoo', () => {
  it('finds the planted problems the providers care about', async () => {
    const client = new Client({ name: 'doctor-providers-test', version: '0.0.0' });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [ZOO], stderr: 'ignore' }));
    const page = await client.request({ method: 'tools/list', params: {} }, z.looseObject({ tools: z.array(z.unknown()) }));
    const findings = providerFindings({ server: { name: 'doctor-zoo' }, lists: { tools: { items: page.tools, cursors: [] } } }, ['anthropic', 'gemini']);
    const errors = findings.filter((f) => f.severity === 'error').map((f) => `${f.rule} ${(f.about as { name: string }).name}`);
    expect(errors).toEqual(
      expect.arrayContaining([
        'anthropic-root-combinator root_one_of',
        'gemini-keyword root_one_of',
        'anthropic-name-characters get weather',
        'gemini-name-characters get weather',
        `anthropic-name-length long_${'x'.repeat(125)}`,
        'gemini-ref dangling_ref',
        'gemini-ref remote_ref',
        // The lint's clean tool says additionalProperties: false, which Gemini's Schema has no field for.
        'gemini-keyword ok_tool',
      ]),
    );
    // Anthropic takes every other zoo tool as it is: its documents name no schema subset.
    expect(errors.filter((e) => e.startsWith('anthropic-')).sort()).toEqual([
      'anthropic-name-characters get weather',
      `anthropic-name-length long_${'x'.repeat(125)}`,
      'anthropic-root-combinator root_one_of',
    ]);
  });
});
