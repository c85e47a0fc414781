/**
 * Arguments made from a tool's `inputSchema` without a person (issue 10, `--smoke`): one argument
 * object that should be valid, a few that must not be, and the defaults of an elicitation's
 * `requestedSchema` (`--elicit accept-defaults`).
 *
 * Valid arguments prefer what the schema itself offers (`default`, `examples[0]`, `const`, the
 * first `enum` member), else the least value that satisfies the keywords: required properties
 * filled, optional ones only when they have a default. The result is checked with the same Ajv as
 * the tool form (tool-schema.ts); when the schema's own hints fail that check, a second pass uses
 * no `default`/`examples`, and when that fails too the reason is said, never hidden.
 * No generator library: what is on npm (json-schema-faker and the like) makes random values, and a
 * smoke test must make the same call every run.
 *
 * Schemas are server data: a `$ref` cycle, a schema nested 10,000 deep or one that would expand
 * into millions of values ends in a reason (MAX_DEPTH, MAX_VALUES), never in a throw.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 */
import { resolvePointer } from './form.ts';
import { count, fail, MAX_LENGTH, numberFor, ok, stringFor, type Gen, type Obj } from './samples.ts';
import { checkInputSchema, validateArguments, type SchemaCheck } from './tool-schema.ts';


export const MAX_DEPTH = 64;
/** Values made in one synthesis (a schema of references can describe an exponentially large value). */
export const MAX_VALUES = 10_000;
const MAX_REF_HOPS = 32;

export type Synthesis = { ok: true; args: Obj } | { ok: false; reason: string; args?: Obj };

export type NegativeKind = 'missing-required' | 'wrong-type' | 'empty';
export interface NegativeCase {
  kind: NegativeKind;
  /** What is wrong, in words ("without required \"path\""). */
  label: string;
  args: Obj;
}

