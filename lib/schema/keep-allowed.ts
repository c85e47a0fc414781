/**
 * What a tool form keeps of what was typed when the tool's schema changes (issue 25: a restart
 * changed it): each top-level argument whose property is still there and whose value still has an
 * allowed type (and enum member, when the property lists them). The rest is dropped, not sent: a
 * value the new schema no longer describes would only be refused.
 */
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function allows(property: unknown, value: unknown): boolean {
  if (!isRecord(property)) return property === true || property === undefined;
  const types = property.type === undefined ? undefined : Array.isArray(property.type) ? property.type : [property.type];
  const actual = typeOf(value);
  if (types && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) return false;
  if (Array.isArray(property.enum) && !property.enum.some((member) => JSON.stringify(member) === JSON.stringify(value))) return false;
  if (property.const !== undefined && JSON.stringify(property.const) !== JSON.stringify(value)) return false;
  return true;
}

/** `values` (the form's data) cut to what `schema` (the tool's new inputSchema) still allows; undefined when nothing is left. */
export function keepAllowedArguments(values: unknown, schema: unknown): Record<string, unknown> | undefined {
  if (!isRecord(values)) return undefined;
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const open = !isRecord(schema) || (schema.additionalProperties !== false && Object.keys(properties).length === 0);
  const kept = Object.fromEntries(Object.entries(values).filter(([name, value]) => (Object.hasOwn(properties, name) ? allows(properties[name], value) : open)));
  return Object.keys(kept).length > 0 ? kept : undefined;
}
