/**
 * Ajv for checking tool schemas and arguments, with no form library in lib/ (the rjsf validator the
 * forms use lives in components/tools/rjsf-validator.ts). Both are configured alike — rjsf's AJV_CONFIG
 * and the `ajv-formats` formats — so that what this check accepts the form accepts too.
 * Ajv runs anywhere (browser, proxy, CLI); it is a runtime dependency of the package.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JSONSchema7 } from 'json-schema';

export type Dialect = 'draft-07' | '2020-12';
/** A JSON Schema as an object (what a server sends; never trusted). The same type rjsf's RJSFSchema is. */
export type JsonSchemaObject = JSONSchema7;

/** rjsf's AJV_CONFIG (@rjsf/validator-ajv8 createAjvInstance), so the two validators agree. */
const OPTIONS = { allErrors: true, multipleOfPrecision: 8, strict: false, verbose: true, discriminator: false } as const;
/** rjsf's two custom formats, for the same reason. */
const DATA_URL = /^data:([a-z]+\/[a-z0-9-+.]+)?;(?:name=(.*);)?base64,(.*)$/;
const COLOR = /^(#?([0-9A-Fa-f]{3}){1,2}\b|[a-z]+|rgb\(.*\))$/;

type AnyAjv = Ajv | Ajv2020;
const instances = new Map<Dialect, AnyAjv>();

export function ajvFor(dialect: Dialect): AnyAjv {
  let ajv = instances.get(dialect);
  if (ajv === undefined) {
    ajv = dialect === '2020-12' ? new Ajv2020(OPTIONS) : new Ajv(OPTIONS);
    // The cast: ajv-formats is typed against ajv's default export; both classes are Ajv cores.
    (addFormats as unknown as (a: AnyAjv) => void)(ajv);
    ajv.addFormat('data-url', DATA_URL);
    ajv.addFormat('color', COLOR);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/** Compiles `schema` once and forgets it (a later compile of a schema sharing its `$id` starts fresh). */
export function compileOnce(dialect: Dialect, schema: JsonSchemaObject): { ok: true; validate: ValidateFunction } | { ok: false; error: string } {
  const ajv = ajvFor(dialect);
  try {
    return { ok: true, validate: ajv.compile(schema) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    ajv.removeSchema(schema);
  }
}
