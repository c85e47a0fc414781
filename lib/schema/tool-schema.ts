/**
 * Tools from `tools/list` → entries the UI can list, with their `inputSchema` checked.
 *
 * A tool whose schema cannot be compiled, or is not an object schema, is still listed with the
 * reason, so the user can call it with hand-written JSON (a debugger must not hide broken tools).
 * Dialect: `$schema` decides; without one we use JSON Schema 2020-12, the MCP default dialect
 * (spec 2025-11-25, "JSON Schema usage"). Validation uses an Ajv configured as rjsf's
 * (json-schema-validation.ts), so the form and this check agree; no form library is needed here.
 */
import { compileOnce, type Dialect, type JsonSchemaObject } from './validation.ts';
import { parseIcons, type IconView } from '../content/icons.ts';
import { prepareSchema, type SchemaPart } from './form.ts';

export type { Dialect };

export type SchemaCheck =
  | {
      ok: true;
      /** What arguments are validated against (remote `$ref`s replaced, see json-schema-form.ts). */
      schema: JsonSchemaObject;
      /** What the form is drawn from: undrawable parts marked as JSON editors. */
      form: JsonSchemaObject;
      dialect: Dialect;
      /** Parts drawn as JSON editors, with why. */
      fallbacks: SchemaPart[];
      /** Parts not validated (remote references are never fetched). */
      unchecked: SchemaPart[];
    }
  | { ok: false; reason: string };

/** The behaviour hints of `ToolAnnotations` (all advisory, all untrusted). */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  hints: ToolHints;
  inputSchema: unknown;
  check: SchemaCheck;
  /** `outputSchema`, when the tool has one: `structuredContent` is validated against it. */
  output?: SchemaCheck;
  icons: IconView[];
  /** The tool exactly as listed. */
  raw: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The dialect for a `$schema` value, and whether `$schema` must be dropped for Ajv to accept it. */
function dialectOf(metaSchema: unknown): { dialect: Dialect; drop: boolean } | { error: string } {
  if (metaSchema === undefined) return { dialect: '2020-12', drop: false };
  if (typeof metaSchema !== 'string') return { error: '"$schema" is not a string' };
  if (/draft\/2020-12\/schema/.test(metaSchema)) return { dialect: '2020-12', drop: false };
  if (/draft\/2019-09\/schema/.test(metaSchema)) return { dialect: '2020-12', drop: true };
  if (/draft-07\/schema/.test(metaSchema)) return { dialect: 'draft-07', drop: false };
  if (/draft-06\/schema/.test(metaSchema)) return { dialect: 'draft-07', drop: true };
  return { error: `unsupported "$schema": ${metaSchema}` };
}

/** Check a tool's `inputSchema` (or `outputSchema`): an object, an object schema, and compilable by Ajv. */
export function checkInputSchema(inputSchema: unknown, what = 'inputSchema'): SchemaCheck {
  if (!isObject(inputSchema)) return { ok: false, reason: `${what} is not a JSON object` };
  const type = inputSchema.type;
  if (type !== 'object') return { ok: false, reason: `${what}.type is ${JSON.stringify(type) ?? 'missing'}, not "object"` };
  const found = dialectOf(inputSchema.$schema);
  if ('error' in found) return { ok: false, reason: found.error };
  const source = { ...inputSchema };
  if (found.drop) delete source.$schema;
  let prepared: ReturnType<typeof prepareSchema>;
  try {
    prepared = prepareSchema(source);
  } catch (error) {
    // prepareSchema walks the schema recursively: thousands of levels overflow the stack, and one
    // such tool must not make the whole tools/list unreadable (issue 10's smoke run found it).
    if (error instanceof RangeError) return { ok: false, reason: `${what} is nested too deeply to check` };
    throw error;
  }
  const schema = prepared.validation as JsonSchemaObject;
  const compiled = compileOnce(found.dialect, schema);
  if (!compiled.ok) return { ok: false, reason: compiled.error };
  return { ok: true, schema, form: prepared.form as JsonSchemaObject, dialect: found.dialect, fallbacks: prepared.fallbacks, unchecked: prepared.unchecked };
}

export interface ValidationIssue {
  /** JSON pointer into the value, `""` for the value itself. */
  path: string;
  message: string;
}

/** Validation issues of `value` against a checked schema; empty when valid. */
export function validationIssues(check: Extract<SchemaCheck, { ok: true }>, value: unknown): ValidationIssue[] {
  const compiled = compileOnce(check.dialect, check.schema);
  if (!compiled.ok) return [{ path: '', message: compiled.error }];
  compiled.validate(value);
  return (compiled.validate.errors ?? []).map((e) => {
    // A missing property is reported at the property (where the form shows it), not its parent.
    if (e.keyword === 'required' && isObject(e.params) && typeof e.params.missingProperty === 'string') {
      return { path: `${e.instancePath}/${e.params.missingProperty.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: 'is required' };
    }
    const extra = e.keyword === 'additionalProperties' && isObject(e.params) ? ` (${String(e.params.additionalProperty)})` : '';
    return { path: e.instancePath, message: `${e.message ?? 'is invalid'}${extra}` };
  });
}

/** An rjsf ErrorSchema (`{field: {__errors: [...]}}`) from validation issues, to show them on the form's fields. */
export function errorSchemaOf(issues: readonly ValidationIssue[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    let node = root;
    for (const raw of issue.path.split('/').slice(1)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      // defineProperty: `node[key] =` with the key "__proto__" would set the prototype instead.
      if (!Object.hasOwn(node, key)) Object.defineProperty(node, key, { value: {}, enumerable: true, writable: true, configurable: true });
      node = node[key] as Record<string, unknown>;
    }
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), issue.message];
  }
  return root;
}

/** Validation messages for `args` against a checked schema; empty when valid. */
export function validateArguments(check: SchemaCheck, args: unknown): string[] {
  if (!check.ok) return [];
  return validationIssues(check, args).map((e) => `${e.path || '(arguments)'} ${e.message}`.trim());
}

function hintsOf(annotations: unknown): ToolHints {
  if (!isObject(annotations)) return {};
  const hints: ToolHints = {};
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof annotations[key] === 'boolean') hints[key] = annotations[key];
  }
  return hints;
}

function toolTitle(tool: Record<string, unknown>): string | undefined {
  if (typeof tool.title === 'string') return tool.title;
  const annotations = tool.annotations;
  return isObject(annotations) && typeof annotations.title === 'string' ? annotations.title : undefined;
}

/** `tools/list` items → entries; items without a string name are reported, not listed. */
export function parseTools(items: readonly unknown[]): { tools: ToolEntry[]; problems: string[] } {
  const tools: ToolEntry[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (!isObject(item) || typeof item.name !== 'string') {
      problems.push(`tool #${index + 1} has no string "name" and is not listed`);
      return;
    }
    if (seen.has(item.name)) problems.push(`tool name "${item.name}" appears more than once`);
    seen.add(item.name);
    tools.push({
      name: item.name,
      title: toolTitle(item),
      description: typeof item.description === 'string' ? item.description : undefined,
      hints: hintsOf(item.annotations),
      inputSchema: item.inputSchema,
      check: checkInputSchema(item.inputSchema),
      ...(item.outputSchema === undefined ? {} : { output: checkInputSchema(item.outputSchema, 'outputSchema') }),
      icons: parseIcons(item.icons),
      raw: item,
    });
  });
  return { tools, problems };
}
