/**
 * `${…}` references in a server config, and secrets written as references.
 *
 * Forms understood (each host's own): `${input:ID}` (VS Code inputs, prompted for), `${env:NAME}`
 * (VS Code, Cursor), `${NAME}` and `${NAME:-default}` (Claude Code's .mcp.json expansion), and
 * VS Code's predefined variables (`${workspaceFolder}`, `${userHome}`, `${/}` …), which only the
 * caller can know. Substitution is one pass: a value that contains `${` is never expanded again.
 * Spec: https://code.visualstudio.com/docs/reference/variables-reference
 *
 * Secret input ids: a secret value is written as `${input:loupe-SERVER-KEY}`, SERVER and KEY with
 * every run of characters outside `A-Za-z0-9_.` replaced by `-` (`my server` + `API_KEY` →
 * `loupe-my-server-API_KEY`); the input is declared `{ type: "promptString", password: true }`.
 */
import type { ServerConfig } from '../model/server-config.ts';
import type { InputDecl, WorkspaceServer } from './types.ts';

const REFERENCE = /\$\{([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** VS Code's predefined variables (Cursor supports a subset); `${workspaceFolder:name}` too. */
const VSCODE_VARIABLES = new Set([
  'workspaceFolder', 'workspaceFolderBasename', 'userHome', 'pathSeparator', '/', 'cwd', 'execPath',
  'file', 'fileBasename', 'fileBasenameNoExtension', 'fileDirname', 'fileExtname', 'fileWorkspaceFolder',
  'relativeFile', 'relativeFileDirname', 'lineNumber', 'selectedText', 'defaultBuildTask',
]);

export type Reference =
  | { kind: 'input'; id: string }
  | { kind: 'env'; name: string; fallback?: string }
  | { kind: 'variable'; name: string };

/** What `${body}` refers to; undefined for forms Loupe does not know (`${command:…}`, `${config:…}`). */
export function classifyReference(body: string): Reference | undefined {
  if (body.startsWith('input:')) return { kind: 'input', id: body.slice(6) };
  if (body.startsWith('env:')) return { kind: 'env', name: body.slice(4) };
  const name = body.split(':')[0];
  if (VSCODE_VARIABLES.has(name)) return { kind: 'variable', name: body };
  const fallback = /^([A-Za-z_][A-Za-z0-9_]*):-(.*)$/s.exec(body);
  if (fallback) return { kind: 'env', name: fallback[1], fallback: fallback[2] };
  return ENV_NAME.test(body) ? { kind: 'env', name: body } : undefined;
}

/** Every string of a config a host substitutes in, with a way to put a new value back. */
function mapStrings(config: ServerConfig, map: (s: string) => string): ServerConfig {
  const record = (r: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, map(v)]));
  if (config.kind === 'http') return { ...config, url: map(config.url), headers: record(config.headers) };
  return {
    ...config,
    command: map(config.command),
    args: config.args.map(map),
    env: record(config.env),
    ...(config.cwd !== undefined ? { cwd: map(config.cwd) } : {}),
  };
}

function bodiesOf(config: ServerConfig): string[] {
  const bodies: string[] = [];
  mapStrings(config, (s) => {
    for (const m of s.matchAll(REFERENCE)) bodies.push(m[1]);
    return s;
  });
  return bodies;
}

const unique = (items: string[]): string[] => [...new Set(items)];

/** `${input:X}` and `${env:X}` (and Claude Code's `${X}`) found in a config, each once, in order. */
export function referencesOf(config: ServerConfig): { inputs: string[]; env: string[] } {
  const refs = bodiesOf(config).map(classifyReference);
  return {
    inputs: unique(refs.flatMap((r) => (r?.kind === 'input' ? [r.id] : []))),
    env: unique(refs.flatMap((r) => (r?.kind === 'env' ? [r.name] : []))),
  };
}

/** `${…}` forms in a config that only the caller can fill (VS Code variables, unknown forms). */
export function placeholdersOf(config: ServerConfig): string[] {
  return unique(bodiesOf(config).filter((b) => classifyReference(b)?.kind !== 'input' && classifyReference(b)?.kind !== 'env').map((b) => `\${${b}}`));
}

export interface ReferenceValues {
  env: Record<string, string | undefined>;
  inputs: Record<string, string>;
  /** VS Code variables the caller knows (`workspaceFolder`: the config file's folder, `userHome`…). Optional addition. */
  vars?: Record<string, string>;
}

export interface Resolved {
  config: ServerConfig;
  /** Input ids with no value yet (the UI prompts for them); their references stay as written. */
  missing: string[];
  /** Environment variables that are not set and have no `:-default`; replaced by "" (as VS Code does). Addition. */
  missingEnv: string[];
  /** Placeholders left as written (unknown variables, forms Loupe does not know). Addition. */
  unresolved: string[];
}

/** Replace references with values, in one pass. */
export function resolveReferences(config: ServerConfig, values: ReferenceValues): Resolved {
  const missing: string[] = [];
  const missingEnv: string[] = [];
  const unresolved: string[] = [];
  const resolved = mapStrings(config, (s) =>
    s.replace(REFERENCE, (whole, body: string) => {
      const ref = classifyReference(body);
      if (ref?.kind === 'input') {
        if (Object.hasOwn(values.inputs, ref.id)) return values.inputs[ref.id];
        missing.push(ref.id);
      } else if (ref?.kind === 'env') {
        const value = Object.hasOwn(values.env, ref.name) ? values.env[ref.name] : undefined;
        if (value !== undefined) return value;
        if (ref.fallback !== undefined) return ref.fallback;
        missingEnv.push(ref.name);
        return '';
      } else if (ref?.kind === 'variable' && values.vars && Object.hasOwn(values.vars, ref.name)) {
        return values.vars[ref.name];
      } else {
        unresolved.push(whole);
      }
      return whole;
    }),
  );
  return { config: resolved, missing: unique(missing), missingEnv: unique(missingEnv), unresolved: unique(unresolved) };
}

/** True when a value holds an input or environment reference: such a value is a secret's stand-in. */
export function isReference(value: string, inputs: readonly InputDecl[] = []): boolean {
  for (const m of value.matchAll(REFERENCE)) {
    const ref = classifyReference(m[1]);
    if (ref?.kind === 'env') return true;
    // A declared input without `password: true` is a plain prompt (a folder, a region), not a secret.
    if (ref?.kind === 'input') {
      const declared = inputs.find((i) => i.id === ref.id);
      if (!declared || declared.password === true) return true;
    }
  }
  return false;
}

const sanitize = (s: string): string => s.replace(/[^A-Za-z0-9_.]+/g, '-');

/** The input id a secret of `server` named `key` is written as (see the module comment). */
export function secretInputId(server: string, key: string): string {
  return `loupe-${sanitize(server)}-${sanitize(key)}`;
}

/**
 * The server with every secret value that is not already a reference replaced by
 * `${input:loupe-SERVER-KEY}`, and the input declarations that needs (those not in `inputs`).
 * The proxy uses it for what it shows the page; the serializer and the exporters for what they write.
 */
export function secretsAsReferences(server: WorkspaceServer, inputs: readonly InputDecl[] = []): { server: WorkspaceServer; inputs: InputDecl[] } {
  const added: InputDecl[] = [];
  const replace = (record: Record<string, string>, secret: readonly string[]): Record<string, string> =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => {
      if (!secret.includes(key) || isReference(value)) return [key, value];
      const id = secretInputId(server.name, key);
      if (!inputs.some((i) => i.id === id) && !added.some((i) => i.id === id)) {
        added.push({ id, type: 'promptString', description: `${key} for ${server.name}`, password: true });
      }
      return [key, `\${input:${id}}`];
    }));
  const config: ServerConfig = server.config.kind === 'stdio'
    ? { ...server.config, env: replace(server.config.env, server.secretEnv) }
    : { ...server.config, headers: replace(server.config.headers, server.secretHeaders) };
  return { server: { ...server, config }, inputs: added };
}
