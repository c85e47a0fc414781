/**
 * The server doctor's lint (issue 14, point 3): what a host or a client will trip over in a
 * server's lists, found from the lists alone — tool names against the spec's naming rules,
 * duplicates, missing titles and descriptions, schemas that do not compile under Ajv strict mode
 * (in the dialect they name, else 2020-12, and in draft-07, which many clients still validate
 * with), `$ref`s that point nowhere or off the schema, `required` naming absent properties,
 * contradictory annotations, capabilities declared but not served (or served but not declared),
 * pagination that loops or repeats, and a protocol version no SDK knows. Pure: no I/O, runs in
 * the page and in the CLI alike.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { validateToolName } from '@modelcontextprotocol/sdk/shared/toolNameValidation.js';
import type { DoctorInput, Finding, FindingSource, FindingSubject, ListFetch, Severity } from '../model/doctor.ts';
import { MODERN_VERSION } from '../trace/violations-modern.ts';

/** `requested`: the protocol version Loupe asked for in initialize (to be folded into DoctorInput). */
export type LintInput = DoctorInput & { requested?: string };

/**
 * The versions the SDKs Loupe speaks know: the 1.x SDK's SUPPORTED_PROTOCOL_VERSIONS and the v2
 * SDK's modern one. Written out because the page imports this module and the SDK's types module
 * would bring all of its zod schemas with it; doctor-lint.test.ts pins the list to the SDK's.
 */
