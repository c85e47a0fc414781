/**
 * Tool definitions for LLM APIs (lib/doctor/export-tools.ts). Every exported definition is checked
 * against each provider's published tool shape, written below as Ajv schemas from the documents of
 * lib/doctor/provider-rules.ts: the name pattern, the required fields, and the JSON Schema subset the
 * provider takes (OpenAI strict mode's keyword subset with its object rules, Gemini's Schema
 * fields). Then server-everything over stdio: all its tools, in every format.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exportTools, type ExportFormat } from './export-tools.ts';
import { PROFILES } from './provider-rules.ts';

// ---- the providers' published shapes -----------------------------------------------------------

// Strict about unknown keywords (a typo in these shapes is an error); not about types, which these shapes leave open on purpose.
const ajv = new Ajv2020({ allErrors: true, strictTypes: false });
// "All fields in properties must be marked as required" cannot be said in JSON Schema itself.
ajv.addKeyword({
  keyword: 'requiresEveryProperty',
  type: 'object',
  schemaType: 'boolean',
  validate: (on: boolean, data: { properties?: object; required?: unknown[] }) => !on || Object.keys(data.properties ?? {}).every((k) => (data.required ?? []).includes(k)),
});

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const strictKeywords = PROFILES['openai-strict'].keywords!;
const isObjectType = { anyOf: [{ properties: { type: { const: 'object' } }, required: ['type'] }, { properties: { type: { type: 'array', contains: { const: 'object' } } }, required: ['type'] }] };

/** OpenAI Chat Completions `tools[]`: a function tool; with `strict: true`, the Structured Outputs subset. */
const OPENAI_TOOL = {
  $defs: {
    strictSchema: {
      type: 'object',
      propertyNames: { enum: [...strictKeywords.accepted, ...strictKeywords.annotations] },
      properties: {
        type: { anyOf: [{ enum: JSON_TYPES }, { type: 'array', items: { enum: JSON_TYPES } }] },
        properties: { type: 'object', additionalProperties: { $ref: '#/$defs/strictSchema' } },
        $defs: { type: 'object', additionalProperties: { $ref: '#/$defs/strictSchema' } },
        items: { $ref: '#/$defs/strictSchema' },
        anyOf: { type: 'array', items: { $ref: '#/$defs/strictSchema' } },
        required: { type: 'array', items: { type: 'string' } },
        format: { enum: PROFILES['openai-strict'].formats!.accepted },
      },
      if: isObjectType,
      then: { required: ['properties', 'additionalProperties'], properties: { additionalProperties: { const: false } }, requiresEveryProperty: true },
    },
  },
  type: 'object',
  required: ['type', 'function'],
  additionalProperties: false,
  properties: {
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name', 'parameters', 'strict'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
        description: { type: 'string' },
        parameters: { type: 'object', required: ['type'], properties: { type: { const: 'object' } } },
        strict: { type: 'boolean' },
      },
      if: { properties: { strict: { const: true } } },
      then: { properties: { parameters: { $ref: '#/$defs/strictSchema', not: { anyOf: [{ required: ['anyOf'] }, { required: ['oneOf'] }, { required: ['allOf'] }] } } } },
    },
  },
};

/** Anthropic Messages `tools[]`: a custom tool, `input_schema` an object schema without a top-level combinator. */
const ANTHROPIC_TOOL = {
  type: 'object',
  required: ['name', 'input_schema'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    description: { type: 'string' },
    input_schema: {
      type: 'object',
      required: ['type'],
      properties: { type: { const: 'object' } },
      not: { anyOf: [{ required: ['oneOf'] }, { required: ['anyOf'] }, { required: ['allOf'] }] },
    },
  },
};

const GEMINI_TYPES = ['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'];
/** Gemini `tools[].functionDeclarations`: names of the documented class, parameters made of Schema's fields only. */
const GEMINI_TOOL = {
  $defs: {
    schema: {
      type: 'object',
      propertyNames: { enum: PROFILES.gemini.keywords!.accepted },
      properties: {
        type: { enum: [...GEMINI_TYPES, ...GEMINI_TYPES.map((t) => t.toLowerCase())] },
        enum: { type: 'array', items: { type: 'string' } },
        properties: { type: 'object', additionalProperties: { $ref: '#/$defs/schema' } },
        items: { $ref: '#/$defs/schema' },
        anyOf: { type: 'array', items: { $ref: '#/$defs/schema' } },
        required: { type: 'array', items: { type: 'string' } },
        nullable: { type: 'boolean' },
      },
      // "type: Required. Data type." An anyOf holds the types in its branches.
      if: { not: { required: ['anyOf'] } },
      then: { required: ['type'] },
    },
  },
  type: 'object',
  required: ['functionDeclarations'],
  additionalProperties: false,
  properties: {
    functionDeclarations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          // Gemini API: letters, digits, _ : . -, at most 64; Vertex AI: starting with a letter or _.
          name: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$' },
          description: { type: 'string' },
          parameters: { $ref: '#/$defs/schema', properties: { type: { enum: ['object', 'OBJECT'] } } },
        },
      },
    },
  },
};

