/**
 * Rewrites a tool's input schema into what one LLM provider accepts (issue 14), in one walk that
 * records both sides: every rule of provider-rules.ts the schema breaks (the doctor's findings) and
 * every change made to it, in words (the doctor's "cleaned schema" and the export's notes). One
 * walk for both keeps them from disagreeing: each broken rule found here has the change that mends
 * it. The rules no change can mend (size limits, parameter names) are checked on the result, in
 * doctor-providers.ts.
 *
 * Hand-written rather than a library: the rewrites are provider rules (which keyword goes, what
 * takes its place), not JSON Schema semantics, and Ajv has no schema-to-schema transforms. The
 * input is a server's schema, never trusted: anything that is not a plain object is left as it is,
 * recursion through `$ref` is cut, and the walk never follows a remote reference.
 */
import { PROFILES, type Provider, type ProviderProfile } from './provider-rules.ts';

export type SchemaRule = 'root-type' | 'root-combinator' | 'keyword' | 'format' | 'additional-properties' | 'required' | 'ref'
  | 'recursive-ref' | 'type-list' | 'enum-strings' | 'limit' | 'parameter-name';

export interface Violation {
  rule: SchemaRule;
  /** Where in the schema, in words (`the root`, `location.city`, `tags[]`). */
  where: string;
  /** What exactly: the keyword, the format, the property names, the figure. */
  detail: string;
}

export interface SchemaAnalysis { schema: unknown; changes: string[]; violations: Violation[] }

type Obj = Record<string, unknown>;

interface Walk {
  profile: ProviderProfile;
  /** The schema as the server sent it, for resolving local references. */
  original: unknown;
  changes: string[];
  violations: Violation[];
  /** The references being inlined right now: meeting one again is recursion. */
  inlining: string[];
  /** Subschemas left to visit: inlining can multiply a schema, and a server's schema is never trusted. */
  budget: number;
}

/** At most this many subschemas are visited, and this deep: past them the schema is left as it is. */
const NODE_BUDGET = 20_000;
const MAX_DEPTH = 128;

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;
/** Constraints on values that, dropped, are still worth saying to the model in the description. */
const DESCRIBED = new Set(['default', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties']);
/** Branches made of these only constrain which properties are present ("give a or b"). */
const CONSTRAINT_ONLY = new Set(['required', 'title', 'description']);

export function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A schema path in the words a user reads: `location.city`, `tags[]`, `$defs.step`, or `the root`. */
export function where(path: readonly string[]): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if ((seg === 'properties' || seg === '$defs' || seg === 'definitions') && i + 1 < path.length) {
      out += `${seg === 'properties' ? '' : seg}.${path[++i]}`;
    } else if (seg === 'items') out += '[]';
    else if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += `.${seg}`;
  }
  return out === '' ? 'the root' : out.replace(/^\./, '');
}

function change(walk: Walk, text: string): void {
  if (!walk.changes.includes(text)) walk.changes.push(text);
}

function violate(walk: Walk, rule: SchemaRule, path: readonly string[], detail: string): void {
  walk.violations.push({ rule, where: where(path), detail });
}

function describeAlso(schema: Obj, note: string): void {
  schema.description = typeof schema.description === 'string' && schema.description !== '' ? `${schema.description} (${note})` : `(${note})`;
}

export function isObjectSchema(s: Obj): boolean {
  return s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || (s.type === undefined && isObj(s.properties));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A local reference (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the schema), or undefined. */
function resolveLocal(original: unknown, ref: string): unknown {
  if (ref === '#') return original;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = original;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(at) || !(key in at)) return undefined;
    at = at[key];
  }
  return at;
}

/** The schema accepting null as well: the documented way to make a strict field optional. */
function orNull(schema: unknown): unknown {
  if (!isObj(schema)) return schema;
  const t = schema.type;
  if (schema.enum === undefined && schema.const === undefined) {
    if (typeof t === 'string') return t === 'null' ? schema : { ...schema, type: [t, 'null'] };
    if (Array.isArray(t)) return t.includes('null') ? schema : { ...schema, type: [...t, 'null'] };
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => isObj(b) && b.type === 'null')) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

/** `{...a, ...b}` for schemas: properties and required lists are joined, other keywords: first wins. */
function mergeSchemas(into: Obj, from: Obj): void {
  for (const [key, value] of Object.entries(from)) {
    if (key === 'properties' && isObj(value)) {
      const existing = isObj(into.properties) ? into.properties : {};
      into.properties = { ...existing, ...Object.fromEntries(Object.entries(value).filter(([k]) => !(k in existing))) };
    } else if (key === 'required') into.required = [...new Set([...strings(into.required), ...strings(value)])];
    else if (!(key in into)) into[key] = value;
  }
}

