/**
 * The server lint (lib/doctor/lint.ts): every rule with one input that breaks it and one that
 * does not, checking the words the user reads; then real servers over stdio — the broken schema
 * zoo (e2e/fixtures/doctor-zoo.mjs), where each planted problem must be found and nothing else,
 * and server-everything, whose findings are written down and justified below.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KNOWN_PROTOCOL_VERSIONS, lintServer, type LintInput } from './lint.ts';
import type { DoctorInput, Finding, ListFetch, Severity } from '../model/doctor.ts';
import { MODERN_VERSION } from '../trace/violations-modern.ts';

// ---- inputs ------------------------------------------------------------------------------------

const list = (items: unknown[], more: Partial<ListFetch> = {}): ListFetch => ({ items, cursors: [], ...more });
const server = (lists: DoctorInput['lists'], more: Partial<LintInput> = {}): LintInput => ({
  server: { name: 'test' },
  capabilities: { tools: {}, prompts: {}, resources: {} },
  lists,
  ...more,
});
const tool = (name: string, more: Record<string, unknown> = {}) => ({ name, title: 'A title', description: 'What it does.', inputSchema: { type: 'object', properties: {} }, ...more });
const tools = (...items: unknown[]) => server({ tools: list(items) });
const schema = (inputSchema: unknown) => tools(tool('t', { inputSchema }));
const annotated = (annotations: Record<string, unknown>) => tools(tool('t', { annotations }));
const withCaps = (capabilities: Record<string, unknown>, lists: DoctorInput['lists']) => server(lists, { capabilities });
const resource = (name: string, uri: string) => ({ name, uri, title: 'A title', description: 'What it holds.' });
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const AB = { a: { type: 'string' }, b: { type: 'string' } };

interface Case { name: string; rule: string; severity: Severity; failing: LintInput; passing: LintInput; words: string[] }
const CASES: Case[] = [
  { name: 'a name over 128 characters', rule: 'tool-name-length', severity: 'warning', failing: tools(tool('n'.repeat(130))), passing: tools(tool('n'.repeat(128))), words: ['has a name of 130 characters; the spec allows at most 128.', 'Shorten the name'] },
  { name: 'an empty name', rule: 'tool-name-length', severity: 'warning', failing: tools(tool('')), passing: tools(tool('x')), words: ['A tool has an empty name', 'Give the tool a name of 1 to 128 characters.'] },
  { name: 'a space', rule: 'tool-name-characters', severity: 'warning', failing: tools(tool('get weather')), passing: tools(tool('admin.tools-list_v2')), words: ['Tool "get weather" has a space in its name; the spec allows only A-Z, a-z, 0-9, "_", "-" and ".".', 'Rename it to "get_weather"'] },
  { name: 'a slash and an invisible character', rule: 'tool-name-characters', severity: 'warning', failing: tools(tool('a/b\u200b')), passing: tools(tool('a_b')), words: ['has "/" and U+200B (an invisible character) in its name', 'Rename it to "a_b"'] },
  { name: 'two tools, one name', rule: 'tool-name-duplicate', severity: 'error', failing: tools(tool('twin'), tool('twin', { title: 'Other' })), passing: tools(tool('twin'), tool('twin2')), words: ['tools/list lists tool "twin" more than once, so clients can reach only one of them.', 'Give each tool its own name.'] },
  { name: 'two resources, one URI', rule: 'resource-uri-duplicate', severity: 'error', failing: server({ resources: list([resource('a', 'x://1'), resource('b', 'x://1')]) }), passing: server({ resources: list([resource('a', 'x://1'), resource('b', 'x://2')]) }), words: ['resources/list lists resource "x://1" more than once', 'its own uri'] },
  { name: 'an item again on the next page', rule: 'pagination-repeats-items', severity: 'warning', failing: server({ tools: list([tool('a'), tool('a')], { cursors: ['p2'] }) }), passing: server({ tools: list([tool('a'), tool('b')], { cursors: ['p2'] }) }), words: ['Tool "a" comes back on more than one page of tools/list.', 'every item is sent once'] },
  { name: 'a cursor twice', rule: 'pagination-loop', severity: 'error', failing: server({ tools: list([tool('a')], { cursors: ['p2', 'p3', 'p2'] }) }), passing: server({ tools: list([tool('a')], { cursors: ['p2', 'p3'] }) }), words: ['tools/list sent the cursor "p2" twice, so its pages never end.', 'Return a new nextCursor for each page'] },
  { name: 'Loupe gave up', rule: 'pagination-stopped', severity: 'warning', failing: server({ prompts: list([], { stopped: 'more than 100 pages.' }) }), passing: server({ prompts: list([]) }), words: ['Loupe stopped following the pages of prompts/list: more than 100 pages.', 'no nextCursor'] },
  { name: 'a tool without a title', rule: 'missing-title', severity: 'info', failing: tools(tool('t', { title: undefined })), passing: tools(tool('t', { title: undefined, annotations: { title: 'From annotations' } })), words: ['Tool "t" has no title, so hosts show users its bare name.', 'Add a short human-readable title.'] },
  { name: 'an untitled prompt under 2025-03-26 (no titles yet)', rule: 'missing-title', severity: 'info', failing: server({ prompts: list([{ name: 'p', description: 'd' }]) }), passing: server({ prompts: list([{ name: 'p', description: 'd' }]) }, { protocolVersion: '2025-03-26' }), words: ['Prompt "p" has no title'] },
  { name: 'a tool without a description', rule: 'missing-description', severity: 'warning', failing: tools(tool('t', { description: ' ' })), passing: tools(tool('t')), words: ['Tool "t" has no description, so the model has only its name to decide when to call it.', 'Add a description'] },
  { name: 'a prompt without a description', rule: 'missing-description', severity: 'warning', failing: server({ prompts: list([{ name: 'p', title: 'P' }]) }), passing: server({ prompts: list([{ name: 'p', title: 'P', description: 'd' }]) }), words: ['Prompt "p" has no description, so users and models have only its name to go on.'] },
  { name: 'an input schema of type string', rule: 'schema-not-object', severity: 'error', failing: schema({ type: 'string' }), passing: schema({ type: 'object' }), words: ['The input schema of tool "t" has type "string", not "object"; the spec requires an object schema.', '"additionalProperties": false'] },
  { name: 'no input schema', rule: 'schema-not-object', severity: 'error', failing: schema(undefined), passing: schema({ type: 'object' }), words: ['The input schema of tool "t" is missing'] },
  { name: 'an output schema of type array', rule: 'schema-not-object', severity: 'error', failing: tools(tool('t', { outputSchema: { type: 'array' } })), passing: tools(tool('t', { outputSchema: { type: 'object' } })), words: ['The output schema of tool "t" has type "array"'] },
  { name: 'type "strng"', rule: 'schema-invalid', severity: 'error', failing: schema({ type: 'object', properties: { a: { type: 'strng' } } }), passing: schema({ type: 'object', properties: { a: { type: 'string' } } }), words: ['is not valid JSON Schema 2020-12 (nor draft-07): /properties/a/type must be equal to one of the allowed values (array, boolean, integer, null, number, object, string).', 'Correct the schema'] },
  { name: 'an unknown keyword', rule: 'schema-not-strict', severity: 'warning', failing: schema({ type: 'object', colour: 'red' }), passing: schema({ type: 'object', properties: { a: { type: ['string', 'null'], format: 'email' } } }), words: ['is valid JSON Schema 2020-12 but fails Ajv strict mode (as draft-07 too): unknown keyword: "colour".'] },
  { name: 'a 2020-12 keyword under a declared draft-07', rule: 'schema-not-strict', severity: 'warning', failing: schema({ $schema: DRAFT_07, type: 'object', properties: AB, dependentRequired: { a: ['b'] } }), passing: schema({ $schema: DRAFT_07, type: 'object', properties: AB, dependencies: { a: ['b'] } }), words: ['is valid JSON Schema draft-07 but fails Ajv strict mode: unknown keyword: "dependentRequired".'] },
  { name: 'a keyword draft-07 lacks', rule: 'schema-draft-07', severity: 'warning', failing: schema({ type: 'object', properties: AB, dependentRequired: { a: ['b'] } }), passing: schema({ type: 'object', properties: AB, required: ['a'] }), words: ['compiles as JSON Schema 2020-12 but fails as JSON Schema draft-07 under strict mode: unknown keyword: "dependentRequired".', 'Avoid keywords draft-07 lacks'] },
  { name: 'draft-04', rule: 'schema-dialect-unknown', severity: 'warning', failing: schema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }), passing: schema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }), words: ['names $schema http://json-schema.org/draft-04/schema#, a dialect Loupe cannot check', 'Use JSON Schema 2020-12'] },
  { name: 'a pointer to nothing', rule: 'schema-ref-dangling', severity: 'error', failing: schema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } }, $defs: { there: { type: 'string' } } }), passing: schema({ type: 'object', properties: { a: { $ref: '#/$defs/there' }, b: { $ref: '#city' } }, $defs: { there: { type: 'string' }, city: { $anchor: 'city', type: 'string' } } }), words: ['The input schema of tool "t" has a $ref to #/$defs/missing at /properties/a, which points to nothing in the schema.', 'Add the missing definition under $defs'] },
  { name: 'a schema on another server', rule: 'schema-ref-remote', severity: 'error', failing: schema({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }), passing: schema({ $id: 'https://example.com/root.json', type: 'object', properties: { a: { $ref: 'https://example.com/root.json#/$defs/x' } }, $defs: { x: { type: 'string' } } }), words: ['has a $ref to https://example.com/a.json at /properties/a, outside the schema; Loupe does not fetch it', '"#/$defs/…"'] },
  { name: 'required without the property', rule: 'schema-required-missing', severity: 'warning', failing: schema({ type: 'object', properties: { a: {} }, required: ['a', 'b'] }), passing: schema({ type: 'object', properties: { a: {} }, patternProperties: { '^x_': {} }, required: ['a', 'x_1'] }), words: ['The input schema of tool "t" requires "b", which is not among its properties.', 'Add "b" to properties or remove it from required.'] },
  { name: 'read-only and destructive', rule: 'annotations-contradict', severity: 'warning', failing: annotated({ readOnlyHint: true, destructiveHint: true }), passing: annotated({ readOnlyHint: true, idempotentHint: false }), words: ['Tool "t" says it is both read-only (readOnlyHint) and destructive (destructiveHint)', 'Set readOnlyHint to false'] },
  { name: 'hints a read-only tool does not need', rule: 'annotations-ignored', severity: 'info', failing: annotated({ readOnlyHint: true, destructiveHint: false, idempotentHint: true }), passing: annotated({ readOnlyHint: false, destructiveHint: false, idempotentHint: true }), words: ['Tool "t" is read-only (readOnlyHint), so its destructiveHint and idempotentHint are ignored.', 'Remove destructiveHint and idempotentHint'] },
  { name: 'prompts declared, not served', rule: 'capability-not-served', severity: 'error', failing: withCaps({ prompts: {} }, { prompts: list([], { error: { code: -32601, message: 'Method not found' } }) }), passing: withCaps({}, { prompts: list([], { error: { code: -32601, message: 'Method not found' } }) }), words: ['The server declares the prompts capability but prompts/list failed: Method not found.', 'Serve prompts/list, or remove prompts'] },
  { name: 'tools served, not declared', rule: 'capability-undeclared', severity: 'error', failing: withCaps({}, { tools: list([tool('a')]) }), passing: withCaps({ tools: {} }, { tools: list([tool('a')]) }), words: ['The server answers tools/list with 1 tool but did not declare the tools capability', 'Add "tools": {}'] },
  { name: 'listChanged', rule: 'list-changed-declared', severity: 'info', failing: withCaps({ tools: { listChanged: true } }, {}), passing: withCaps({ tools: {} }, {}), words: ['The server says it sends notifications/tools/list_changed; Loupe watches for it while the session runs.'] },
  { name: 'a version from the future', rule: 'protocol-version-unknown', severity: 'warning', failing: server({}, { protocolVersion: '2099-01-01' }), passing: server({}, { protocolVersion: MODERN_VERSION }), words: ['The server speaks protocol version "2099-01-01", which no MCP SDK Loupe uses knows'] },
  { name: 'another version than asked', rule: 'protocol-version-other-than-requested', severity: 'info', failing: server({}, { protocolVersion: '2025-06-18', requested: '2025-11-25' }), passing: server({}, { protocolVersion: '2025-11-25', requested: '2025-11-25' }), words: ['Loupe asked for protocol version 2025-11-25 and the server answered 2025-06-18.'] },
];

const rules = (findings: Finding[]) => findings.map((f) => f.rule);

describe.each(CASES)('$rule: $name', ({ rule, severity, failing, passing, words }) => {
  it('is found, in words the user reads, with its source', () => {
    const hits = lintServer(failing).filter((f) => f.rule === rule);
    expect(hits).toHaveLength(1);
    expect(hits[0].severity).toBe(severity);
    for (const w of words) expect(`${hits[0].message} ${hits[0].fix}`).toContain(w);
    expect(hits[0].source.url).toMatch(/^https:\/\/(modelcontextprotocol\.io\/specification\/2025-11-25\/|json-schema\.org\/)/);
  });
  it('is not found on the passing input', () => {
    expect(rules(lintServer(passing))).not.toContain(rule);
  });
});

describe('lintServer, beyond single rules', () => {
  it('reports a bad $ref once, and still checks the rest of the schema', () => {
    expect(rules(lintServer(schema({ type: 'object', properties: { a: { $ref: '#/$defs/nope' } } })))).toEqual(['schema-ref-dangling']);
    expect(rules(lintServer(schema({ type: 'object', properties: { a: { $ref: 'other.json' }, b: { type: 'strng' } } })))).toEqual(['schema-ref-remote', 'schema-invalid']);
  });
  it('takes an identical item on two pages for a pagination repeat, not a duplicate name', () => {
    expect(rules(lintServer(server({ tools: list([tool('a'), tool('a')], { cursors: ['p2'] }) })))).toEqual(['pagination-repeats-items']);
  });
  it('knows the protocol versions the SDKs know', () => {
    expect(KNOWN_PROTOCOL_VERSIONS).toEqual([MODERN_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS]);
  });
  it('finds nothing on a clean server', () => {
    expect(lintServer(tools(tool('ok', { annotations: { readOnlyHint: true, openWorldHint: false } })))).toEqual([]);
  });
});

// ---- real servers ------------------------------------------------------------------------------

const here = (path: string) => decodeURIComponent(new URL(path, import.meta.url).pathname);
const ZOO = here('../../e2e/fixtures/doctor-zoo.mjs');
const EVERYTHING = here('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const Page = z.looseObject({ nextCursor: z.string().optional() });
const LIST_METHODS: Array<[keyof DoctorInput['lists'], string, string]> = [
  ['tools', 'tools/list', 'tools'],
  ['prompts', 'prompts/list', 'prompts'],
  ['resources', 'resources/list', 'resources'],
  ['resourceTemplates', 'resources/templates/list', 'resourceTemplates'],
];

const clients: Client[] = [];
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
});

/** Every page of one list as sent (the result is not reshaped by the SDK's schemas), or its error. */
async function fetchAll(client: Client, method: string, field: string): Promise<ListFetch> {
  const items: unknown[] = [];
  const cursors: string[] = [];
  try {
    for (let cursor: string | undefined; ; ) {
      const page = await client.request({ method, params: cursor === undefined ? {} : { cursor } }, Page);
      const got = (page as Record<string, unknown>)[field];
      items.push(...(Array.isArray(got) ? got : []));
      cursor = page.nextCursor;
      if (cursor === undefined || cursors.length >= 20) return { items, cursors };
      cursors.push(cursor);
    }
  } catch (error) {
    return { items, cursors, error: { code: (error as { code?: number }).code, message: error instanceof Error ? error.message : String(error) } };
  }
}

