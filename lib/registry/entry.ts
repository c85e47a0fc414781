/**
 * A `server.json` read as far as it can be, whatever the schema says of it: the page shows an
 * invalid file too. Every string here came from the file and is untrusted (rendered as text only).
 * Format: https://github.com/modelcontextprotocol/registry, docs/reference/server-json/.
 */

/** One declared input: an argument, an environment variable, a header or a URL variable. */
export interface RegistryInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: string;
  /** Set by the entry: not configurable, but its `{variables}` are. */
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
  variables?: Record<string, RegistryInput>;
}

export interface RegistryArgument extends RegistryInput {
  type: 'positional' | 'named';
  /** Named: the flag with its dashes. */
  name?: string;
  /** Positional: its label. */
  valueHint?: string;
  isRepeated?: boolean;
}

export interface RegistryKeyValue extends RegistryInput {
  name: string;
}

export interface RegistryTransport {
  /** Its index in the file's `packages` / `remotes` (entries that cannot be read are skipped). */
  at?: number;
  type: string;
  url?: string;
  headers: RegistryKeyValue[];
  /** Remotes (2025-12-11): the URL's `{variables}`. */
  variables?: Record<string, RegistryInput>;
}

export interface RegistryPackage {
  at: number;
  registryType: string;
  identifier: string;
  version?: string;
  runtimeHint?: string;
  transport: RegistryTransport;
  runtimeArguments: RegistryArgument[];
  packageArguments: RegistryArgument[];
  environmentVariables: RegistryKeyValue[];
}

export interface RegistryEntry {
  $schema?: string;
  name?: string;
  title?: string;
  version?: string;
  description?: string;
  websiteUrl?: string;
  packages: RegistryPackage[];
  remotes: RegistryTransport[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function input(v: Obj): RegistryInput {
  const variables = isObj(v.variables)
    ? Object.fromEntries(Object.entries(v.variables).filter(([, x]) => isObj(x)).map(([k, x]) => [k, input(x as Obj)]))
    : undefined;
  const choices = Array.isArray(v.choices) ? v.choices.filter((c): c is string => typeof c === 'string') : undefined;
  return defined({
    description: str(v.description), isRequired: bool(v.isRequired), isSecret: bool(v.isSecret), format: str(v.format),
    value: str(v.value), default: str(v.default), placeholder: str(v.placeholder), choices, variables,
  });
}

function argument(v: unknown): RegistryArgument[] {
  if (!isObj(v) || (v.type !== 'positional' && v.type !== 'named')) return [];
  return [defined({ ...input(v), type: v.type, name: str(v.name), valueHint: str(v.valueHint), isRepeated: bool(v.isRepeated) })];
}

function keyValue(v: unknown): RegistryKeyValue[] {
  return isObj(v) && typeof v.name === 'string' ? [{ ...input(v), name: v.name }] : [];
}

function transport(v: unknown): RegistryTransport | undefined {
  if (!isObj(v) || typeof v.type !== 'string') return undefined;
  const variables = isObj(v.variables) ? input({ variables: v.variables }).variables : undefined;
  return defined({ type: v.type, url: str(v.url), headers: list(v.headers).flatMap(keyValue), variables });
}

function pkg(v: unknown, at: number): RegistryPackage[] {
  if (!isObj(v) || typeof v.registryType !== 'string' || typeof v.identifier !== 'string') return [];
  return [defined({
    at,
    registryType: v.registryType,
    identifier: v.identifier,
    version: str(v.version),
    runtimeHint: str(v.runtimeHint),
    transport: transport(v.transport) ?? { type: 'stdio', headers: [] },
    runtimeArguments: list(v.runtimeArguments).flatMap(argument),
    packageArguments: list(v.packageArguments).flatMap(argument),
    environmentVariables: list(v.environmentVariables).flatMap(keyValue),
  })];
}

/** What can be read of a parsed `server.json` (parts that do not fit are left out, not guessed). */
export function readEntry(data: unknown): RegistryEntry {
  const v = isObj(data) ? data : {};
  return defined({
    $schema: str(v.$schema),
    name: str(v.name),
    title: str(v.title),
    version: str(v.version),
    description: str(v.description),
    websiteUrl: str(v.websiteUrl),
    packages: list(v.packages).flatMap((p, at) => pkg(p, at)),
    remotes: list(v.remotes).flatMap((r, at) => { const t = transport(r); return t ? [{ ...t, at }] : []; }),
  });
}
