/**
 * From what a person typed (a command, a script path, a URL) or what an mcp.json-style file says,
 * to the `ServerConfig` the proxy acts on. The rules follow mature MCP clients (Claude Desktop,
 * Cursor, VS Code, Claude Code) so that a config that works there works here.
 * Isomorphic: used by the CLI and by the connection panel.
 */
import type { HttpTransport, ServerConfig } from '../model/server-config.ts';

/** Failures are values. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export interface TargetInput {
  /** A command and its arguments, or one `http(s)://` URL. */
  target: string[];
  /** Forced transport; without it a URL is `auto` (Streamable HTTP, falling back to SSE). */
  transport?: 'stdio' | 'http' | 'sse';
  env?: Record<string, string>;
  cwd?: string;
  headers?: Record<string, string>;
  name?: string;
}

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });
const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
const quoted = (s: string): string => JSON.stringify(s);
const isGiven = (record: Record<string, string> | undefined): boolean => Object.keys(record ?? {}).length > 0;

/** Anything with a scheme is meant as a URL, so `ws://…` is refused rather than spawned. */
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A script path is run by its interpreter, as MCP clients and the official inspector do. */
const SCRIPT_RUNNERS: Array<[RegExp, string[]]> = [
  [/\.py$/i, ['python3']],
  [/\.[cm]?js$/i, ['node']],
  [/\.[cm]?ts$/i, ['npx', '-y', 'tsx']],
];

export function normalizeTarget(input: TargetInput): Result<ServerConfig> {
  const [first, ...rest] = input.target;
  if (first === undefined || first.trim() === '') {
    return fail('No server given: pass a command (for example "node server.js") or an http(s):// URL.');
  }
  return URL_SCHEME.test(first) ? normalizeUrl(first, rest, input) : normalizeCommand(first, rest, input);
}

function normalizeUrl(url: string, rest: string[], input: TargetInput): Result<ServerConfig> {
  if (input.transport === 'stdio') {
    return fail(`Transport stdio starts a command, but ${url} is a URL; drop the stdio transport to connect over HTTP.`);
  }
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    return fail(`Unsupported URL scheme "${scheme}:" in ${url}: remote MCP servers use http:// or https://.`);
  }
  const parsed = parseUrl(url);
  if (!parsed) return fail(`Not a valid URL: ${url}`);
  if (rest.length > 0) return fail(`A URL takes no arguments, but got: ${rest.join(' ')}`);
  if (isGiven(input.env)) return fail(`Environment variables only apply to a stdio server; ${url} is a remote server.`);
  if (input.cwd) return fail(`A working directory only applies to a stdio server; ${url} is a remote server.`);
  const headerError = checkHeaders(input.headers ?? {});
  if (headerError) return fail(headerError);
  const transport: HttpTransport = input.transport ?? 'auto';
  return ok({ kind: 'http', name: input.name || parsed.host, url, transport, headers: { ...input.headers } });
}

function parseUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.host ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 9110 field names are tokens; a CR or LF in a value would split the header. */
function checkHeaders(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return `Not a valid HTTP header name: ${quoted(name)}`;
    if (/[\r\n\0]/.test(value)) return `The value of header ${name} contains a line break.`;
  }
  return undefined;
}

function normalizeCommand(first: string, rest: string[], input: TargetInput): Result<ServerConfig> {
  if (input.transport === 'http' || input.transport === 'sse') {
    return fail(`Transport ${input.transport} needs an http(s):// URL, but ${quoted(first)} is a command.`);
  }
  if (isGiven(input.headers)) {
    return fail(`HTTP headers only apply to a remote (URL) server; ${quoted(first)} is started as a stdio command.`);
  }
  const badKey = Object.keys(input.env ?? {}).find((key) => key === '' || key.includes('=') || key.includes('\0'));
  if (badKey !== undefined) return fail(`Not a valid environment variable name: ${quoted(badKey)}`);
  const runner = SCRIPT_RUNNERS.find(([pattern]) => pattern.test(first))?.[1];
  const [command, ...args] = runner ? [...runner, first, ...rest] : [first, ...rest];
  return ok({
    kind: 'stdio',
    name: input.name || deriveCommandName(command, args),
    command,
    args,
    env: { ...input.env },
    ...(input.cwd ? { cwd: input.cwd } : {}),
  });
}