/** Connects with the 1.x client over stdio, fetches every list (declared or not) and lints them. */
async function lintOf(script: string): Promise<{ input: LintInput; findings: Finding[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' });
  let negotiated: string | undefined;
  // The 1.x client hands the negotiated version to a transport that takes it (HTTP does, stdio does not).
  Object.assign(transport, { setProtocolVersion: (version: string) => { negotiated = version; } });
  const client = new Client({ name: 'doctor-lint-test', version: '0.0.0' });
  clients.push(client);
  await client.connect(transport);
  const lists: DoctorInput['lists'] = {};
  for (const [key, method, field] of LIST_METHODS) lists[key] = await fetchAll(client, method, field);
  const input: LintInput = { server: client.getServerVersion()!, protocolVersion: negotiated, requested: LATEST_PROTOCOL_VERSION, capabilities: client.getServerCapabilities(), lists };
  return { input, findings: lintServer(input) };
}

type Tool = { name: string; title?: string; annotations?: { readOnlyHint?: boolean } };
const nameOf = (item: unknown) => (item as Tool).name;
const namesFor = (findings: Finding[], rule: string) => findings.filter((f) => f.rule === rule).map((f) => (f.about as { name: string }).name).sort();
const labelled = (findings: Finding[]) => findings.map((f) => `${f.rule} ${f.about.kind === 'server' || f.about.kind === 'frame' ? f.about.kind : f.about.name}`).sort();

describe('lintServer over real servers', () => {
  it('finds each problem planted in the doctor zoo, and nothing on ok_tool', async () => {
    const { input, findings } = await lintOf(ZOO);
    expect(input.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(labelled(findings)).toEqual([
      'annotations-contradict contradictory',
      'capability-not-served server',
      'list-changed-declared server',
      'missing-description untitled',
      'missing-title untitled',
      'schema-invalid bad_type',
      'schema-ref-dangling dangling_ref',
      'schema-ref-remote remote_ref',
      'schema-required-missing missing_required',
      'tool-name-characters get weather',
      'tool-name-duplicate twin',
      `tool-name-length long_${'x'.repeat(125)}`,
    ]);
    const said = (rule: string) => findings.find((f) => f.rule === rule)!.message;
    expect(said('schema-invalid')).toContain('/properties/a/type must be equal to one of the allowed values');
    expect(said('schema-ref-remote')).toContain('https://example.com/schemas/city.json');
    expect(said('capability-not-served')).toContain('prompts/list failed');
    expect(said('tool-name-length')).toContain('130 characters');
  });

  it('on server-everything reports only what it really does (all info)', async () => {
    const { input, findings } = await lintOf(EVERYTHING);
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([]);
    // 9 annotations-ignored: every read-only tool (echo, get-annotated-message, get-env,
    // get-resource-links, get-resource-reference, get-structured-content, get-sum, get-tiny-image,
    // trigger-long-running-operation) also sends destructiveHint: false and idempotentHint: true,
    // which the spec reads only when readOnlyHint is false. True, and harmless.
    const readOnly = input.lists.tools!.items.filter((t) => (t as Tool).annotations?.readOnlyHint === true).map(nameOf);
    expect(readOnly).toHaveLength(9);
    expect(namesFor(findings, 'annotations-ignored')).toEqual(readOnly.sort());
    // 9 missing-title: its 7 static resources (architecture.md … structure.md) and 2 resource
    // templates (Dynamic Text Resource, Dynamic Blob Resource) send a name and no title; its tools
    // and prompts all have titles.
    const untitled = [...input.lists.resources!.items, ...input.lists.resourceTemplates!.items].filter((r) => !(r as Tool).title).map(nameOf);
    expect(untitled).toHaveLength(9);
    expect(namesFor(findings, 'missing-title')).toEqual(untitled.sort());
    // 3 list-changed-declared: it declares listChanged for tools, prompts and resources.
    expect(findings.filter((f) => f.rule === 'list-changed-declared').map((f) => f.message.match(/notifications\/(\w+)\//)![1])).toEqual(['tools', 'prompts', 'resources']);
    // Nothing else: its schemas declare draft-07 and compile under strict mode, names follow the
    // spec, every capability it declares is served, and it answers the version asked for.
    expect(findings).toHaveLength(21);
  });
});