const validators = { openai: ajv.compile(OPENAI_TOOL), anthropic: ajv.compile(ANTHROPIC_TOOL), gemini: ajv.compile(GEMINI_TOOL) };

/** Every definition of `format` valid against the provider's shape; the errors otherwise. */
function shapeErrors(format: ExportFormat, definitions: unknown): string[] {
  const items = format === 'gemini' ? [definitions] : (definitions as unknown[]);
  const validate = validators[format];
  return items.flatMap((item) => (validate(item) ? [] : [`${JSON.stringify(item).slice(0, 120)}: ${ajv.errorsText(validate.errors)}`]));
}

// ---- inputs ------------------------------------------------------------------------------------

const str = { type: 'string' };
const tool = (name: string, inputSchema: unknown = { type: 'object', properties: { q: str }, required: ['q'] }, more = {}) => ({ name, description: `The ${name} tool.`, inputSchema, ...more });
const FORMATS: ExportFormat[] = ['openai', 'anthropic', 'gemini'];
const namesOf = (format: ExportFormat, definitions: unknown): string[] => {
  if (format === 'gemini') return (definitions as { functionDeclarations: { name: string }[] }).functionDeclarations.map((d) => d.name);
  return (definitions as { name?: string; function?: { name: string } }[]).map((d) => d.function?.name ?? d.name!);
};

describe('exportTools: shapes', () => {
  it('writes each provider\'s tool shape', () => {
    const servers = [{ name: 'weather', tools: [tool('forecast')] }];
    expect(exportTools(servers, 'openai').definitions).toEqual([
      { type: 'function', function: { name: 'forecast', description: 'The forecast tool.', parameters: { type: 'object', properties: { q: str }, required: ['q'] }, strict: false } },
    ]);
    expect(exportTools(servers, 'anthropic').definitions).toEqual([{ name: 'forecast', description: 'The forecast tool.', input_schema: { type: 'object', properties: { q: str }, required: ['q'] } }]);
    expect(exportTools(servers, 'gemini').definitions).toEqual({ functionDeclarations: [{ name: 'forecast', description: 'The forecast tool.', parameters: { type: 'object', properties: { q: str }, required: ['q'] } }] });
  });

  it('turns strict on only for a schema strict mode takes as it is', () => {
    const ready = tool('ready', { type: 'object', properties: { q: str }, required: ['q'], additionalProperties: false });
    const { definitions, notes } = exportTools([{ name: 's', tools: [ready, tool('loose')] }], 'openai');
    expect((definitions as { function: { strict: boolean } }[]).map((d) => d.function.strict)).toEqual([true, false]);
    expect(notes).toContain('"strict" is false for "loose": their schemas break OpenAI strict-mode rules (run the doctor to see which), and strict mode would refuse them.');
    expect(shapeErrors('openai', definitions)).toEqual([]);
  });

  it('cleans schemas for each provider and says so', () => {
    const zod = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: str, n: { type: ['integer', 'null'] } }, additionalProperties: false };
    for (const format of FORMATS) {
      const { definitions, notes } = exportTools([{ name: 's', tools: [tool('search', zod)] }], format);
      expect(shapeErrors(format, definitions), format).toEqual([]);
      expect(notes[0], format).toMatch(/^"search": dropped "\$schema"/);
    }
    const gemini = exportTools([{ name: 's', tools: [tool('search', zod)] }], 'gemini');
    expect(gemini.notes).toContain('"search": turned the type list ["integer","null"] at n into one type with "nullable": true.');
    // A change made to several tools is said once, with their names.
    const both = exportTools([{ name: 's', tools: [tool('a', zod), tool('b', zod), tool('c')] }], 'anthropic');
    expect(both.notes).toEqual(['"a", "b": dropped "$schema": the provider reads the schema without a dialect.']);
  });

  it('leaves out Gemini parameters for a tool that takes none, and says a missing description', () => {
    const { definitions, notes } = exportTools([{ name: 's', tools: [{ name: 'ping', inputSchema: { type: 'object', properties: {} } }] }], 'gemini');
    expect(definitions).toEqual({ functionDeclarations: [{ name: 'ping' }] });
    expect(notes).toEqual(['"ping" has no description, which the Gemini API marks as required.', '"ping": left out "parameters": the tool takes none.']);
  });

  it('uses the title when there is no description', () => {
    const { definitions } = exportTools([{ name: 's', tools: [{ name: 'ping', title: 'Ping the host', inputSchema: { type: 'object' } }] }], 'anthropic');
    expect(definitions).toEqual([{ name: 'ping', description: 'Ping the host', input_schema: { type: 'object' } }]);
  });
});