interface Context {
  root: unknown;
  /** Use `default` and `examples` (the first pass). */
  hints: boolean;
  budget: number;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: Obj, key: string): boolean => Object.hasOwn(o, key);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const pointer = (path: string, key: string | number): string => `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Sets an own property, also for a key like "__proto__" (plain assignment would change the prototype). */
function setOwn(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `allOf` members and `$ref` targets folded into one schema: the first word on a keyword wins, bounds tighten, `properties` and `required` combine. */
function merge(a: Obj, b: Obj): Obj {
  const out: Obj = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (!has(out, key)) setOwn(out, key, value);
    else if (key === 'properties' && isObj(mine) && isObj(value)) {
      const props: Obj = { ...mine };
      for (const [name, sub] of Object.entries(value)) setOwn(props, name, has(props, name) ? { allOf: [props[name], sub] } : sub);
      out.properties = props;
    } else if (key === 'required') out.required = [...new Set([...strings(mine), ...strings(value)])];
    else if (/^(minimum|exclusiveMinimum|minLength|minItems|minProperties)$/.test(key) && typeof mine === 'number' && typeof value === 'number') out[key] = Math.max(mine, value);
    else if (/^(maximum|exclusiveMaximum|maxLength|maxItems|maxProperties)$/.test(key) && typeof mine === 'number' && typeof value === 'number') out[key] = Math.min(mine, value);
    else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(mine) && Array.isArray(value)) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { [key]: value }];
  }
  return out;
}

/** A subschema with its `$ref`s followed and its `allOf` folded in; boolean schemas stay booleans. */
function resolve(node: unknown, ctx: Context, depth: number): { schema: Obj | boolean } | { reason: string } {
  let current: unknown = node;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string'; hops++) {
    if (hops >= MAX_REF_HOPS) return { reason: `its $ref "${current.$ref}" leads round in a circle` };
    const { $ref: ref, ...siblings } = current as Obj & { $ref: string };
    const target = resolvePointer(ctx.root, ref);
    // An `$anchor` or `$id` reference Loupe cannot follow: the siblings alone, and Ajv has the last word.
    if (target === undefined || target === true) current = siblings;
    else if (target === false) return { reason: `its $ref "${ref}" is the schema false: no value is accepted` };
    else current = isObj(target) ? merge(siblings, target) : siblings;
  }
  if (typeof current === 'boolean') return { schema: current };
  if (!isObj(current)) return { schema: true };
  if (!Array.isArray(current.allOf)) return { schema: current };
  const { allOf, ...rest } = current as Obj & { allOf: unknown[] };
  let merged: Obj = rest;
  for (const member of allOf) {
    if (--ctx.budget < 0 || depth > MAX_DEPTH) return { reason: 'its allOf is too large or too deep' };
    const part = resolve(member, ctx, depth + 1);
    if ('reason' in part) return part;
    if (part.schema === false) return { reason: 'a member of its allOf is the schema false' };
    if (part.schema !== true) merged = merge(merged, part.schema);
  }
  return Array.isArray(merged.allOf) ? resolve(merged, ctx, depth + 1) : { schema: merged };
}

/** The JSON type a schema asks for (the first non-null one of a list), or one its keywords imply. */
function typeOf(s: Obj): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return strings(s.type).find((t) => t !== 'null') ?? (s.type.includes('null') ? 'null' : undefined);
  if ('properties' in s || 'required' in s || 'additionalProperties' in s || 'minProperties' in s) return 'object';
  if ('items' in s || 'prefixItems' in s || 'minItems' in s || 'contains' in s) return 'array';
  if ('minLength' in s || 'maxLength' in s || 'pattern' in s || 'format' in s) return 'string';
  if ('minimum' in s || 'maximum' in s || 'exclusiveMinimum' in s || 'exclusiveMaximum' in s || 'multipleOf' in s) return 'number';
  return undefined;
}

function valueFor(node: unknown, ctx: Context, depth: number, path: string): Gen {
  const at = path || '(arguments)';
  if (depth > MAX_DEPTH) return fail(`${at} is nested more than ${MAX_DEPTH} levels deep`);
  if (--ctx.budget < 0) return fail(`the arguments would need more than ${MAX_VALUES} values`);
  const resolved = resolve(node, ctx, depth);
  if ('reason' in resolved) return fail(`${at}: ${resolved.reason}`);
  const s = resolved.schema;
  if (s === true) return ok(null);
  if (s === false) return fail(`${at}: the schema is false, no value is accepted`);
  if (ctx.hints && has(s, 'default')) return ok(s.default);
  if (ctx.hints && Array.isArray(s.examples) && s.examples.length > 0) return ok(s.examples[0]);
  if (has(s, 'const')) return ok(s.const);
  if (Array.isArray(s.enum)) return s.enum.length > 0 ? ok(s.enum[0]) : fail(`${at}: its enum is empty`);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (!Array.isArray(options)) continue;
    const { [key]: _options, ...rest } = s;
    let first: Gen | undefined;
    for (const option of options) {
      const made = valueFor(isObj(option) ? merge(rest, option) : option, ctx, depth + 1, path);
      if (made.ok) return made;
      first ??= made;
    }
    return first ?? fail(`${at}: its ${key} has no options`);
  }
  switch (typeOf(s)) {
    case 'object':
      return objectFor(s, ctx, depth, path);
    case 'array':
      return arrayFor(s, ctx, depth, path);
    case 'string':
      return stringFor(s, at);
    case 'number':
      return numberFor(s, false, at);
    case 'integer':
      return numberFor(s, true, at);
    case 'boolean':
      return ok(false);
    default:
      return ok(null);
  }
}

function objectFor(s: Obj, ctx: Context, depth: number, path: string): Gen {
  const props = isObj(s.properties) ? s.properties : {};
  const extra = isObj(s.additionalProperties) || typeof s.additionalProperties === 'boolean' ? s.additionalProperties : true;
  const out: Obj = {};
  const add = (name: string): Gen => {
    const made = valueFor(has(props, name) ? props[name] : extra, ctx, depth + 1, pointer(path, name));
    if (made.ok) setOwn(out, name, made.value);
    return made;
  };
  // A Set keeps the order and the membership tests cheap (a hostile schema may require 100,000 names).
  const wanted = new Set(strings(s.required));
  if (ctx.hints) {
    for (const [name, sub] of Object.entries(props)) {
      const r = resolve(sub, ctx, depth + 1);
      if ('schema' in r && isObj(r.schema) && has(r.schema, 'default')) wanted.add(name);
    }
  }
  // dependentRequired: a property that is there brings the ones it depends on (a Set iterates what is added meanwhile).
  const dependent = isObj(s.dependentRequired) ? s.dependentRequired : {};
  for (const name of wanted) for (const dep of strings(has(dependent, name) ? dependent[name] : undefined)) wanted.add(dep);
  for (const name of wanted) {
    const made = add(name);
    if (!made.ok) return made;
  }
  const least = count(s.minProperties) ?? 0;
  for (const name of Object.keys(props)) {
    if (Object.keys(out).length >= least) break;
    if (!has(out, name)) add(name);
  }
  if (Object.keys(out).length < least) return fail(`${path || '(arguments)'} needs ${least} properties and Loupe could not make that many`);
  return ok(out);
}

function arrayFor(s: Obj, ctx: Context, depth: number, path: string): Gen {
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.prefixItems) ? s.items : Array.isArray(s.items) ? s.additionalItems : s.items;
  const contains = isObj(s.contains) ? s.contains : undefined;
  const length = Math.max(count(s.minItems) ?? 0, contains ? 1 : 0);
  if (length > MAX_LENGTH) return fail(`${path || '(arguments)'} needs at least ${length} items, more than Loupe makes`);
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) {
    let item = i < tuple.length ? tuple[i] : (rest ?? true);
    if (i === 0 && contains) item = isObj(item) ? { allOf: [item, contains] } : contains;
    const made = valueFor(item, ctx, depth + 1, pointer(path, i));
    if (!made.ok) return made;
    out.push(made.value);
  }
  return ok(out);
}

function safeCheck(inputSchema: unknown): SchemaCheck {
  try {
    return checkInputSchema(inputSchema);
  } catch (error) {
    // checkInputSchema walks the schema recursively: a schema thousands of levels deep overflows it.
    return { ok: false, reason: error instanceof RangeError ? 'it is nested too deeply to check' : String(error) };
  }
}

/** One argument object for a tool, checked against its schema; `ok: false` says why none could be made. */
export function synthArguments(inputSchema: unknown, check: SchemaCheck = safeCheck(inputSchema)): Synthesis {
  if (!check.ok) return { ok: false, reason: `Its inputSchema cannot be used: ${check.reason}.` };
  let failure: Synthesis | undefined;
  for (const hints of [true, false]) {
    const made = valueFor(check.schema, { root: check.schema, hints, budget: MAX_VALUES }, 0, '');
    if (!made.ok) {
      failure ??= { ok: false, reason: `Loupe could not make arguments: ${made.reason}.` };
      continue;
    }
    if (!isObj(made.value)) {
      failure ??= { ok: false, reason: 'Loupe could not make arguments: the schema leads to a value that is not an object.' };
      continue;
    }
    const issues = validateArguments(check, made.value);
    if (issues.length === 0) return { ok: true, args: made.value };
    failure ??= { ok: false, reason: `The arguments Loupe made are not valid: ${issues.slice(0, 3).join('; ')}.`, args: made.value };
  }
  return failure as Synthesis;
}

const WRONG_VALUES: { type: string; value: unknown }[] = [
  { type: 'integer', value: 12345 },
  { type: 'string', value: 'not the right type' },
  { type: 'boolean', value: true },
  { type: 'object', value: {} },
  { type: 'array', value: [] },
  { type: 'null', value: null },
];

/**
 * Arguments that must be refused: the first required property left out, the first property with a
 * value of a type it does not accept, and `{}` when anything is required. Each is checked to be
 * invalid against the schema (one that happens to be valid is not a negative case and is dropped).
 */
export function negativeCases(check: SchemaCheck, valid: Obj): NegativeCase[] {
  if (!check.ok) return [];
  const ctx: Context = { root: check.schema, hints: false, budget: MAX_VALUES };
  const top = resolve(check.schema, ctx, 0);
  if (!('schema' in top) || !isObj(top.schema)) return [];
  const props = isObj(top.schema.properties) ? top.schema.properties : {};
  const required = strings(top.schema.required);
  const cases: NegativeCase[] = [];
  if (required.length > 0) {
    const args = { ...valid };
    delete args[required[0]];
    cases.push({ kind: 'missing-required', label: `without required "${required[0]}"`, args });
  }
  const first = Object.keys(props)[0];
  const sub = first === undefined ? undefined : resolve(props[first], ctx, 1);
  const accepted = sub && 'schema' in sub && isObj(sub.schema) ? [sub.schema.type].flat().filter((t) => typeof t === 'string') : [];
  if (first !== undefined && accepted.length > 0) {
    const number = accepted.includes('number') || accepted.includes('integer');
    const wrong = WRONG_VALUES.find((w) => !accepted.includes(w.type) && !(number && w.type === 'integer'));
    if (wrong) {
      const args = { ...valid };
      setOwn(args, first, wrong.value);
      cases.push({ kind: 'wrong-type', label: `"${first}" as ${wrong.type} instead of ${accepted.join(' or ')}`, args });
    }
  }
  if (required.length > 0) cases.push({ kind: 'empty', label: 'no arguments ({})', args: {} });
  const seen = new Set<string>();
  return cases.filter((c) => {
    const text = JSON.stringify(c.args);
    if (seen.has(text) || validateArguments(check, c.args).length === 0) return false;
    seen.add(text);
    return true;
  });
}

/**
 * What an elicitation's `requestedSchema` (a flat object of primitives) offers by itself: every
 * `default`, and for a required property without one its `const`, first `enum` member or first
 * titled option (`oneOf`/`anyOf` of `const`s). Nothing is made up: a required property the schema
 * gives no value for is left out, and the server says what it makes of that.
 * https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
export function defaultsFor(schema: unknown): Obj {
  const out: Obj = {};
  if (!isObj(schema) || !isObj(schema.properties)) return out;
  const required = new Set(strings(schema.required));
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (!isObj(prop)) continue;
    if (has(prop, 'default')) setOwn(out, name, prop.default);
    else if (!required.has(name)) continue;
    else if (has(prop, 'const')) setOwn(out, name, prop.const);
    else if (Array.isArray(prop.enum) && prop.enum.length > 0) setOwn(out, name, prop.enum[0]);
    else {
      const options = Array.isArray(prop.oneOf) ? prop.oneOf : Array.isArray(prop.anyOf) ? prop.anyOf : [];
      const titled = options.find((o): o is Obj => isObj(o) && has(o, 'const'));
      if (titled) setOwn(out, name, titled.const);
    }
  }
  return out;
}
