/**
 * One server as text to copy (issue 9, "Import and export"), each form importable back with
 * parseImport. Secrets are references, never values: every form starts from secretsAsReferences.
 *
 * - `mcpServers`: `{"NAME": {…}}`, the entry Claude Desktop, Cursor, Claude Code, Windsurf and Cline read.
 * - `vscode`: a `.vscode/mcp.json` with that one server (and the `inputs` its secrets need).
 * - `loupe-cli`: `npx mcp-loupe [--transport http|sse] [-e K=V]… [--header "N: V"]… [--cwd DIR] target`,
 *   the options of proxy/command-line/options.ts's USAGE. The CLI derives the name, so the name is not in it.
 * - `claude-mcp-add`: `claude mcp add [-e K=V]… NAME -- command args` for stdio and
 *   `claude mcp add --transport http|sse [-H "N: V"]… NAME URL` for remote, options before the name
 *   as https://code.claude.com/docs/en/mcp requires. Claude Code's "http" is Streamable HTTP only,
 *   so Loupe's "try both" exports as http.
 */
import { joinArgs } from './command-line.ts';
import type { ServerConfig } from '../model/server-config.ts';
import { referencesOf, secretsAsReferences } from '../workspace/references.ts';
import { serializeWorkspace, serverEntry } from '../workspace/serialize.ts';
import type { InputDecl, WorkspaceServer } from '../workspace/types.ts';

export type ExportFormat = 'mcpServers' | 'vscode' | 'loupe-cli' | 'claude-mcp-add';

export const EXPORT_FORMATS: ReadonlyArray<{ format: ExportFormat; label: string }> = [
  { format: 'mcpServers', label: 'mcpServers entry' },
  { format: 'vscode', label: 'VS Code' },
  { format: 'loupe-cli', label: 'npx mcp-loupe' },
  { format: 'claude-mcp-add', label: 'claude mcp add' },
];

/**
 * One server as text to copy, in the chosen form (see the module comment). `inputs`: the
 * workspace's declarations, so that the VS Code form declares the inputs the server uses
 * (optional addition; without it each is declared as a password prompt).
 */
export function exportServer(server: WorkspaceServer, format: ExportFormat, inputs: readonly InputDecl[] = []): string {
  const redacted = secretsAsReferences(server, inputs);
  const safe = redacted.server;
  switch (format) {
    case 'mcpServers':
      return JSON.stringify(Object.fromEntries([[safe.name, serverEntry(safe, 'mcpServers')]]), null, 2);
    case 'vscode':
      return serializeWorkspace({ flavour: 'servers', servers: [{ ...safe, extras: {} }], inputs: declared(safe, [...inputs, ...redacted.inputs]), notes: [] }).trimEnd();
    case 'loupe-cli':
      return joinArgs(['npx', 'mcp-loupe', ...loupeOptions(safe.config), ...targetWords(safe.config)]);
    case 'claude-mcp-add':
      return joinArgs(['claude', 'mcp', 'add', ...claudeWords(safe)]);
  }
}

function declared(server: WorkspaceServer, inputs: readonly InputDecl[]): InputDecl[] {
  return referencesOf(server.config).inputs.map(
    (id) => inputs.find((i) => i.id === id) ?? { id, type: 'promptString', password: true },
  );
}

function loupeOptions(config: ServerConfig): string[] {
  if (config.kind === 'http') {
    const transport = config.transport === 'auto' ? [] : ['--transport', config.transport];
    return [...transport, ...Object.entries(config.headers).flatMap(([n, v]) => ['--header', `${n}: ${v}`])];
  }
  const env = Object.entries(config.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return [...env, ...(config.cwd !== undefined ? ['--cwd', config.cwd] : [])];
}

/** The target; `--` first when the command itself starts with `-` (the CLI would take it for an option). */
function targetWords(config: ServerConfig): string[] {
  if (config.kind === 'http') return [config.url];
  return [...(config.command.startsWith('-') ? ['--'] : []), config.command, ...config.args];
}

function claudeWords(server: WorkspaceServer): string[] {
  const config = server.config;
  if (config.kind === 'http') {
    const headers = Object.entries(config.headers).flatMap(([n, v]) => ['-H', `${n}: ${v}`]);
    return ['--transport', config.transport === 'sse' ? 'sse' : 'http', ...headers, server.name, config.url];
  }
  // Claude Code has no working-directory option; a cwd cannot be carried over.
  const env = Object.entries(config.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return [...env, server.name, '--', config.command, ...config.args];
}

/** Tool names as hosts namespace them: `${server}__${tool}`. */
export function namespacedToolName(server: string, tool: string): string {
  return `${server}__${tool}`;
}

export interface NamespacedTool {
  name: string;
  server: string;
  tool: string;
  /** Why a host would refuse or confuse it: a clash with another server's tool, or over 64 characters. */
  problem?: string;
}

/** Hosts (and the model APIs behind them) commonly cap tool names at 64 characters. */
export const TOOL_NAME_LIMIT = 64;

/** The namespaced names of many servers' tools, with clashes and over-long names pointed out. Addition. */
export function namespaceTools(tools: ReadonlyArray<{ server: string; tool: string }>): NamespacedTool[] {
  const named = tools.map((t) => ({ ...t, name: namespacedToolName(t.server, t.tool) }));
  return named.map((t) => {
    const clash = named.find((o) => o !== t && o.name === t.name);
    if (clash) return { ...t, problem: `Same name as ${clash.tool} on ${clash.server}` };
    if (t.name.length > TOOL_NAME_LIMIT) return { ...t, problem: `Longer than ${TOOL_NAME_LIMIT} characters` };
    return t;
  });
}