/** Programs that run something named in their arguments: the name is that thing, not `npx`. */
const RUNNERS = new Set(['node', 'nodejs', 'python', 'python3', 'py', 'npx', 'pnpx', 'bunx', 'uvx', 'bun', 'deno', 'tsx', 'uv', 'pnpm', 'yarn', 'pipx']);
const RUNNER_SUBCOMMANDS = new Set(['run', 'dlx', 'exec', 'x']);

function basename(path: string): string {
  const parts = path.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/** `npx -y @scope/pkg@1` → `@scope/pkg`; `python3 -m srv` → `srv`; `node dist/index.js` → `index.js`. */
function deriveCommandName(command: string, args: string[]): string {
  if (!RUNNERS.has(basename(command).replace(/\.exe$/i, '').toLowerCase())) return basename(command);
  const subject = args.find((arg) => !arg.startsWith('-') && !RUNNER_SUBCOMMANDS.has(arg) && !RUNNERS.has(arg));
  if (subject === undefined) return basename(command);
  const scoped = /^(@[^/@]+\/[^/@]+)/.exec(subject);
  return scoped ? scoped[1] : basename(subject.replace(/(.)@[^/]*$/, '$1'));
}

// ---------------------------------------------------------------------------------------------
// mcp.json-style entries (lib/workspace/workspace.ts reads whole files with these)

type Json = Record<string, unknown>;
/** `mcpServers`: Claude Desktop, Cursor, Claude Code, Windsurf, Cline… `servers`: VS Code. */
export type Flavour = 'mcpServers' | 'servers';

/** The entry keys `parseEntry` reads; anything else in an entry is the caller's to keep or report. */
export const ENTRY_KEYS: readonly string[] = ['type', 'transport', 'transportType', 'command', 'args', 'env', 'cwd', 'url', 'serverUrl', 'headers'];

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);


/** The named-server objects of a parsed file, in file order, each with the shape it came in. */
export function findSections(data: unknown): Result<Array<[Flavour, Json]>> {
  if (!isObject(data)) return fail('Expected a JSON object with "mcpServers" or "servers" at the top level.');
  const vsCodeSettings = isObject(data.mcp) ? data.mcp.servers : undefined;
  const found: Array<[Flavour, unknown]> = [];
  if (data.mcpServers !== undefined) found.push(['mcpServers', data.mcpServers]);
  if (data.servers !== undefined) found.push(['servers', data.servers]);
  if (vsCodeSettings !== undefined) found.push(['servers', vsCodeSettings]);
  if (found.length === 0) {
    return fail('No servers found: expected "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code).');
  }
  const notObject = found.find(([, entries]) => !isObject(entries));
  if (notObject) return fail(`"${notObject[0]}" must be an object of named servers.`);
  return ok(found as Array<[Flavour, Json]>);
}

/** Spellings of `type` / `transport` seen in the wild, lower-cased without `-` and `_`. */
const TYPE_ALIASES = new Map<string, 'stdio' | 'http' | 'sse'>([
  ['stdio', 'stdio'],
  ['sse', 'sse'],
  ['http', 'http'],
  ['streamablehttp', 'http'],
]);

function entryKind(entry: Json, flavour: Flavour): Result<'stdio' | HttpTransport> {
  // `transportType` is Cline's spelling.
  const declared = entry.type ?? entry.transport ?? entry.transportType;
  const hasUrl = entry.url !== undefined || entry.serverUrl !== undefined;
  if (declared === undefined) {
    if (entry.command !== undefined && hasUrl) return fail('has both "command" and "url"; add "type" to say which.');
    if (entry.command !== undefined) return ok('stdio');
    if (hasUrl) return ok('auto');
    return fail('is neither a stdio server (no "command") nor a remote server (no "url").');
  }
  const kind = typeof declared === 'string' ? TYPE_ALIASES.get(declared.toLowerCase().replace(/[-_]/g, '')) : undefined;
  if (!kind) return fail(`unknown type ${JSON.stringify(declared)} (expected "stdio", "http" or "sse").`);
  // VS Code's "http" tries Streamable HTTP and falls back to SSE; elsewhere "http" means exactly that.
  return ok(kind === 'http' && flavour === 'servers' ? 'auto' : kind);
}

