/**
 * A Workspace → the text of its file, so that it diffs well in git (issue 9, "A workspace file"):
 * servers in workspace order; inside an entry `type, command, args, env, cwd, url, headers,
 * disabled`, then the kept keys in their order; 2-space indent; a trailing newline. Empty `args`,
 * `env` and `headers` are left out. Secret values become references (workspace-references.ts).
 *
 * `type`: a VS Code file always has one ("http" there means Streamable HTTP with SSE fallback, so
 * the no-fallback choice is recorded under `x-mcp-loupe`); an `mcpServers` file leaves it out where
 * the entry is unambiguous without it (a command is stdio, a bare url is "try both").
 */
import type { ServerConfig } from '../model/server-config.ts';
import { referencesOf, secretsAsReferences } from './references.ts';
import {
  EXTRAS_KEY, EXTRAS_VERSION,
  type FileServerExtras, type InputDecl, type Workspace, type WorkspaceServer,
} from './types.ts';

type Json = Record<string, unknown>;
type Flavour = Workspace['flavour'];

/** An own key even when it is "__proto__" (a kept key is whatever the file had). */
const put = (target: Json, key: string, value: unknown): void =>
  void Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

export function serializeWorkspace(ws: Workspace): string {
  const inputs: InputDecl[] = [...ws.inputs];
  const servers = ws.servers.map((server) => {
    const redacted = secretsAsReferences(server, inputs);
    inputs.push(...redacted.inputs);
    return redacted.server;
  });
  const entries = Object.fromEntries(servers.map((s) => [s.name, serverEntry(s, ws.flavour)]));
  const file: Json = { [ws.flavour]: entries };
  const used = usedInputs(inputs, servers);
  if (used.length > 0) file.inputs = used.map(inputEntry);
  for (const [key, value] of Object.entries(ws.other ?? {})) if (!Object.hasOwn(file, key) && key !== EXTRAS_KEY) put(file, key, value);
  const extras = extrasBlock(servers, ws.flavour, ws);
  if (extras) file[EXTRAS_KEY] = extras;
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The entry for one server, in the fixed key order (the module comment). */
export function serverEntry(server: WorkspaceServer, flavour: Flavour): Json {
  const entry: Json = {};
  const type = typeOf(server.config, flavour);
  if (type) entry.type = type;
  const config = server.config;
  if (config.kind === 'stdio') {
    entry.command = config.command;
    if (config.args.length > 0) entry.args = [...config.args];
    if (Object.keys(config.env).length > 0) entry.env = { ...config.env };
    if (config.cwd !== undefined) entry.cwd = config.cwd;
  } else {
    entry.url = config.url;
    if (Object.keys(config.headers).length > 0) entry.headers = { ...config.headers };
  }
  if (server.disabled) entry.disabled = true;
  for (const [key, value] of Object.entries(server.other ?? {})) if (!Object.hasOwn(entry, key)) put(entry, key, value);
  return entry;
}

function typeOf(config: ServerConfig, flavour: Flavour): string | undefined {
  if (config.kind === 'stdio') return flavour === 'servers' ? 'stdio' : undefined;
  if (config.transport === 'sse') return 'sse';
  if (flavour === 'servers') return 'http';
  return config.transport === 'http' ? 'http' : undefined;
}

function inputEntry(input: InputDecl): Json {
  const entry: Json = { type: input.type, id: input.id };
  if (input.description !== undefined) entry.description = input.description;
  if (input.password !== undefined) entry.password = input.password;
  if (input.default !== undefined) entry.default = input.default;
  return entry;
}

/** Inputs the user declared stay; the ones Loupe added for secrets go once nothing uses them. */
function usedInputs(inputs: InputDecl[], servers: WorkspaceServer[]): InputDecl[] {
  const used = new Set(servers.flatMap((s) => referencesOf(s.config).inputs));
  return inputs.filter((input) => !input.id.startsWith('loupe-') || used.has(input.id));
}

/** Per-server blocks under `servers`, the interception rules (issue 13) under `rules`, saved History queries (issue 26) under `queries`, test collections (issue 27) under `collections`, model evals (issue 27) under `evals`. */
function extrasBlock(servers: WorkspaceServer[], flavour: Flavour, { rules, queries, collections, evals, otlp }: Pick<Workspace, 'rules' | 'queries' | 'collections' | 'evals' | 'otlp'>): Json | undefined {
  const blocks: Array<[string, FileServerExtras]> = [];
  for (const server of servers) {
    const block: FileServerExtras = {};
    if (server.extras.clientCapabilities) block.clientCapabilities = server.extras.clientCapabilities;
    if (server.extras.savedCalls?.length) block.savedCalls = server.extras.savedCalls;
    if (server.extras.toolPins && Object.keys(server.extras.toolPins).length > 0) block.toolPins = server.extras.toolPins;
    if (flavour === 'servers' && server.config.kind === 'http' && server.config.transport === 'http') block.transport = 'http';
    if (server.config.protocol && server.config.protocol !== '2025-11-25') block.protocol = server.config.protocol;
    if (Object.keys(block).length > 0) blocks.push([server.name, block]);
  }
  const hasRules = rules !== undefined && rules.length > 0;
  const hasQueries = queries !== undefined && queries.length > 0;
  const hasCollections = collections !== undefined && collections.length > 0;
  const hasEvals = evals !== undefined && evals.cases.length > 0;
  if (blocks.length === 0 && !hasRules && !hasQueries && !hasCollections && !hasEvals && !otlp) return undefined;
  return { version: EXTRAS_VERSION, ...(blocks.length > 0 ? { servers: Object.fromEntries(blocks) } : {}), ...(hasRules ? { rules } : {}), ...(hasQueries ? { queries } : {}), ...(hasCollections ? { collections } : {}), ...(hasEvals ? { evals } : {}), ...(otlp ? { otlp } : {}) };
}
