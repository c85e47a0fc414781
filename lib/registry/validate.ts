/**
 * A `server.json` checked against Loupe's own schema of its `$schema` version (schemas.ts; the
 * current one when the URL is unknown, and saying so), through Ajv only. Errors are given by JSON
 * path in plain words. Where the schema offers alternatives (`anyOf`: a package's transport, an
 * argument's kind, a remote), the value's own `type` picks the alternative and only that one's
 * errors are told; a `type` no alternative takes is told as the one error.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readEntry, type RegistryEntry } from './entry.ts';
import { SCHEMA_VERSIONS, type SchemaVersion } from './schemas.ts';

export { SCHEMA_VERSIONS };

export interface RegistryProblem {
  /** JSON Pointer into the file; '' for the whole file. */
  path: string;
  message: string;
}

export type RegistryCheck =
  | { ok: false; error: string }
  | {
      ok: true;
      entry: RegistryEntry;
      /** The schema version the file was checked against. */
      version: string;
      /** Set when `$schema` is missing or not a version Loupe holds: what was done instead. */
      schemaNote?: string;
      problems: RegistryProblem[];
    };

type Obj = Record<string, unknown>;
const compiled = new Map<string, { ajv: Ajv; validate: ValidateFunction }>();

function validatorFor(version: SchemaVersion): { ajv: Ajv; validate: ValidateFunction } {
  let found = compiled.get(version.version);
  if (!found) {
    // verbose: an `anyOf` error carries its alternatives (`schema`), which explain() picks from.
    const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    ajv.addSchema(version.schema);
    const validate = ajv.getSchema(version.id);
    if (!validate) throw new Error(`schema ${version.id} did not compile`);
    found = { ajv, validate };
    compiled.set(version.version, found);
  }
  return found;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function at(data: unknown, pointer: string): unknown {
  let here = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    here = Array.isArray(here) ? here[Number(key)] : isObj(here) ? here[key] : undefined;
  }
  return here;
}

/** The values of `type` an alternative accepts (its `properties.type.enum`, through `$ref` and `allOf`). */
function typesOf(root: Obj, node: unknown, depth = 0): string[] {
  if (!isObj(node) || depth > 8) return [];
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) return typesOf(root, at(root, node.$ref.slice(1)), depth + 1);
  const type = isObj(node.properties) && isObj(node.properties.type) ? node.properties.type : undefined;
  if (type && Array.isArray(type.enum)) return type.enum.filter((t): t is string => typeof t === 'string');
  if (Array.isArray(node.anyOf)) return node.anyOf.flatMap((n) => typesOf(root, n, depth + 1));
  if (Array.isArray(node.allOf)) return node.allOf.flatMap((n) => typesOf(root, n, depth + 1));
  return [];
}

function plain(error: ErrorObject, data: unknown): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': return `${String(p.missingProperty)} is required`;
    case 'enum': return `must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const': return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'not': return `must not be ${JSON.stringify(at(data, error.instancePath))}`;
    case 'type': return `must be ${p.type === 'array' || p.type === 'object' ? 'an' : 'a'} ${String(p.type)}`;
    case 'format': return p.format === 'uri' ? 'must be a full URL (with its scheme)' : `must be in the format ${String(p.format)}`;
    case 'pattern': return `must match the pattern ${String(p.pattern)}`;
    case 'maxLength': return `must be at most ${String(p.limit)} characters long`;
    case 'minLength': return `must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'} long`;
    case 'additionalProperties': return `has a property the schema does not allow: ${String(p.additionalProperty)}`;
    default: return (error.message ?? 'is not valid').replace(/NOT/g, 'not');
  }
}

/**
 * Ajv's errors in plain words. `base` is where `data` sits in the file; an `anyOf` failure is
 * replaced by what the alternative its `type` picks says (validated again, alone), or by the one
 * error "type must be one of …" when no alternative takes that type.
 */
