/**
 * A tool's `inputSchema` → the two schemas the form needs: one to validate the arguments with, one
 * to draw the form from (rjsf).
 *
 * Valid but hard schemas must not cost the user the whole form: where one part cannot be drawn
 * (a tuple, several types at once, a `$ref` rjsf cannot follow …) only that part becomes a JSON
 * editor, marked with FALLBACK_KEY and the reason. A remote `$ref` is never fetched (an inspector
 * must not make requests on a server's say-so): it is replaced by an unconstrained schema in both,
 * and reported as not validated.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage
 */

/** The reason a part of the form schema is drawn as a JSON editor. */
export const FALLBACK_KEY = 'x-loupe-json';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = Record<string, unknown>;

export interface SchemaPart {
  /** JSON pointer of the part inside the input schema, `""` for the root. */
  path: string;
  reason: string;
}

export interface PreparedSchema {
  /** What the arguments are validated against: remote `$ref`s replaced by `{}`. */
  validation: Obj;
  /** What the form is drawn from: also every part rjsf cannot draw replaced by a JSON-editor marker. */
  form: Obj;
  /** The parts drawn as JSON editors. */
  fallbacks: SchemaPart[];
  /** The parts that are not validated before sending (remote references). */
  unchecked: SchemaPart[];
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keywords whose value is one subschema, a map of them, or a list of them (draft-07 and 2020-12). */
const ONE = ['items', 'additionalItems', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Where rjsf draws a value from the subschema (so a boolean schema there needs a JSON editor). */
const DRAWN = new Set(['properties', 'items', 'anyOf', 'oneOf', 'prefixItems', '$defs', 'definitions', 'additionalItems']);

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Rebuild a schema bottom-up; `visit` sees each subschema (with its pointer) after its children. */
function mapSchema(node: unknown, path: string, visit: (node: unknown, path: string, drawn: boolean) => unknown, drawn = true): unknown {
  if (!isObj(node)) return visit(node, path, drawn);
  const out: Obj = { ...node };
  for (const key of ONE) {
    if (isObj(node[key]) || typeof node[key] === 'boolean') out[key] = mapSchema(node[key], `${path}/${key}`, visit, DRAWN.has(key));
  }
  for (const key of MAP) {
    const value = node[key];
    if (!isObj(value)) continue;
    const mapped: Obj = {};
    for (const [name, sub] of Object.entries(value)) {
      const inner = `${path}/${key}/${escapePointer(name)}`;
      // defineProperty: `mapped[name] =` with a property named "__proto__" would set the prototype.
      Object.defineProperty(mapped, name, { value: isObj(sub) || typeof sub === 'boolean' ? mapSchema(sub, inner, visit, DRAWN.has(key)) : sub, enumerable: true, writable: true, configurable: true });
    }
    out[key] = mapped;
  }
  for (const key of LIST) {
    const value = node[key];
    if (Array.isArray(value)) out[key] = value.map((sub, i) => (isObj(sub) || typeof sub === 'boolean' ? mapSchema(sub, `${path}/${key}/${i}`, visit, DRAWN.has(key)) : sub));
  }
  return visit(out, path, drawn);
}

/** Every `$id` declared inside the schema (a `$ref` to one of them is local, though it looks remote). */
function declaredIds(schema: unknown): Set<string> {
  const ids = new Set<string>();
  mapSchema(schema, '', (node) => {
    if (isObj(node) && typeof node.$id === 'string') ids.add(node.$id.replace(/#$/, ''));
    return node;
  });
  return ids;
}

/** Follow a `#/a/b` pointer inside `root`; undefined when it leads nowhere. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObj(node)) node = node[key];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** How a `$ref` string relates to the schema it sits in. */
function refKind(ref: string, ids: Set<string>): 'pointer' | 'internal' | 'remote' {
  if (ref === '#' || ref.startsWith('#/')) return 'pointer';
  if (ref.startsWith('#')) return 'internal'; // a plain-name fragment: `$anchor`
  return ids.has(ref.split('#')[0]) ? 'internal' : 'remote';
}

function replaced(node: Obj, reason: string): Obj {
  const keep: Obj = { [FALLBACK_KEY]: reason };
  for (const key of ['title', 'description', 'default', 'examples']) if (key in node) keep[key] = node[key];
  return keep;
}

/** Why rjsf cannot draw this (already ref-checked) subschema, or undefined when it can. */
function whyNotDrawable(node: Obj, root: Obj, ids: Set<string>): string | undefined {
  if (typeof node.$ref === 'string' && refKind(node.$ref, ids) !== 'pointer') return `the form cannot follow $ref "${node.$ref}"`;
  if (typeof node.$ref === 'string' && resolvePointer(root, node.$ref) === undefined) return `$ref "${node.$ref}" points nowhere`;
  if (typeof node.$dynamicRef === 'string' || typeof node.$recursiveRef === 'string') return 'the form cannot follow a dynamic reference';
  const type = node.type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    if (types.length > 1) return `it accepts several types (${types.join(', ')})`;
    if (type.length === 0) return 'its "type" list is empty';
  } else if (typeof type === 'string' && !JSON_TYPES.has(type)) {
    return `unknown type "${type}"`;
  }
  const isArray = type === 'array' || (Array.isArray(type) && type.includes('array'));
  if (isArray && Array.isArray(node.prefixItems)) return 'it is a tuple (prefixItems)';
  if (isArray && node.items === undefined) return 'the array has no "items" schema';
  return undefined;
}

/** `oneOf: [{const, title}, …]` without a `type` (a titled enum): give it the type rjsf needs to draw a select. */
function typeTitledEnum(node: Obj): Obj {
  const options = node.oneOf ?? node.anyOf;
  if (node.type !== undefined || !Array.isArray(options) || options.length === 0) return node;
  if (!options.every((o) => isObj(o) && 'const' in o)) return node;
  const types = new Set(options.map((o) => jsonType((o as Obj).const)));
  return types.size === 1 ? { ...node, type: [...types][0] } : node;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `anyOf: [X, {type: "null"}]` (how Pydantic and zod write "optional"): draw X. */
function unwrapNullable(node: Obj): Obj {
  const options = node.anyOf ?? node.oneOf;
  if (!Array.isArray(options) || options.length !== 2 || node.type !== undefined) return node;
  const nonNull = options.filter((o) => !(isObj(o) && o.type === 'null' && Object.keys(o).length === 1));
  if (nonNull.length !== 1 || !isObj(nonNull[0])) return node;
  const { anyOf: _a, oneOf: _o, ...rest } = node;
  return { ...nonNull[0], ...rest };
}

/**
 * Prepare an input schema (already known to be an object) for validation and for the form.
 * Never throws; never fetches.
 */
export function prepareSchema(inputSchema: Obj): PreparedSchema {
  const ids = declaredIds(inputSchema);
  const unchecked: SchemaPart[] = [];
  const validation = mapSchema(inputSchema, '', (node, path) => {
    if (!isObj(node) || typeof node.$ref !== 'string' || refKind(node.$ref, ids) !== 'remote') return node;
    const reason = `remote $ref "${node.$ref}" is not fetched`;
    unchecked.push({ path, reason });
    return replaced(node, reason);
  }) as Obj;
  const fallbacks: SchemaPart[] = [];
  const form = mapSchema(validation, '', (node, path, drawn) => {
    if (typeof node === 'boolean') {
      if (!drawn) return node;
      const reason = node ? 'any JSON value is accepted' : 'the schema is `false`: no value is accepted';
      fallbacks.push({ path, reason });
      return { [FALLBACK_KEY]: reason };
    }
    if (!isObj(node)) return node;
    if (typeof node[FALLBACK_KEY] === 'string') {
      fallbacks.push({ path, reason: node[FALLBACK_KEY] });
      return node;
    }
    const why = whyNotDrawable(node, validation, ids);
    if (why === undefined) return typeTitledEnum(unwrapNullable(node));
    fallbacks.push({ path, reason: why });
    return replaced(node, why);
  }) as Obj;
  // A part inside a replaced part is not drawn at all: only the outer one is reported.
  const outer = fallbacks.filter((f) => !fallbacks.some((g) => g !== f && f.path.startsWith(`${g.path}/`)));
  return { validation, form, fallbacks: outer, unchecked };
}

/** The reason a form subschema is drawn as a JSON editor (any schema without a drawable type is). */
export function fallbackReason(schema: unknown): string {
  if (isObj(schema) && typeof schema[FALLBACK_KEY] === 'string') return schema[FALLBACK_KEY];
  return 'the schema does not say which type of value this is';
}

/** A value as the JSON editor shows it. */
export function toEditorText(value: unknown): string {
  return value === undefined ? '' : (JSON.stringify(value, null, 2) ?? '');
}

/** The JSON editor's text → a value; empty text is "no value". */
export function fromEditorText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