/** An object holding `properties`, made by Loupe (so it meets the provider's object rules from the start). */
function wrapper(walk: Walk, properties: Obj, required: string[]): Obj {
  return { type: 'object', properties, required, ...(walk.profile.strictObjects ? { additionalProperties: false } : {}) };
}

function deref(walk: Walk, branch: unknown): unknown {
  return isObj(branch) && typeof branch.$ref === 'string' ? (resolveLocal(walk.original, branch.$ref) ?? branch) : branch;
}

/** Takes a combinator off the top of the schema, keeping as much of its meaning as one object can. */
function resolveRootCombinator(walk: Walk, s: Obj, keyword: string): Obj {
  const branches = (Array.isArray(s[keyword]) ? (s[keyword] as unknown[]) : []).map((b) => deref(walk, b));
  delete s[keyword];
  const label = walk.profile.label;
  if (branches.every((b) => isObj(b) && Object.keys(b).every((k) => CONSTRAINT_ONLY.has(k)))) {
    const lists = (branches as Obj[]).map((b) => strings(b.required));
    if (keyword === 'allOf') {
      s.required = [...new Set([...strings(s.required), ...lists.flat()])];
      change(walk, `folded the required lists of the top-level allOf into "required" (same meaning)`);
      return s;
    }
    const options = lists.map((l) => l.join(' and ')).join('; ');
    describeAlso(s, `give ${keyword === 'oneOf' ? 'exactly one' : 'at least one'} of: ${options}`);
    change(walk, `dropped the top-level ${keyword} (${options}) and said it in the description instead: ${label} will not enforce it, the server still does`);
    return s;
  }
  if (branches.every((b) => isObj(b) && isObjectSchema(b))) {
    const lists = (branches as Obj[]).map((b) => strings(b.required));
    const shared = keyword === 'allOf' ? [...new Set(lists.flat())] : lists.reduce((a, l) => a.filter((x) => l.includes(x)));
    for (const b of branches as Obj[]) mergeSchemas(s, { ...b, required: [] });
    s.type = 'object';
    s.required = [...new Set([...strings(s.required), ...shared])];
    const names = Object.keys(isObj(s.properties) ? s.properties : {}).join(', ');
    const mixed = keyword === 'allOf' ? '' : ': the model may mix them, the server still checks';
    change(walk, `merged the ${branches.length} ${keyword === 'allOf' ? 'parts' : 'alternatives'} of the top-level ${keyword} into one object (properties ${names})${mixed}`);
    return s;
  }
  change(walk, `wrapped the top-level ${keyword} in an object with one property "input": the model's arguments then arrive as {"input": …}, unwrap them before calling the tool`);
  const { type: _object, ...inner } = s;
  return wrapper(walk, { input: { ...inner, [keyword]: branches } }, ['input']);
}

/** The top of the schema: always one `type: "object"` with no combinator the provider refuses there. */
function topLevel(walk: Walk, schema: unknown): Obj {
  const p = walk.profile;
  if (!isObj(schema)) {
    violate(walk, 'root-type', [], schema === undefined ? 'missing' : `a ${Array.isArray(schema) ? 'list' : typeof schema}`);
    change(walk, 'used an empty object schema in place of the missing one');
    return wrapper(walk, {}, []);
  }
  let s: Obj = { ...schema };
  if (typeof s.$ref === 'string') {
    // A generator's `{"$ref": "#/definitions/Args", "definitions": …}`: the same schema, one level up.
    const { $ref: ref, ...siblings } = s;
    const target = resolveLocal(schema, ref as string);
    if (isObj(target)) {
      s = { ...target, ...siblings };
      change(walk, `inlined the top-level reference ${ref as string}`);
    }
  }
  const refusedHere = COMBINATORS.filter((k) => p.rootCombinators?.keywords.includes(k) || (p.keywords && !p.keywords.accepted.includes(k)));
  for (const keyword of refusedHere) {
    if (!(keyword in s)) continue;
    violate(walk, p.rootCombinators?.keywords.includes(keyword) ? 'root-combinator' : 'keyword', [], keyword);
    s = resolveRootCombinator(walk, s, keyword);
  }
  if (s.type !== 'object') {
    if (s.type === undefined || (Array.isArray(s.type) && s.type.includes('object'))) {
      violate(walk, 'root-type', [], s.type === undefined ? 'no "type"' : `type ${JSON.stringify(s.type)}`);
      s.type = 'object';
      change(walk, 'set "type": "object" at the top');
    } else {
      violate(walk, 'root-type', [], `type ${JSON.stringify(s.type)}`);
      change(walk, `wrapped the ${JSON.stringify(s.type)} schema in an object with one property "input": the model's arguments then arrive as {"input": …}, unwrap them before calling the tool`);
      s = wrapper(walk, { input: s }, ['input']);
    }
  }
  return s;
}