export const KNOWN_PROTOCOL_VERSIONS: readonly string[] = [MODERN_VERSION, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

const SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25';
const spec = (path: string, label: string): FindingSource => ({ label: `MCP 2025-11-25: ${label}`, url: `${SPEC}/${path}` });
const SOURCES = {
  names: spec('server/tools#tool-names', 'tool names'),
  tool: spec('server/tools#tool', 'tool definition'),
  jsonSchema: spec('basic#json-schema-usage', 'JSON Schema usage'),
  annotations: spec('schema#toolannotations', 'ToolAnnotations'),
  capabilities: spec('basic/lifecycle#capability-negotiation', 'capability negotiation'),
  pagination: spec('server/utilities/pagination', 'pagination'),
  version: spec('basic/lifecycle#version-negotiation', 'version negotiation'),
  ref: { label: 'JSON Schema 2020-12 core: $ref', url: 'https://json-schema.org/draft/2020-12/json-schema-core#section-8.2.3.1' },
  required: { label: 'JSON Schema 2020-12 validation: required', url: 'https://json-schema.org/draft/2020-12/json-schema-validation#section-6.5.3' },
} satisfies Record<string, FindingSource>;

type ListKey = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
type ItemKind = 'tool' | 'prompt' | 'resource' | 'resource-template';
type ItemSubject = { kind: ItemKind; name: string };
/** Each list: what its items are called, the field that identifies one, its capability and spec page. */
interface ListInfo { kind: ItemKind; label: string; key: string; capability: string; method: string; page: string; definition: string; duplicate: string }
const LISTS: Record<ListKey, ListInfo> = {
  tools: { kind: 'tool', label: 'Tool', key: 'name', capability: 'tools', method: 'tools/list', page: 'server/tools', definition: 'tool', duplicate: 'tool-name-duplicate' },
  prompts: { kind: 'prompt', label: 'Prompt', key: 'name', capability: 'prompts', method: 'prompts/list', page: 'server/prompts', definition: 'prompt', duplicate: 'prompt-name-duplicate' },
  resources: { kind: 'resource', label: 'Resource', key: 'uri', capability: 'resources', method: 'resources/list', page: 'server/resources', definition: 'resource', duplicate: 'resource-uri-duplicate' },
  resourceTemplates: { kind: 'resource-template', label: 'Resource template', key: 'uriTemplate', capability: 'resources', method: 'resources/templates/list', page: 'server/resources', definition: 'resource-templates', duplicate: 'resource-template-duplicate' },
};
const LIST_KEYS = Object.keys(LISTS) as ListKey[];
const SERVER: FindingSubject = { kind: 'server' };

type Item = Record<string, unknown>;
const isRecord = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
/** A name as the user reads it: quoted (so spaces and control characters show), long ones cut. */
const q = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}…` : s);

function make(severity: Severity, about: FindingSubject, rule: string, message: string, fix: string, source: FindingSource): Finding {
  return { severity, about, rule, message, fix, source };
}

function subjectOf(info: ListInfo, item: Item): ItemSubject {
  return { kind: info.kind, name: typeof item.name === 'string' ? item.name : String(item[info.key] ?? '(unnamed)') };
}

export function lintServer(input: LintInput): Finding[] {
  const findings: Finding[] = [...versionFindings(input), ...capabilityFindings(input)];
  for (const key of LIST_KEYS) {
    const list = input.lists[key];
    if (list === undefined) continue;
    const items = list.items.map((item) => (isRecord(item) ? item : {}));
    findings.push(...paginationFindings(key, list, items));
    for (const item of items) {
      findings.push(...metadataFindings(LISTS[key], item, input.protocolVersion));
      if (key === 'tools') findings.push(...toolNameFindings(item), ...annotationFindings(item), ...schemaFindings(item, 'input'), ...schemaFindings(item, 'output'));
    }
  }
  return findings;
}

// ---- names, titles, descriptions ---------------------------------------------------------------

/** How a character the spec does not allow reads in a sentence: invisible ones by code point. */
function describeCharacter(c: string): string {
  if (c === ' ') return 'a space';
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(c) ? JSON.stringify(c) : `${code} (an invisible character)`;
}

const listWords = (words: string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

function toolNameFindings(tool: Item): Finding[] {
  const name = typeof tool.name === 'string' ? tool.name : '';
  // The SDK's own check (SEP-986) decides; the words below say which part of it the name breaks.
  if (validateToolName(name).isValid) return [];
  const about: ItemSubject = { kind: 'tool', name };
  const out: Finding[] = [];
  const length = [...name].length;
  if (length === 0) out.push(make('warning', about, 'tool-name-length', 'A tool has an empty name; the spec asks for 1 to 128 characters.', 'Give the tool a name of 1 to 128 characters.', SOURCES.names));
  if (length > 128) out.push(make('warning', about, 'tool-name-length', `Tool ${q(name)} has a name of ${length} characters; the spec allows at most 128.`, 'Shorten the name to 128 characters or fewer.', SOURCES.names));
  const bad = [...new Set([...name].filter((c) => !/^[A-Za-z0-9_.-]$/.test(c)))];
  if (bad.length > 0) {
    const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 128) || 'tool';
    out.push(make('warning', about, 'tool-name-characters', `Tool ${q(name)} has ${listWords(bad.map(describeCharacter))} in its name; the spec allows only A-Z, a-z, 0-9, "_", "-" and ".".`, `Rename it to ${q(cleaned)} or another name made of those characters only.`, SOURCES.names));
  }
  return out;
}

function metadataFindings(info: ListInfo, item: Item, version: string | undefined): Finding[] {
  const about = subjectOf(info, item);
  const thing = `${info.label} ${q(about.name)}`;
  const source = spec(`${info.page}#${info.definition}`, `${info.label.toLowerCase()} definition`);
  const out: Finding[] = [];
  const annotations = isRecord(item.annotations) ? item.annotations : {};
  // `title` came with 2025-06-18 (tools had annotations.title from 2025-03-26): not asked of older versions.
  const titled = text(item.title) ?? (info.kind === 'tool' ? text(annotations.title) : undefined);
  if (titled === undefined && !(version !== undefined && version < '2025-06-18')) {
    out.push(make('info', about, 'missing-title', `${thing} has no title, so hosts show users its bare name.`, 'Add a short human-readable title.', source));
  }
  if (text(item.description) === undefined) {
    const reader = info.kind === 'tool' ? 'the model has only its name to decide when to call it' : 'users and models have only its name to go on';
    out.push(make('warning', about, 'missing-description', `${thing} has no description, so ${reader}.`, 'Add a description saying what it does and when to use it.', source));
  }
  return out;
}