describe('exportTools: names', () => {
  it('keeps one server\'s names, cleaned to the pattern, and resolves clashes', () => {
    const { definitions, notes } = exportTools([{ name: 'w', tools: [tool('get weather'), tool('get_weather'), tool('files.read')] }], 'anthropic');
    expect(namesOf('anthropic', definitions)).toEqual(['get_weather', 'get_weather_2', 'files_read']);
    expect(notes).toEqual([
      '"get weather" is exported as "get_weather": Anthropic accepts letters a-z and A-Z, digits, underscores and dashes, at most 64 characters.',
      'Two tools would both be called "get_weather"; the later one ("get_weather") is exported as "get_weather_2".',
      '"files.read" is exported as "files_read": Anthropic accepts letters a-z and A-Z, digits, underscores and dashes, at most 64 characters.',
    ]);
    expect(namesOf('gemini', exportTools([{ name: 'w', tools: [tool('files.read')] }], 'gemini').definitions)).toEqual(['files.read']);
  });

  it('namespaces several servers as server__tool and cuts long names to the provider\'s length', () => {
    const long = 'a-very-long-server-name-for-weather-data';
    const { definitions, notes } = exportTools([{ name: 'files', tools: [tool('search')] }, { name: long, tools: [tool('search'), tool(`forecast_${'x'.repeat(60)}`)] }], 'openai');
    const names = namesOf('openai', definitions);
    expect(names.slice(0, 2)).toEqual(['files__search', `${long}__search`]);
    expect(names[2]).toBe(`a-very-long-serv__forecast_${'x'.repeat(60)}`.slice(0, 64));
    expect(notes[0]).toBe('2 servers are exported together, so every name is "server__tool".');
    expect(notes.some((n) => n.startsWith(`"${long}__forecast_`) && n.includes(`is exported as "${names[2]}"`))).toBe(true);
    expect(shapeErrors('openai', definitions)).toEqual([]);
  });

  it('gives Gemini names a letter or an underscore to start with', () => {
    const { definitions } = exportTools([{ name: 'x', tools: [tool('3d')] }], 'gemini');
    expect(namesOf('gemini', definitions)).toEqual(['_3d']);
  });

  it('leaves out a tool without a name, with a note', () => {
    const { definitions, notes } = exportTools([{ name: 'x', tools: [{ inputSchema: {} }, tool('ok')] }], 'anthropic');
    expect(namesOf('anthropic', definitions)).toEqual(['ok']);
    expect(notes).toContain('Left out a tool of "x" that has no name.');
  });
});

describe('the shape checks themselves', () => {
  it('refuse what the providers refuse', () => {
    const fn = (name: string, parameters: unknown, strict = false) => [{ type: 'function', function: { name, parameters, strict } }];
    expect(shapeErrors('openai', fn('get weather', { type: 'object' }))).toHaveLength(1);
    expect(shapeErrors('openai', fn('ok', { type: 'object', properties: { a: str } }, true))).toHaveLength(1);
    expect(shapeErrors('openai', fn('ok', { type: 'object', properties: { a: str }, required: ['a'], additionalProperties: false }, true))).toEqual([]);
    expect(shapeErrors('anthropic', [{ name: 'ok', input_schema: { type: 'object', oneOf: [] } }])).toHaveLength(1);
    expect(shapeErrors('gemini', { functionDeclarations: [{ name: 'ok', parameters: { type: 'object', additionalProperties: false } }] })).toHaveLength(1);
    expect(shapeErrors('gemini', { functionDeclarations: [{ name: 'ok', parameters: { type: 'object', properties: { a: { type: 'integer', enum: [1] } } } }] })).toHaveLength(1);
  });
});

// ---- a real server: server-everything ------------------------------------------------------------

const EVERYTHING = decodeURIComponent(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url).pathname);
const clients: Client[] = [];
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
});

describe('exportTools over server-everything', () => {
  it('exports every tool in every format in the provider\'s shape', async () => {
    const client = new Client({ name: 'export-tools-test', version: '0.0.0' });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
    const { tools } = await client.request({ method: 'tools/list', params: {} }, z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) }));
    expect(tools.length).toBeGreaterThan(5);
    for (const format of FORMATS) {
      const { definitions } = exportTools([{ name: 'everything', tools }], format);
      expect(shapeErrors(format, definitions), format).toEqual([]);
      // Its names are already a-z and dashes: none is renamed.
      expect(namesOf(format, definitions), format).toEqual(tools.map((t) => t.name));
    }
    const together = exportTools([{ name: 'everything', tools }, { name: 'again', tools }], 'gemini');
    expect(shapeErrors('gemini', together.definitions)).toEqual([]);
    expect(namesOf('gemini', together.definitions)).toEqual([...tools.map((t) => `everything__${t.name}`), ...tools.map((t) => `again__${t.name}`)]);
  });
});
