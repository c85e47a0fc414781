/**
 * A small JSON Schema validator that needs no code generation.
 *
 * Ajv compiles schemas with `new Function`, which a strict Content-Security-Policy (no
 * 'unsafe-eval') forbids. Where that happens the tool form falls back to this interpreter. It
 * covers the keywords tool schemas use (types, enums, required, properties, items, bounds,
 * combinators, local $ref); `format` and remote refs are not checked. The server validates anyway:
 * this is a typing aid, not a gate. Errors have Ajv's shape so rjsf can place them on fields.
 */

export interface LiteError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

type Schema = Record<string, unknown>;
const MAX_DEPTH = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Schema)[k], (b as Schema)[k]));
}

function typeMatches(type: string, data: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof data === 'number' && Number.isInteger(data);
    case 'number':
      return typeof data === 'number' && Number.isFinite(data);
    case 'array':
      return Array.isArray(data);
    case 'object':
      return isObject(data);
    case 'null':
      return data === null;
    default:
      return typeof data === type;
  }
}

/** Resolve a local `$ref` ("#", "#/$defs/x", "#/definitions/x") against the root schema. */
function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref.slice(1).split('/').filter((p) => p !== '').map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = root;
  for (const part of parts) node = isObject(node) || Array.isArray(node) ? (node as Schema)[part] : undefined;
  return node;
}

class Run {
  readonly errors: LiteError[] = [];
  constructor(private readonly root: unknown) {}

  fail(instancePath: string, schemaPath: string, keyword: string, message: string, params: Record<string, unknown> = {}): void {
    this.errors.push({ instancePath, schemaPath: `${schemaPath}/${keyword}`, keyword, message, params });
  }

  /** Whether `data` is valid against `schema`, without recording errors (for combinators). */
  passes(schema: unknown, data: unknown, depth: number): boolean {
    const probe = new Run(this.root);
    probe.check(schema, data, '', '#', depth);
    return probe.errors.length === 0;
  }

  check(schema: unknown, data: unknown, path: string, spath: string, depth: number): void {
    if (schema === true || schema === undefined) return;
    if (schema === false) return this.fail(path, spath, 'false schema', 'boolean schema is false');
    if (!isObject(schema) || depth > MAX_DEPTH) return;
    if (typeof schema.$ref === 'string') this.check(resolveRef(schema.$ref, this.root), data, path, `${spath}/$ref`, depth + 1);
    this.generic(schema, data, path, spath);
    this.combinators(schema, data, path, spath, depth);
    if (typeof data === 'string') this.string(schema, data, path, spath);
    if (typeof data === 'number') this.number(schema, data, path, spath);
    if (Array.isArray(data)) this.array(schema, data, path, spath, depth);
    if (isObject(data)) this.object(schema, data, path, spath, depth);
  }

  private generic(schema: Schema, data: unknown, path: string, spath: string): void {
    const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
    if (types.length > 0 && !types.some((t) => typeMatches(t, data))) this.fail(path, spath, 'type', `must be ${types.join(',')}`, { type: types.join(',') });
    if (Array.isArray(schema.enum) && !schema.enum.some((v) => deepEqual(v, data))) this.fail(path, spath, 'enum', 'must be equal to one of the allowed values', { allowedValues: schema.enum });
    if ('const' in schema && !deepEqual(schema.const, data)) this.fail(path, spath, 'const', 'must be equal to constant', { allowedValue: schema.const });
  }