// ---- annotations -------------------------------------------------------------------------------

function annotationFindings(tool: Item): Finding[] {
  const a = tool.annotations;
  if (!isRecord(a) || a.readOnlyHint !== true) return [];
  const about: ItemSubject = { kind: 'tool', name: String(tool.name ?? '') };
  const out: Finding[] = [];
  if (a.destructiveHint === true) {
    out.push(make('warning', about, 'annotations-contradict', `Tool ${q(about.name)} says it is both read-only (readOnlyHint) and destructive (destructiveHint), so hosts cannot tell whether to ask before running it.`, 'Set readOnlyHint to false if the tool changes anything, otherwise drop destructiveHint.', SOURCES.annotations));
  }
  // The spec gives destructiveHint and idempotentHint meaning only when readOnlyHint is false.
  const ignored = ['destructiveHint', 'idempotentHint'].filter((k) => k in a && !(k === 'destructiveHint' && a[k] === true));
  if (ignored.length > 0) {
    out.push(make('info', about, 'annotations-ignored', `Tool ${q(about.name)} is read-only (readOnlyHint), so its ${listWords(ignored)} ${ignored.length > 1 ? 'are' : 'is'} ignored.`, `Remove ${listWords(ignored)}; the spec reads ${ignored.length > 1 ? 'them' : 'it'} only when readOnlyHint is false.`, SOURCES.annotations));
  }
  return out;
}

// ---- capabilities, pagination, list_changed, protocol version ------------------------------------

function capabilityFindings(input: LintInput): Finding[] {
  const caps = input.capabilities;
  if (caps === undefined) return [];
  const out: Finding[] = [];
  for (const key of LIST_KEYS) {
    const { capability, method } = LISTS[key];
    const list = input.lists[key];
    const declared = isRecord(caps[capability]);
    if (declared && list?.error !== undefined) {
      // Templates are optional for a resources server; failing to list them is worth a warning only.
      out.push(make(key === 'resourceTemplates' ? 'warning' : 'error', SERVER, 'capability-not-served', `The server declares the ${capability} capability but ${method} failed: ${list.error.message.replace(/\.$/, '')}.`, `Serve ${method}, or remove ${capability} from the capabilities the server sends in initialize.`, SOURCES.capabilities));
    }
    // Templates belong to the resources capability: reported once, with resources/list when that has items.
    const counted = key !== 'resourceTemplates' || !(input.lists.resources?.items.length);
    if (!declared && list !== undefined && list.items.length > 0 && counted) {
      const n = list.items.length;
      out.push(make('error', SERVER, 'capability-undeclared', `The server answers ${method} with ${n} ${LISTS[key].label.toLowerCase()}${n === 1 ? '' : 's'} but did not declare the ${capability} capability, so clients will not ask for them.`, `Add "${capability}": {} to the capabilities the server sends in initialize.`, SOURCES.capabilities));
    }
    const listChanged = isRecord(caps[capability]) && (caps[capability] as Item).listChanged === true;
    if (listChanged && key !== 'resourceTemplates') {
      out.push(make('info', SERVER, 'list-changed-declared', `The server says it sends notifications/${capability}/list_changed; Loupe watches for it while the session runs.`, `Nothing to change: send it whenever the ${capability} list changes.`, spec(`${LISTS[key].page}#list-changed-notification`, 'list changed notification')));
    }
  }
  return out;
}