function inlineRef(walk: Walk, s: Obj, path: string[]): unknown {
  const ref = s.$ref as string;
  const { $ref: _ref, ...siblings } = s;
  violate(walk, 'ref', path, ref);
  const target = resolveLocal(walk.original, ref);
  if (!isObj(target)) {
    change(walk, `replaced the reference ${ref} at ${where(path)}, which Loupe cannot resolve (remote references are never fetched), with a plain object schema`);
    return cleanNode(walk, { type: 'object', ...siblings }, path);
  }
  if (walk.inlining.includes(ref)) {
    violate(walk, 'recursive-ref', path, ref);
    change(walk, `cut the recursive reference ${ref} at ${where(path)}: ${walk.profile.label} cannot express recursion, so the model sees no structure below it`);
    return cleanNode(walk, { type: typeof target.type === 'string' ? target.type : 'object', ...siblings }, path);
  }
  if (walk.budget <= 0) {
    change(walk, `stopped inlining at ${where(path)}: the inlined schema grows past ${NODE_BUDGET} parts, so ${ref} is left out there`);
    return { type: typeof target.type === 'string' ? target.type : 'object', ...siblings };
  }
  walk.inlining.push(ref);
  const inlined = cleanNode(walk, { ...target, ...siblings }, path);
  walk.inlining.pop();
  change(walk, `inlined ${ref}`);
  return inlined;
}

function singleType(walk: Walk, s: Obj, path: string[]): void {
  if (!Array.isArray(s.type)) return;
  violate(walk, 'type-list', path, JSON.stringify(s.type));
  const types = s.type.filter((t) => t !== 'null');
  const nullable = types.length < s.type.length;
  if (types.length <= 1) s.type = types[0] ?? 'null';
  else {
    delete s.type;
    s.anyOf = types.map((t) => ({ type: t }));
  }
  if (nullable && types.length > 0) s.nullable = true;
  change(walk, `turned the type list ${JSON.stringify([...types, ...(nullable ? ['null'] : [])])} at ${where(path)} into ${types.length > 1 ? 'anyOf' : 'one type'}${nullable ? ' with "nullable": true' : ''}`);
}

function nestedCombinators(walk: Walk, s: Obj, path: string[]): void {
  const accepted = walk.profile.keywords?.accepted;
  if (!accepted) return;
  if ('oneOf' in s && !accepted.includes('oneOf')) {
    violate(walk, 'keyword', path, 'oneOf');
    if (Array.isArray(s.oneOf) && !('anyOf' in s)) {
      s.anyOf = s.oneOf;
      change(walk, `turned oneOf at ${where(path)} into anyOf: the model may now match more than one alternative`);
    } else change(walk, `dropped oneOf at ${where(path)}`);
    delete s.oneOf;
  }
  if ('allOf' in s && !accepted.includes('allOf')) {
    violate(walk, 'keyword', path, 'allOf');
    const parts = Array.isArray(s.allOf) ? s.allOf.map((b) => deref(walk, b)) : [];
    delete s.allOf;
    if (parts.every(isObj)) {
      for (const part of parts as Obj[]) mergeSchemas(s, part);
      change(walk, `merged the allOf at ${where(path)} into one schema`);
    } else change(walk, `dropped the allOf at ${where(path)}`);
  }
}

/** Keywords outside a closed set go; a scalar one is kept in the description so the model still reads it. */
function closedKeywords(walk: Walk, s: Obj, path: string[]): void {
  const set = walk.profile.keywords;
  if (!set) return;
  for (const key of Object.keys(s)) {
    if (set.accepted.includes(key) || set.annotations.includes(key)) continue;
    if (walk.profile.noRefs && (key === '$defs' || key === 'definitions')) continue;
    const value = s[key];
    delete s[key];
    violate(walk, 'keyword', path, key);
    if (key === 'const' && typeof value === 'string' && set.accepted.includes('enum') && !('enum' in s)) {
      s.enum = [value];
      change(walk, `turned const at ${where(path)} into a one-value enum`);
    } else if (DESCRIBED.has(key) && ['string', 'number', 'boolean'].includes(typeof value)) {
      describeAlso(s, `${key}: ${JSON.stringify(value)}`);
      change(walk, `dropped ${key} at ${where(path)} (kept in its description)`);
    } else change(walk, `dropped ${key} at ${where(path)}`);
  }
}

