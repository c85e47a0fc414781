/**
 * `elicitation/create` params → what the UI needs to ask the user: a form schema for rjsf (form
 * mode) or the facts about a URL (URL mode); and the user's answer → an `ElicitResult`.
 * https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 *
 * The server is untrusted: a schema outside the spec's restricted subset is still shown (with the
 * problem named), a schema that cannot be compiled or a URL that cannot be parsed is reported.
 */
import type { JsonSchemaObject as RJSFSchema } from '../schema/validation.ts';

/** rjsf's uiSchema shape, without depending on rjsf in lib/. */
export type UiSchema = Record<string, unknown>;

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export interface UrlFacts {
  /** `scheme://host:port`, the part the user must check before opening. */
  origin: string;
  scheme: string;
  host: string;
  /** Only http(s) URLs may be opened from Loupe. */
  openable: boolean;
  /** Reasons to look twice: not https, credentials in the URL, an IDN (punycode) host … */
  warnings: string[];
}

export type ElicitationView =
  | { mode: 'form'; message: string; schema: RJSFSchema; uiSchema: UiSchema; problems: string[]; task?: Obj }
  | { mode: 'url'; message: string; url: string; elicitationId: string; facts?: UrlFacts; problems: string[]; task?: Obj }
  | { mode: 'invalid'; message: string; problems: string[] };

/** The spec's primitive types for a requested property (no nesting). */
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

function isEnumList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0;
}

function isConstOptions(value: unknown): value is Array<{ const: unknown; title?: unknown }> {
  return isEnumList(value) && value.every((v) => isObject(v) && 'const' in v);
}

/** One requested property → an rjsf-ready property, its ui hints, and what is wrong with it. */
function convertProperty(name: string, raw: unknown): { schema: Obj; ui?: UiSchema; problems: string[] } {
  if (!isObject(raw)) return { schema: {}, problems: [`property "${name}" is not an object schema`] };
  const schema: Obj = { ...raw };
  const problems: string[] = [];
  const type = raw.type;
  if (type === 'array') {
    const items = isObject(raw.items) ? raw.items : undefined;
    const options = items && (isEnumList(items.enum) || isConstOptions(items.anyOf) || isConstOptions(items.oneOf));
    if (!options) problems.push(`property "${name}" is an array without enum items (the spec allows only multi-select enums)`);
    // rjsf shows a multi-select only for arrays of unique choices.
    schema.uniqueItems = true;
    return { schema, ui: options ? { 'ui:widget': 'checkboxes' } : undefined, problems };
  }
  if (typeof type !== 'string' || !PRIMITIVES.has(type)) {
    problems.push(`property "${name}" has type ${JSON.stringify(type) ?? 'missing'}, not one the spec allows (string, number, integer, boolean, or an enum array)`);
    return { schema, problems };
  }
  // Legacy titled enum: enum + enumNames → the standard titled form (oneOf of const/title).
  if (type === 'string' && isEnumList(raw.enum) && Array.isArray(raw.enumNames)) {
    const names = raw.enumNames;
    schema.oneOf = raw.enum.map((value, i) => ({ const: value, title: typeof names[i] === 'string' ? names[i] : String(value) }));
    delete schema.enum;
    delete schema.enumNames;
  }
  return { schema, problems };
}

/** `requestedSchema` → an object schema and uiSchema for rjsf, with the problems found. */
export function formSchema(requested: unknown): { schema: RJSFSchema; uiSchema: UiSchema; problems: string[] } | { error: string } {
  if (!isObject(requested)) return { error: 'requestedSchema is missing or not an object' };
  if (requested.type !== 'object') return { error: `requestedSchema.type is ${JSON.stringify(requested.type) ?? 'missing'}, not "object"` };
  const properties: Obj = {};
  const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  const problems: string[] = [];
  const rawProps = isObject(requested.properties) ? requested.properties : {};
  if (!isObject(requested.properties)) problems.push('requestedSchema.properties is missing or not an object');
  for (const [name, raw] of Object.entries(rawProps)) {
    const converted = convertProperty(name, raw);
    properties[name] = converted.schema;
    if (converted.ui) uiSchema[name] = converted.ui;
    problems.push(...converted.problems);
  }
  const schema = { ...requested, properties } as RJSFSchema;
  return { schema, uiSchema, problems };
}

/** What to show before the user opens a URL the server sent. */
export function urlFacts(url: string): UrlFacts | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const openable = scheme === 'http' || scheme === 'https';
  const warnings: string[] = [];
  if (!openable) warnings.push(`the scheme is ${scheme}:, not http(s): Loupe will not open it`);
  else if (scheme === 'http' && !['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) warnings.push('not https: the page is not encrypted');
  if (parsed.username !== '' || parsed.password !== '') warnings.push('the URL carries a user name or password before the host');
  if (parsed.hostname.split('.').some((label) => label.startsWith('xn--'))) warnings.push('the host is an internationalised name (punycode): check the spelling');
  const origin = openable ? parsed.origin : `${parsed.protocol}${parsed.host ? `//${parsed.host}` : ''}`;
  return { origin, scheme, host: parsed.host, openable, warnings };
}

function taskOf(params: Obj): Obj | undefined {
  return isObject(params.task) ? params.task : undefined;
}

/** `elicitation/create` params → the view of it (form or URL mode). */
export function parseElicitation(params: unknown): ElicitationView {
  if (!isObject(params)) return { mode: 'invalid', message: '', problems: ['params are missing or not an object'] };
  const message = typeof params.message === 'string' ? params.message : '';
  const problems = typeof params.message === 'string' ? [] : ['"message" is missing or not a string'];
  if (params.mode === 'url') {
    const url = typeof params.url === 'string' ? params.url : '';
    const elicitationId = typeof params.elicitationId === 'string' ? params.elicitationId : '';
    if (url === '') problems.push('"url" is missing or not a string');
    if (elicitationId === '') problems.push('"elicitationId" is missing or not a string');
    const facts = url === '' ? undefined : urlFacts(url);
    if (url !== '' && !facts) problems.push('"url" is not a valid absolute URL');
    return { mode: 'url', message, url, elicitationId, facts, problems, task: taskOf(params) };
  }
  if (params.mode !== undefined && params.mode !== 'form') {
    return { mode: 'invalid', message, problems: [...problems, `unknown mode ${JSON.stringify(params.mode)}`] };
  }
  const form = formSchema(params.requestedSchema);
  if ('error' in form) return { mode: 'invalid', message, problems: [...problems, form.error] };
  return { mode: 'form', message, schema: form.schema, uiSchema: form.uiSchema, problems: [...problems, ...form.problems], task: taskOf(params) };
}

export type ElicitAction = 'accept' | 'decline' | 'cancel';

/** The values of an accepted form: only the requested properties, without empty ones. */
export function elicitContent(formData: unknown, schema: RJSFSchema): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (!isObject(formData)) return content;
  const names = Object.keys(isObject(schema.properties) ? schema.properties : {});
  for (const name of names) {
    const value = formData[name];
    if (value !== undefined && value !== null) content[name] = value;
  }
  return content;
}

/** The `ElicitResult` for the user's choice; `content` only for an accepted form. */
export function elicitResult(action: ElicitAction, content?: Record<string, unknown>): Record<string, unknown> {
  return action === 'accept' && content !== undefined ? { action, content } : { action };
}
