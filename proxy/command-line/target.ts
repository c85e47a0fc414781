/**
 * From the command line's options to what Loupe opens (docs/contract.md): one server (a command, a URL,
 * the bundled demo) or the servers of a --config file (issue 9).
 */
import { normalizeTarget, type Result, type TargetInput } from '../../lib/config/server-config.ts';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { parseWorkspace, Workspace, WorkspaceServer } from '../../lib/workspace/workspace.ts';
import type { CliOptions } from './types.ts';

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

export interface TargetDeps {
  readFile(path: string): string;
  defaultServer(): ServerConfig;
  /**
   * lib/workspace/workspace.ts's parser, needed only with --config: the CLI loads it then, because it pulls in
   * zod (about 50 ms), which a launch without a file need not wait for before it listens.
   */
  parseWorkspace?: typeof parseWorkspace;
}

/** The servers of a --config file: all of them are listed; those in `start` connect at launch. */
export interface WorkspaceTarget {
  path: string;
  text: string;
  workspace: Workspace;
  /** Names to connect (the --server picks, else every server not disabled), in the order given. */
  start: string[];
}

export interface ResolvedTarget {
  /** The one server of a command, a URL or the demo; absent with --config. */
  config?: ServerConfig;
  workspace?: WorkspaceTarget;
  /** True when no target was given and the bundled demo server is used. */
  isDefault: boolean;
  /** The file's notes (each names its server), for the CLI to print. */
  warnings: string[];
}

export function resolveTarget(options: CliOptions, deps: TargetDeps): Result<ResolvedTarget> {
  if (options.config !== undefined) return fromConfigFile(options.config, options, deps);
  if (options.target.length > 0) {
    const config = normalizeTarget({ ...serverOptions(options), target: options.target });
    return config.ok ? { ok: true, value: { config: withProtocol(config.value, options), isDefault: false, warnings: [] } } : config;
  }
  try {
    return { ok: true, value: { config: withProtocol(deps.defaultServer(), options), isDefault: true, warnings: [] } };
  } catch (e) {
    return fail(messageOf(e));
  }
}

/** `--protocol` on a server (issue 12): the default generation is left unwritten. */
function withProtocol(config: ServerConfig, o: CliOptions): ServerConfig {
  return o.protocol === undefined ? config : { ...config, protocol: o.protocol };
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function serverOptions(o: CliOptions): Omit<TargetInput, 'target'> {
  return { env: o.env, cwd: o.cwd, headers: o.headers, transport: o.transport };
}

/**
 * Every server of the file (issue 9): a file that is not JSON(C), has no servers, or has an entry
 * that is neither a command nor a URL is an error naming the file, the entry and why.
 */
function fromConfigFile(file: string, options: CliOptions, deps: TargetDeps): Result<ResolvedTarget> {
  let text: string;
  try {
    text = deps.readFile(file);
  } catch (e) {
    return fail(`Cannot read the config file ${file}: ${messageOf(e)}`);
  }
  if (!deps.parseWorkspace) return fail('Internal error: the config parser was not loaded.');
  const parsed = deps.parseWorkspace(text);
  if (!parsed.ok) return fail(`${file}: ${parsed.error}`);
  const workspace = parsed.value;
  if (workspace.servers.length === 0) return fail(`${file}: The config defines no servers.`);
  const names = workspace.servers.map((s) => JSON.stringify(s.name)).join(', ');
  const unknown = options.servers.find((name) => !workspace.servers.some((s) => s.name === name));
  if (unknown !== undefined) return fail(`${file}: No server named ${JSON.stringify(unknown)}; the config has ${names}.`);
  const start = options.servers.length > 0 ? [...new Set(options.servers)] : workspace.servers.filter((s) => !s.disabled).map((s) => s.name);
  const overridden = withFileOverrides(workspace, start, options);
  if (!overridden.ok) return fail(`${file}: ${overridden.error}`);
  // --protocol speaks for every server of the file, over what the file says.
  const servers = overridden.value.servers.map((s) => ({ ...s, config: withProtocol(s.config, options) }));
  return { ok: true, value: { workspace: { path: file, text, workspace: { ...overridden.value, servers }, start }, isDefault: false, warnings: workspace.notes } };
}

/**
 * -e/--header/--cwd/--transport apply to one server of the file (the one --server picks). Their
 * values are marked secret: shown and saved as references, never as the values typed (a token
 * given on the command line is kept out of the file).
 */
function withFileOverrides(workspace: Workspace, start: string[], o: CliOptions): Result<Workspace> {
  if (!Object.keys(o.env).length && o.cwd === undefined && !Object.keys(o.headers).length && !o.transport) return { ok: true, value: workspace };
  if (start.length !== 1) return fail('-e/--env, --header, --cwd and --transport apply to one server: pick it with --server NAME.');
  const servers: WorkspaceServer[] = [];
  for (const server of workspace.servers) {
    if (server.name !== start[0]) {
      servers.push(server);
      continue;
    }
    const config = withOverrides(server.config, o);
    if (!config.ok) return fail(`Server ${JSON.stringify(server.name)}: ${config.error}`);
    const secretEnv = [...new Set([...server.secretEnv, ...Object.keys(o.env)])];
    const secretHeaders = [...new Set([...server.secretHeaders, ...Object.keys(o.headers)])];
    servers.push({ ...server, config: { ...config.value, name: server.name }, secretEnv, secretHeaders });
  }
  return { ok: true, value: { ...workspace, servers } };
}

/**
 * Command-line -e/--cwd/--header/--transport on top of a server from a file (handy for a token
 * kept out of the file). Re-normalising applies the same checks as for a typed target.
 */
function withOverrides(config: ServerConfig, o: CliOptions): Result<ServerConfig> {
  const given = serverOptions(o);
  if (!Object.keys(o.env).length && o.cwd === undefined && !Object.keys(o.headers).length && !o.transport) {
    return { ok: true, value: config };
  }
  if (config.kind === 'stdio') {
    return normalizeTarget({
      ...given,
      name: config.name,
      target: [config.command, ...config.args],
      env: { ...config.env, ...o.env },
      cwd: o.cwd ?? config.cwd,
      transport: o.transport ?? 'stdio',
    });
  }
  return normalizeTarget({
    ...given,
    name: config.name,
    target: [config.url],
    headers: mergeHeaders(config.headers, o.headers),
    transport: o.transport ?? (config.transport === 'auto' ? undefined : config.transport),
  });
}

/** HTTP header names are case-insensitive: `--header "authorization: …"` replaces the file's `Authorization`. */
function mergeHeaders(base: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const overridden = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  const kept = Object.entries(base).filter(([name]) => !overridden.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...extra };
}
