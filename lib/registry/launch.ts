/**
 * A registry entry's package or remote, with what a person filled in, as a Loupe `ServerConfig`.
 *
 * - A package runs with its registry's own runner unless `runtimeHint` names another: npm `npx -y
 *   <identifier>@<version>`, pypi `uvx <identifier>==<version>`, oci `docker run -i --rm … <image>`
 *   (each environment variable passed as `-e NAME`, its value in the runner's environment, never on
 *   the command line), nuget `dnx <identifier>@<version> --yes`. Another `runtimeHint` runs as
 *   `<runtimeHint> <runtimeArguments…> <packageArguments…>`, and the plan says the package is then
 *   not on the command line. MCPB bundles and packages served over HTTP are not launched: the plan
 *   says why.
 * - Arguments: positional `value`, named `--flag=value` (the schema's form), `isRepeated` one per
 *   line of the value, `default` when left empty, `{variables}` of a fixed `value` filled from their
 *   own fields (an unknown `{name}` is left as written, as the schema says).
 * - A remote: its URL's `{variables}` filled, its headers, `streamable-http` → HTTP, `sse` → SSE.
 * - Secrets: environment variables and headers are named in `secretEnv` / `secretHeaders` (the
 *   proxy holds their values, as for `Add server`); a secret argument is written as an
 *   `${input:ID}` reference whose value goes to the proxy in `inputs` (`provide-inputs`).
 */
import type { ServerConfig } from '../model/server-config.ts';
import { secretInputId } from '../workspace/references.ts';
import type { RegistryArgument, RegistryEntry, RegistryInput, RegistryKeyValue, RegistryPackage, RegistryTransport } from './entry.ts';

export type FieldKind = 'runtime argument' | 'package argument' | 'environment variable' | 'header' | 'URL variable';

/** One thing a person may fill. `key` indexes the values given to planLaunch. */
export interface RegistryField {
  key: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  secret: boolean;
  choices?: string[];
  default?: string;
  placeholder?: string;
  format?: string;
  /** Several values, one a line. */
  repeated: boolean;
}

export type RegistryOption =
  | { kind: 'package'; label: string; pkg: RegistryPackage; unsupported?: string }
  | { kind: 'remote'; label: string; remote: RegistryTransport; unsupported?: string };

export type LaunchPlan =
  | { ok: false; missing: string[]; error?: string }
  | { ok: true; config: ServerConfig; secretEnv: string[]; secretHeaders: string[]; inputs: Record<string, string>; notes: string[] };

const RUNNERS: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

function unsupportedPackage(p: RegistryPackage): string | undefined {
  if (p.transport.type !== 'stdio') return `It serves ${p.transport.type} from a process of its own: start it yourself, then add its URL.`;
  if (p.registryType === 'mcpb' && !p.runtimeHint) return 'An MCPB bundle is installed by a host that supports MCPB; Loupe does not download or unpack it.';
  if (!RUNNERS[p.registryType] && !p.runtimeHint) return `Loupe knows no runner for ${p.registryType} packages, and the entry gives no runtimeHint.`;
  return undefined;
}

/** The packages and remotes of an entry, each with a label that names it. */
export function optionsOf(entry: RegistryEntry): RegistryOption[] {
  const packages = entry.packages.map((pkg): RegistryOption => {
    const version = pkg.version ? `@${pkg.version}` : '';
    const unsupported = unsupportedPackage(pkg);
    return { kind: 'package', label: `Package ${pkg.at + 1}: ${pkg.registryType} ${pkg.identifier}${version}${pkg.runtimeHint ? ` (runs with ${pkg.runtimeHint})` : ''}`, pkg, ...(unsupported ? { unsupported } : {}) };
  });
  const remotes = entry.remotes.map((remote): RegistryOption => {
    const known = remote.type === 'streamable-http' || remote.type === 'sse';
    return { kind: 'remote', label: `Remote ${(remote.at ?? 0) + 1}: ${remote.type} ${remote.url ?? '(no URL)'}`, remote, ...(known && remote.url ? {} : { unsupported: `Loupe connects to streamable-http and sse remotes with a URL; this one is ${remote.type}${remote.url ? '' : ' without a URL'}.` }) };
  });
  return [...packages, ...remotes];
}