function paginationFindings(key: ListKey, list: ListFetch, items: Item[]): Finding[] {
  const info = LISTS[key];
  const out: Finding[] = [];
  const repeated = list.cursors.find((c, i) => list.cursors.indexOf(c) !== i);
  if (repeated !== undefined) {
    out.push(make('error', SERVER, 'pagination-loop', `${info.method} sent the cursor ${q(repeated)} twice, so its pages never end.`, 'Return a new nextCursor for each page and none on the last page.', SOURCES.pagination));
  } else if (list.stopped !== undefined) {
    out.push(make('warning', SERVER, 'pagination-stopped', `Loupe stopped following the pages of ${info.method}: ${list.stopped.replace(/\.$/, '')}.`, 'End the list with a page that has no nextCursor.', SOURCES.pagination));
  }
  const seen = new Map<string, Item>();
  const reported = new Set<string>();
  for (const item of items) {
    const id = item[info.key];
    if (typeof id !== 'string') continue;
    const first = seen.get(id);
    if (first === undefined) { seen.set(id, item); continue; }
    if (reported.has(id)) continue;
    reported.add(id);
    const about = subjectOf(info, item);
    // The same item again on a later page is the pagination repeating itself; two different
    // definitions under one name are two things the server really calls the same.
    if (list.cursors.length > 0 && JSON.stringify(first) === JSON.stringify(item)) {
      out.push(make('warning', about, 'pagination-repeats-items', `${info.label} ${q(id)} comes back on more than one page of ${info.method}.`, 'Make each page start where the previous one ended, so every item is sent once.', SOURCES.pagination));
    } else {
      // An error although the spec says SHOULD: calls go by name (reads by URI), so one of the two cannot be reached.
      out.push(make('error', about, info.duplicate, `${info.method} lists ${info.label.toLowerCase()} ${q(id)} more than once, so clients can reach only one of them.`, `Give each ${info.label.toLowerCase()} its own ${info.key}.`, key === 'tools' ? SOURCES.names : spec(`${info.page}#${info.definition}`, `${info.label.toLowerCase()} definition`)));
    }
  }
  return out;
}

function versionFindings(input: LintInput): Finding[] {
  const answered = input.protocolVersion;
  if (answered === undefined) return [];
  if (!KNOWN_PROTOCOL_VERSIONS.includes(answered)) {
    return [make('warning', SERVER, 'protocol-version-unknown', `The server speaks protocol version ${q(answered)}, which no MCP SDK Loupe uses knows, so most clients will disconnect.`, `Answer with the version the client asked for, or with another published one (such as ${KNOWN_PROTOCOL_VERSIONS[1]}) when the server does not support it.`, SOURCES.version)];
  }
  const asked = input.requested;
  if (asked !== undefined && asked !== answered) {
    return [make('info', SERVER, 'protocol-version-other-than-requested', `Loupe asked for protocol version ${asked} and the server answered ${answered}.`, `Nothing to change if the server does not support ${asked}; if it does, it must answer with it.`, SOURCES.version)];
  }
  return [];
}

// ---- schemas ------------------------------------------------------------------------------------

type Dialect = '2020-12' | '2019-09' | 'draft-07';
const DIALECT_SOURCES: Record<Dialect, FindingSource> = {
  '2020-12': { label: 'JSON Schema 2020-12', url: 'https://json-schema.org/draft/2020-12' },
  '2019-09': { label: 'JSON Schema 2019-09', url: 'https://json-schema.org/draft/2019-09' },
  'draft-07': { label: 'JSON Schema draft-07', url: 'https://json-schema.org/draft-07' },
};
const META_IDS: Record<string, Dialect | undefined> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
};

/**
 * Ajv strict mode as documented, with two changes: union types (`type: ["string", "null"]`) are
 * plain JSON Schema and allowed, and `required` naming absent properties is left to the rule
 * below, which words it better. The lax instances only tell "invalid" from "fails strict mode".
 */
const STRICT: Options = { strict: true, allowUnionTypes: true, strictRequired: false, logger: false };
const LAX: Options = { strict: false, logger: false };
type AnyAjv = Ajv | Ajv2019 | Ajv2020;
const instances = new Map<string, AnyAjv>();
function ajvFor(dialect: Dialect, strict: boolean): AnyAjv {
  const key = `${dialect} ${strict}`;
  let ajv = instances.get(key);
  if (ajv === undefined) {
    const options = strict ? STRICT : LAX;
    ajv = dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new Ajv(options);
    // The cast: ajv-formats is typed against ajv's default export; all three classes are Ajv cores.
    (addFormats as unknown as (a: AnyAjv) => void)(ajv);
    instances.set(key, ajv);
  }
  return ajv;
}