function formatsAndEnums(walk: Walk, s: Obj, path: string[]): void {
  const { formats, stringEnums } = walk.profile;
  if (formats && typeof s.format === 'string' && !formats.accepted.includes(s.format)) {
    violate(walk, 'format', path, s.format);
    describeAlso(s, `format: ${s.format}`);
    change(walk, `dropped format "${s.format}" at ${where(path)} (kept in its description)`);
    delete s.format;
  }
  if (stringEnums && Array.isArray(s.enum) && s.enum.some((v) => typeof v !== 'string')) {
    violate(walk, 'enum-strings', path, JSON.stringify(s.enum));
    describeAlso(s, `one of: ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`);
    change(walk, `dropped the non-string enum at ${where(path)} (its values are in the description)`);
    delete s.enum;
  }
}

function strictObject(walk: Walk, s: Obj, path: string[]): void {
  if (!walk.profile.strictObjects || !isObjectSchema(s)) return;
  if (s.additionalProperties !== false) {
    violate(walk, 'additional-properties', path, JSON.stringify(s.additionalProperties ?? 'missing'));
    const opened = s.additionalProperties === undefined ? '' : ', which accepted other keys: the model can no longer send a key that is not listed';
    change(walk, `set additionalProperties: false on ${where(path)}${opened}`);
    s.additionalProperties = false;
  }
  const props = isObj(s.properties) ? s.properties : {};
  s.properties = props;
  const required = strings(s.required);
  const missing = Object.keys(props).filter((k) => !required.includes(k));
  if (missing.length === 0) return;
  violate(walk, 'required', path, missing.join(', '));
  for (const key of missing) props[key] = orNull(props[key]);
  s.required = [...required, ...missing];
  change(walk, `made ${missing.join(', ')} at ${where(path)} required and nullable: the model sends null for a value it leaves out, so drop null arguments before calling the tool`);
}

function children(walk: Walk, s: Obj, path: string[]): void {
  const each = (key: string) => {
    const value = s[key];
    // Definitions a provider cannot take are inlined where they are used, and not walked on their own.
    if (walk.profile.noRefs && (key === '$defs' || key === 'definitions')) return;
    if (isObj(value) && ['properties', 'patternProperties', '$defs', 'definitions'].includes(key)) {
      s[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanNode(walk, v, [...path, key, k])]));
    } else if (Array.isArray(value) && ['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key)) {
      s[key] = value.map((v, i) => cleanNode(walk, v, [...path, key, String(i)]));
    } else if (isObj(value) && ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames'].includes(key)) {
      s[key] = cleanNode(walk, value, [...path, key]);
    }
  };
  if (Array.isArray(s.items)) {
    // A draft-07 tuple. Providers with a closed keyword set take one item schema.
    if (walk.profile.keywords) {
      violate(walk, 'keyword', path, 'items (a list)');
      s.items = { anyOf: s.items };
      change(walk, `turned the tuple "items" at ${where(path)} into one item schema (anyOf of the positions)`);
    } else s.items = s.items.map((v, i) => cleanNode(walk, v, [...path, 'items', String(i)]));
  }
  for (const key of Object.keys(s)) each(key);
}

function cleanNode(walk: Walk, node: unknown, path: string[]): unknown {
  if (!isObj(node)) return node;
  walk.budget--;
  if (path.length > MAX_DEPTH) {
    change(walk, `left the schema below ${where(path)} as it is: it is nested more than ${MAX_DEPTH} levels deep`);
    return node;
  }
  const s: Obj = { ...node };
  if ('$schema' in s) {
    if (walk.profile.keywords && !walk.profile.keywords.annotations.includes('$schema')) violate(walk, 'keyword', path, '$schema');
    delete s.$schema;
    change(walk, 'dropped "$schema": the provider reads the schema without a dialect');
  }
  if (typeof s.$ref === 'string' && walk.profile.noRefs) return inlineRef(walk, s, path);
  if (walk.profile.singleType) singleType(walk, s, path);
  nestedCombinators(walk, s, path);
  closedKeywords(walk, s, path);
  formatsAndEnums(walk, s, path);
  children(walk, s, path);
  strictObject(walk, s, path);
  return s;
}

/**
 * What Loupe would send `provider` instead of `schema`, what it changed, and which rules the
 * original breaks that a change can mend (doctor-providers.ts adds the size limits, which none can).
 */
export function analyzeSchema(provider: Provider, schema: unknown): SchemaAnalysis {
  const walk: Walk = { profile: PROFILES[provider], original: schema, changes: [], violations: [], inlining: [], budget: NODE_BUDGET };
  const top = cleanNode(walk, topLevel(walk, schema), []) as Obj;
  if (walk.profile.noRefs) {
    for (const key of ['$defs', 'definitions'] as const) {
      if (!(key in top)) continue;
      delete top[key];
      if (!walk.violations.some((v) => v.rule === 'ref')) violate(walk, 'ref', [], key);
      change(walk, `dropped ${key}: every reference to it is inlined`);
    }
  }
  return { schema: top, changes: walk.changes, violations: walk.violations };
}