function field(key: string, kind: FieldKind, label: string, input: RegistryInput, repeated = false): RegistryField {
  return {
    key, kind, label, required: input.isRequired === true, secret: input.isSecret === true, repeated,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.choices && input.choices.length > 0 ? { choices: input.choices } : {}),
    ...(input.default !== undefined ? { default: input.default } : {}),
    ...(input.placeholder !== undefined ? { placeholder: input.placeholder } : {}),
    ...(input.format !== undefined ? { format: input.format } : {}),
  };
}

/** A fixed `value` asks only for its variables; an input without one asks for itself. */
function fieldsOfInput(key: string, kind: FieldKind, label: string, input: RegistryInput, repeated = false): RegistryField[] {
  if (input.value === undefined) return [field(key, kind, label, input, repeated)];
  return Object.entries(input.variables ?? {}).map(([name, v]) => field(`${key}.${name}`, kind, `${label}: ${name}`, v));
}

const argLabel = (a: RegistryArgument, i: number): string => (a.type === 'named' ? (a.name ?? `argument ${i + 1}`) : (a.valueHint ?? `argument ${i + 1}`));

export function fieldsOf(option: RegistryOption): RegistryField[] {
  if (option.kind === 'remote') {
    const r = option.remote;
    return [
      ...Object.entries(r.variables ?? {}).map(([name, v]) => field(`url.${name}`, 'URL variable', name, v)),
      ...r.headers.flatMap((h) => fieldsOfInput(`header:${h.name}`, 'header', h.name, h)),
    ];
  }
  const p = option.pkg;
  return [
    ...p.runtimeArguments.flatMap((a, i) => fieldsOfInput(`runtime:${i}`, 'runtime argument', argLabel(a, i), a, a.isRepeated === true)),
    ...p.packageArguments.flatMap((a, i) => fieldsOfInput(`package:${i}`, 'package argument', argLabel(a, i), a, a.isRepeated === true)),
    ...p.environmentVariables.flatMap((e) => fieldsOfInput(`env:${e.name}`, 'environment variable', e.name, e)),
  ];
}

interface Resolved { values: string[]; secret: boolean }

/** The values of one input (several when repeated; none when left empty and optional). */
function resolve(key: string, label: string, input: RegistryInput, given: Record<string, string>, missing: string[], repeated = false): Resolved {
  if (input.value !== undefined) {
    let secret = input.isSecret === true;
    const text = input.value.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
      const v = input.variables?.[name];
      if (!v) return whole;
      const value = given[`${key}.${name}`] ?? v.default ?? '';
      if (value === '' && v.isRequired) missing.push(`${label}: ${name}`);
      if (v.isSecret) secret = true;
      return value;
    });
    return { values: [text], secret };
  }
  const raw = given[key] ?? input.default ?? '';
  const values = (repeated ? raw.split('\n') : [raw]).map((v) => (repeated ? v.trim() : v)).filter((v) => v !== '');
  if (values.length === 0 && input.isRequired) missing.push(label);
  return { values, secret: input.isSecret === true };
}

function argumentsOf(list: RegistryArgument[], prefix: string, given: Record<string, string>, missing: string[], secretArg: (label: string, text: string) => string): string[] {
  return list.flatMap((a, i) => {
    const label = argLabel(a, i);
    const { values, secret } = resolve(`${prefix}:${i}`, label, a, given, missing, a.isRepeated === true);
    return values.flatMap((v, n) => {
      const text = secret ? secretArg(values.length > 1 ? `${label}-${n + 1}` : label, v) : v;
      return a.type === 'named' ? [`${a.name ?? ''}=${text}`] : [text];
    });
  });
}

function keyValues(list: RegistryKeyValue[], prefix: string, given: Record<string, string>, missing: string[]): { record: Record<string, string>; secret: string[] } {
  const record: Record<string, string> = {};
  const secret: string[] = [];
  for (const kv of list) {
    const { values, secret: isSecret } = resolve(`${prefix}:${kv.name}`, kv.name, kv, given, missing);
    if (values.length === 0) continue;
    record[kv.name] = values[0];
    if (isSecret) secret.push(kv.name);
  }
  return { record, secret };
}