function tryCompile(ajv: AnyAjv, schema: Item): string | undefined {
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    ajv.removeSchema(schema);
  }
}

const metaError = (e: ErrorObject | undefined): string =>
  e === undefined ? 'the meta-schema rejects it' : `${e.instancePath || '/'} ${e.message ?? 'is wrong'}${Array.isArray(e.params.allowedValues) ? ` (${e.params.allowedValues.join(', ')})` : ''}`;

/** What stops `schema` compiling in `dialect`, or undefined when it compiles under strict mode. */
function compileProblem(dialect: Dialect, schema: Item): { strictOnly: boolean; text: string } | undefined {
  const strict = ajvFor(dialect, true);
  if (!strict.validateSchema(schema)) return { strictOnly: false, text: metaError(strict.errors?.[0]) };
  const error = tryCompile(strict, schema);
  if (error === undefined) return undefined;
  const lax = tryCompile(ajvFor(dialect, false), schema);
  const words = (m: string) => m.replace(/^strict mode: /, '').replace(/[.\s]+$/, '');
  return lax === undefined ? { strictOnly: true, text: words(error) } : { strictOnly: false, text: words(lax) };
}

const SUB = new Set(['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'allOf', 'anyOf', 'oneOf', 'prefixItems']);
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
const escapeToken = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every subschema with its JSON pointer (data keywords such as `enum` and `default` are not entered). */
function subschemas(node: unknown, pointer = '', out: Array<[Item, string]> = [], depth = 0): Array<[Item, string]> {
  if (!isRecord(node) || depth > 100) return out;
  out.push([node, pointer]);
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${escapeToken(key)}`;
    if (SUB.has(key)) (Array.isArray(value) ? value : [value]).forEach((v, i) => subschemas(v, Array.isArray(value) ? `${at}/${i}` : at, out, depth + 1));
    else if (MAPS.has(key) && isRecord(value)) for (const [k, v] of Object.entries(value)) subschemas(v, `${at}/${escapeToken(k)}`, out, depth + 1);
  }
  return out;
}

function resolvePointer(root: Item, fragment: string): boolean {
  let node: unknown = root;
  for (const raw of fragment.split('/').slice(1)) {
    let token: string;
    try { token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'); } catch { return false; }
    if (Array.isArray(node) && /^\d+$/.test(token)) node = node[Number(token)];
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return false;
  }
  return node !== undefined;
}

function schemaFindings(tool: Item, which: 'input' | 'output'): Finding[] {
  const schema = tool[`${which}Schema`];
  if (which === 'output' && schema === undefined) return [];
  const about: ItemSubject = { kind: 'tool', name: String(tool.name ?? '') };
  const whose = `The ${which} schema of tool ${q(about.name)}`;
  const found = (severity: Severity, rule: string, message: string, fix: string, source: FindingSource) => make(severity, about, rule, message, fix, source);
  if (!isRecord(schema) || schema.type !== 'object') {
    const what = schema === undefined ? 'is missing' : !isRecord(schema) ? 'is not a JSON object' : `has type ${JSON.stringify(schema.type ?? null)}, not "object"`;
    return [found('error', 'schema-not-object', `${whose} ${what}; the spec requires an object schema.`, 'Make it {"type": "object", "properties": {…}} (with "additionalProperties": false for a tool without arguments).', SOURCES.tool)];
  }
  const out: Finding[] = [];
  // A copy without the bad $refs, so that the compile below reports what else is wrong.
  const copy = structuredClone(schema);
  const nodes = subschemas(copy);
  const ids = new Set(nodes.map(([n]) => n.$id).filter((id): id is string => typeof id === 'string' && !id.startsWith('#')));
  const anchors = new Set(nodes.flatMap(([n]) => [n.$anchor, typeof n.$id === 'string' && n.$id.startsWith('#') ? n.$id.slice(1) : undefined]));
  // An embedded $id moves the base of the refs under it; Ajv resolves those, this check does not.
  const embedded = nodes.some(([n], i) => i > 0 && typeof n.$id === 'string' && !n.$id.startsWith('#'));
  for (const [node, pointer] of nodes) {
    const at = pointer || '/';
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      const [base, fragment = ''] = ref.split(/#(.*)/s);
      if (base !== '' && !ids.has(base)) {
        out.push(found('error', 'schema-ref-remote', `${whose} has a $ref to ${ref} at ${at}, outside the schema; Loupe does not fetch it and clients will not either.`, 'Copy the referenced schema into $defs and point to it with "#/$defs/…".', SOURCES.ref));
        delete node.$ref;
      } else if (!embedded && (base === '' || base === copy.$id) && !(fragment.startsWith('/') || fragment === '' ? resolvePointer(copy, fragment) : anchors.has(fragment))) {
        out.push(found('error', 'schema-ref-dangling', `${whose} has a $ref to ${ref} at ${at}, which points to nothing in the schema.`, 'Add the missing definition under $defs or correct the pointer.', SOURCES.ref));
        delete node.$ref;
      }
    }
    if (Array.isArray(node.required) && isRecord(node.properties)) {
      const properties = node.properties;
      const patterns = isRecord(node.patternProperties) ? Object.keys(node.patternProperties) : [];
      const matches = (name: string) => patterns.some((p) => { try { return new RegExp(p, 'u').test(name); } catch { return false; } });
      for (const name of node.required) {
        if (typeof name === 'string' && !Object.hasOwn(properties, name) && !matches(name)) {
          out.push(found('warning', 'schema-required-missing', `${whose} requires ${q(name)}${pointer ? ` at ${pointer}` : ''}, which is not among its properties.`, `Add ${q(name)} to properties or remove it from required.`, SOURCES.required));
        }
      }
    }
  }
  return [...out, ...dialectFindings(copy, whose, found)];
}

function dialectFindings(copy: Item, whose: string, found: (s: Severity, rule: string, m: string, f: string, src: FindingSource) => Finding): Finding[] {
  const declared = typeof copy.$schema === 'string' ? copy.$schema : undefined;
  const dialect = declared === undefined ? '2020-12' : META_IDS[declared.replace(/^https?:\/\//, '').replace(/#$/, '')];
  if (dialect === undefined) {
    return [found('warning', 'schema-dialect-unknown', `${whose} names $schema ${declared}, a dialect Loupe cannot check and most clients do not support.`, 'Use JSON Schema 2020-12 (leave $schema out) or draft-07.', SOURCES.jsonSchema)];
  }
  // $schema is left out: each instance is its dialect, and Ajv knows each meta-schema by one spelling only.
  delete copy.$schema;
  const out: Finding[] = [];
  const own = compileProblem(dialect, copy);
  const seven = dialect === 'draft-07' ? undefined : compileProblem('draft-07', copy);
  const sameInSeven = own !== undefined && seven?.text === own.text;
  if (own !== undefined) {
    const label = DIALECT_SOURCES[dialect].label;
    out.push(own.strictOnly
      ? found('warning', 'schema-not-strict', `${whose} is valid ${label} but fails Ajv strict mode${sameInSeven ? ' (as draft-07 too)' : ''}: ${own.text}.`, 'Change what strict mode names (declare the type a keyword needs, drop unknown keywords and formats); strict validators refuse the schema as it is.', DIALECT_SOURCES[dialect])
      : found('error', 'schema-invalid', `${whose} is not valid ${label}${sameInSeven ? ' (nor draft-07)' : ''}: ${own.text}.`, 'Correct the schema where the message points; clients that validate it will refuse the tool.', DIALECT_SOURCES[dialect]));
  }
  if (seven !== undefined && !sameInSeven) {
    out.push(found('warning', 'schema-draft-07', `${whose} ${own === undefined ? `compiles as ${DIALECT_SOURCES[dialect].label} but` : 'also'} fails as JSON Schema draft-07${seven.strictOnly ? ' under strict mode' : ''}: ${seven.text}.`, 'Avoid keywords draft-07 lacks (prefixItems, dependentRequired, …) if the tool must work with clients that validate with draft-07.', DIALECT_SOURCES['draft-07']));
  }
  return out;
}