  private combinators(schema: Schema, data: unknown, path: string, spath: string, depth: number): void {
    if (Array.isArray(schema.allOf)) schema.allOf.forEach((s, i) => this.check(s, data, path, `${spath}/allOf/${i}`, depth + 1));
    if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => this.passes(s, data, depth + 1))) this.fail(path, spath, 'anyOf', 'must match a schema in anyOf');
    if (Array.isArray(schema.oneOf)) {
      const passing = schema.oneOf.filter((s) => this.passes(s, data, depth + 1)).length;
      if (passing !== 1) this.fail(path, spath, 'oneOf', 'must match exactly one schema in oneOf', { passingSchemas: passing });
    }
    if ('not' in schema && this.passes(schema.not, data, depth + 1)) this.fail(path, spath, 'not', 'must NOT be valid');
    if ('if' in schema) {
      const branch = this.passes(schema.if, data, depth + 1) ? 'then' : 'else';
      if (branch in schema) this.check(schema[branch], data, path, `${spath}/${branch}`, depth + 1);
    }
  }

  private string(schema: Schema, data: string, path: string, spath: string): void {
    const length = [...data].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) this.fail(path, spath, 'minLength', `must NOT have fewer than ${schema.minLength} characters`, { limit: schema.minLength });
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) this.fail(path, spath, 'maxLength', `must NOT have more than ${schema.maxLength} characters`, { limit: schema.maxLength });
    if (typeof schema.pattern === 'string') {
      let re: RegExp | undefined;
      try {
        re = new RegExp(schema.pattern, 'u');
      } catch {
        re = undefined;
      }
      if (re && !re.test(data)) this.fail(path, spath, 'pattern', `must match pattern "${schema.pattern}"`, { pattern: schema.pattern });
    }
  }

  private number(schema: Schema, data: number, path: string, spath: string): void {
    const bound = (keyword: string, ok: (limit: number) => boolean, words: string) => {
      const limit = schema[keyword];
      if (typeof limit === 'number' && !ok(limit)) this.fail(path, spath, keyword, `must be ${words} ${limit}`, { limit });
    };
    bound('minimum', (l) => data >= l, '>=');
    bound('maximum', (l) => data <= l, '<=');
    bound('exclusiveMinimum', (l) => data > l, '>');
    bound('exclusiveMaximum', (l) => data < l, '<');
    const m = schema.multipleOf;
    if (typeof m === 'number' && m > 0 && Math.abs(data / m - Math.round(data / m)) > 1e-8) this.fail(path, spath, 'multipleOf', `must be multiple of ${m}`, { multipleOf: m });
  }

  private array(schema: Schema, data: unknown[], path: string, spath: string, depth: number): void {
    if (typeof schema.minItems === 'number' && data.length < schema.minItems) this.fail(path, spath, 'minItems', `must NOT have fewer than ${schema.minItems} items`, { limit: schema.minItems });
    if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) this.fail(path, spath, 'maxItems', `must NOT have more than ${schema.maxItems} items`, { limit: schema.maxItems });
    if (schema.uniqueItems === true && data.some((x, i) => data.findIndex((y) => deepEqual(x, y)) !== i)) this.fail(path, spath, 'uniqueItems', 'must NOT have duplicate items');
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    data.forEach((item, i) => {
      const itemSchema = i < tuple.length ? tuple[i] : rest;
      this.check(itemSchema, item, `${path}/${i}`, `${spath}/items`, depth + 1);
    });
  }

  private object(schema: Schema, data: Record<string, unknown>, path: string, spath: string, depth: number): void {
    const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
    for (const name of required) {
      if (!(name in data) || data[name] === undefined) this.fail(path, spath, 'required', `must have required property '${name}'`, { missingProperty: name });
    }
    const properties = isObject(schema.properties) ? schema.properties : {};
    const count = Object.keys(data).length;
    if (typeof schema.minProperties === 'number' && count < schema.minProperties) this.fail(path, spath, 'minProperties', `must NOT have fewer than ${schema.minProperties} properties`, { limit: schema.minProperties });
    if (typeof schema.maxProperties === 'number' && count > schema.maxProperties) this.fail(path, spath, 'maxProperties', `must NOT have more than ${schema.maxProperties} properties`, { limit: schema.maxProperties });
    for (const [name, value] of Object.entries(data)) {
      const escaped = name.replace(/~/g, '~0').replace(/\//g, '~1');
      if (Object.prototype.hasOwnProperty.call(properties, name)) {
        this.check(properties[name], value, `${path}/${escaped}`, `${spath}/properties/${escaped}`, depth + 1);
      } else if (schema.additionalProperties === false) {
        this.fail(path, spath, 'additionalProperties', 'must NOT have additional properties', { additionalProperty: name });
      } else if (isObject(schema.additionalProperties)) {
        this.check(schema.additionalProperties, value, `${path}/${escaped}`, `${spath}/additionalProperties`, depth + 1);
      }
    }
  }
}

/** Validate `data` against `schema`; `$ref`s resolve against `root` (default: the schema itself). */
export function liteValidate(schema: unknown, data: unknown, root: unknown = schema): LiteError[] {
  const run = new Run(root);
  run.check(schema, data, '', '#', 0);
  return run.errors;
}