/**
 * One server entry of any supported file → a normalised config (the one normaliser: the CLI, the
 * workspace and the connection form all end in `normalizeTarget`). An empty `name` derives one.
 */
export function parseEntry(name: string, entry: unknown, flavour: Flavour): Result<ServerConfig> {
  if (!isObject(entry)) return fail('expected an object with "command" (stdio) or "url" (remote).');
  const kind = entryKind(entry, flavour);
  if (!kind.ok) return kind;
  const env = readStringRecord(entry, 'env');
  if (!env.ok) return env;
  const headers = readStringRecord(entry, 'headers');
  if (!headers.ok) return headers;
  const cwd = readString(entry, 'cwd');
  if (!cwd.ok) return cwd;
  const common = { name, env: env.value, headers: headers.value, cwd: cwd.value };
  return kind.value === 'stdio' ? parseStdioEntry(entry, common) : parseUrlEntry(entry, kind.value, common);
}

type Common = Omit<TargetInput, 'target' | 'transport'>;

function parseStdioEntry(entry: Json, common: Common): Result<ServerConfig> {
  const command = readString(entry, 'command');
  if (!command.ok) return command;
  if (!command.value) return fail('type "stdio" needs a "command".');
  if (entry.url !== undefined || entry.serverUrl !== undefined) return fail('a stdio server has no "url".');
  const args = readStringArray(entry, 'args');
  if (!args.ok) return args;
  return normalizeTarget({ ...common, target: [command.value, ...args.value], transport: 'stdio' });
}

function parseUrlEntry(entry: Json, transport: HttpTransport, common: Common): Result<ServerConfig> {
  const url = readString(entry, entry.url !== undefined ? 'url' : 'serverUrl');
  if (!url.ok) return url;
  if (!url.value) return fail('a remote server needs a "url".');
  if (!URL_SCHEME.test(url.value)) return fail(`"url" must start with http:// or https://, got ${quoted(url.value)}.`);
  if (entry.command !== undefined) return fail('a remote server has no "command".');
  return normalizeTarget({ ...common, target: [url.value], transport: transport === 'auto' ? undefined : transport });
}

function readString(entry: Json, key: string): Result<string | undefined> {
  const value = entry[key];
  return value === undefined || typeof value === 'string' ? ok(value) : fail(`"${key}" must be a string.`);
}

function readStringArray(entry: Json, key: string): Result<string[]> {
  const value = entry[key] ?? [];
  const isStrings = Array.isArray(value) && value.every((item) => typeof item === 'string');
  return isStrings ? ok(value as string[]) : fail(`"${key}" must be an array of strings.`);
}

function readStringRecord(entry: Json, key: string): Result<Record<string, string>> {
  const value = entry[key] ?? {};
  if (!isObject(value)) return fail(`"${key}" must be an object of strings.`);
  const bad = Object.entries(value).find(([, v]) => typeof v !== 'string');
  return bad ? fail(`"${key}" must be an object of strings (${quoted(bad[0])} is not a string).`) : ok(value as Record<string, string>);
}


// ---------------------------------------------------------------------------------------------
// Picking and showing


/** One line a person would recognise: `node server.js --flag`, or the URL. Env and headers are left out (secrets). */
export function describeConfig(config: ServerConfig): string {
  if (config.kind === 'http') return config.url;
  return [config.command, ...config.args].map(shellQuote).join(' ');
}

/** POSIX single quotes, only where a shell would need them. */
function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_\-+=.,/:@%]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