function explain(errors: readonly ErrorObject[], data: unknown, base: string, root: Obj, ajv: Ajv, id: string, depth = 0): RegistryProblem[] {
  let left = [...errors];
  const out: RegistryProblem[] = [];
  // Outermost first; at one path, alternatives between definitions (an argument's kind) before the
  // ones inside a definition (a positional's `value` or `valueHint`), which the first may make moot.
  const refs = (e: ErrorObject) => (Array.isArray(e.schema) && e.schema.every((b) => isObj(b) && typeof b.$ref === 'string') ? 0 : 1);
  const anyOfs = left.filter((e) => e.keyword === 'anyOf').sort((a, b) => a.instancePath.length - b.instancePath.length || refs(a) - refs(b));
  for (const failure of anyOfs) {
    const where = failure.instancePath;
    if (!left.includes(failure)) continue;
    const branches: unknown[] = Array.isArray(failure.schema) ? failure.schema : [];
    const types = branches.map((b) => typesOf(root, b));
    const under = (e: ErrorObject) => e.instancePath === where || e.instancePath.startsWith(`${where}/`);
    if (types.length > 0 && types.every((t) => t.length > 0)) {
      const value = at(data, where);
      const type = isObj(value) ? value.type : undefined;
      const chosen = types.findIndex((t) => typeof type === 'string' && t.includes(type));
      left = left.filter((e) => !under(e));
      if (chosen < 0) {
        out.push(type === undefined
          ? { path: `${base}${where}`, message: 'type is required' }
          : { path: `${base}${where}/type`, message: `must be one of ${[...new Set(types.flat())].join(', ')}` });
        continue;
      }
      const ref = branches[chosen] as Obj;
      const branch = typeof ref.$ref === 'string' ? ajv.getSchema(`${id}${ref.$ref}`) : undefined;
      if (branch && depth < 6 && !branch(value)) out.push(...explain(branch.errors ?? [], value, `${base}${where}`, root, ajv, id, depth + 1));
      continue;
    }
    // Alternatives that each ask for one property (a positional argument: `value` or `valueHint`).
    const asks = branches.map((b) => (isObj(b) && Array.isArray(b.required) && Object.keys(b).length === 1 ? b.required : undefined));
    if (asks.length > 0 && asks.every((a) => a !== undefined)) {
      const names = asks.flat().map(String);
      left = left.filter((e) => e !== failure && !(e.keyword === 'required' && e.instancePath === where && names.includes(String(e.params.missingProperty))));
      out.push({ path: `${base}${where}`, message: `must have ${names.join(' or ')}` });
    }
  }
  for (const e of left) out.push({ path: `${base}${e.instancePath}`, message: plain(e, data) });
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(`${p.path}\u0000${p.message}`) && seen.add(`${p.path}\u0000${p.message}`));
}

/** Parse and check a `server.json`'s text. A file that is not JSON gets `ok: false`; any other is shown. */
export function checkServerJson(text: string): RegistryCheck {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isObj(data)) return { ok: false, error: 'A server.json holds one JSON object; this is not an object.' };
  const declared = typeof data.$schema === 'string' ? data.$schema : undefined;
  const known = SCHEMA_VERSIONS.find((v) => v.url === declared);
  const version = known ?? SCHEMA_VERSIONS[0];
  const schemaNote = known
    ? undefined
    : declared === undefined
      ? `The file names no $schema; checked against the current version, ${version.version}.`
      : `Loupe does not know the schema ${declared}; checked against the current version, ${version.version} (Loupe knows ${SCHEMA_VERSIONS.map((v) => v.version).join(' and ')}).`;
  const { ajv, validate } = validatorFor(version);
  const problems = validate(data) ? [] : explain(validate.errors ?? [], data, '', version.schema, ajv, version.id).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, entry: readEntry(data), version: version.version, ...(schemaNote ? { schemaNote } : {}), problems };
}