/** The server's name in the workspace: the entry's title, else the last part of its reverse-DNS name. */
export function serverNameOf(entry: RegistryEntry): string {
  return entry.title ?? entry.name?.split('/').pop() ?? 'registry-server';
}

function ociImage(p: RegistryPackage): string {
  const last = p.identifier.split('/').pop() ?? '';
  return p.version && !last.includes(':') && !p.identifier.includes('@') ? `${p.identifier}:${p.version}` : p.identifier;
}

function packagePlan(entry: RegistryEntry, p: RegistryPackage, given: Record<string, string>): LaunchPlan {
  const name = serverNameOf(entry);
  const missing: string[] = [];
  const inputs: Record<string, string> = {};
  const secretArg = (label: string, text: string): string => {
    const id = secretInputId(name, label);
    inputs[id] = text;
    return `\${input:${id}}`;
  };
  const runtime = argumentsOf(p.runtimeArguments, 'runtime', given, missing, secretArg);
  const args = argumentsOf(p.packageArguments, 'package', given, missing, secretArg);
  const env = keyValues(p.environmentVariables, 'env', given, missing);
  if (missing.length > 0) return { ok: false, missing };
  const runner = RUNNERS[p.registryType];
  const command = p.runtimeHint ?? runner;
  const notes: string[] = [];
  let argv: string[];
  if (command === 'npx' && runner === 'npx') {
    const yes = runtime.includes('-y') || runtime.includes('--yes') ? [] : ['-y'];
    argv = [...yes, ...runtime, p.version ? `${p.identifier}@${p.version}` : p.identifier, ...args];
  } else if (command === 'uvx' && runner === 'uvx') {
    argv = [...runtime, p.version ? `${p.identifier}==${p.version}` : p.identifier, ...args];
  } else if (command === 'docker' && runner === 'docker') {
    argv = ['run', '-i', '--rm', ...runtime, ...Object.keys(env.record).flatMap((k) => ['-e', k]), ociImage(p), ...args];
  } else if (command === 'dnx' && runner === 'dnx') {
    argv = [...runtime, p.version ? `${p.identifier}@${p.version}` : p.identifier, '--yes', ...args];
  } else {
    argv = [...runtime, ...args];
    notes.push(`runtimeHint "${command}" is not the runner Loupe knows for ${p.registryType} packages${runner ? ` (${runner})` : ''}: it runs as ${command} with the entry's runtime and package arguments, and ${p.identifier} is not put on the command line.`);
  }
  if (!command) return { ok: false, missing: [], error: unsupportedPackage(p) };
  return { ok: true, config: { kind: 'stdio', name, command, args: argv, env: env.record }, secretEnv: env.secret, secretHeaders: [], inputs, notes };
}

function remotePlan(entry: RegistryEntry, r: RegistryTransport, given: Record<string, string>): LaunchPlan {
  const missing: string[] = [];
  const url = resolve('url', 'URL', { value: r.url ?? '', ...(r.variables ? { variables: r.variables } : {}) }, given, missing).values[0];
  const headers = keyValues(r.headers, 'header', given, missing);
  if (missing.length > 0) return { ok: false, missing: missing.map((m) => m.replace(/^URL: /, '')) };
  try {
    new URL(url);
  } catch {
    return { ok: false, missing: [], error: `The remote's URL is not a full URL once filled: ${url}` };
  }
  const transport = r.type === 'sse' ? 'sse' : 'http';
  return { ok: true, config: { kind: 'http', name: serverNameOf(entry), url, transport, headers: headers.record }, secretEnv: [], secretHeaders: headers.secret, inputs: {}, notes: [] };
}

/** The config to add, or what is missing (by the labels fieldsOf gives), or why it cannot run. */
export function planLaunch(entry: RegistryEntry, option: RegistryOption, given: Record<string, string>): LaunchPlan {
  if (option.unsupported) return { ok: false, missing: [], error: option.unsupported };
  return option.kind === 'package' ? packagePlan(entry, option.pkg, given) : remotePlan(entry, option.remote, given);
}
