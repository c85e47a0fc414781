/**
 * The workspace of issue 9: parse any mcp.json-style file, write it back, merge imports, and read
 * whatever a user pastes. The public surface of lib/workspace-*.ts (the agreed "lib API").
 */
import { parseCommandLine, tokenize } from '../config/command-line.ts';
import { afterLoupe, claudeMcpAddTarget, loupeCliTarget } from '../config/command-import.ts';
import { parseJsonc, stripJsonComments } from '../json/jsonc.ts';
import { isObject, normalizeTarget, parseEntry, type TargetInput } from '../config/server-config.ts';
import { isReference } from './references.ts';
import { workspaceFromData } from './parse.ts';
import type { Result, Workspace, WorkspaceServer } from './types.ts';

export type { InputDecl, Result, SavedCall, SavedQuery, ServerExtras, Workspace, WorkspaceServer } from './types.ts';
export { EXTRAS_KEY, InputDeclSchema, SavedCallSchema, SavedQuerySchema } from './types.ts';
export { parseWorkspace } from './parse.ts';
export { serializeWorkspace, serverEntry } from './serialize.ts';
export {
  classifyReference, isReference, placeholdersOf, referencesOf, resolveReferences, secretInputId, secretsAsReferences,
  type ReferenceValues, type Resolved,
} from './references.ts';

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });
const quoted = (s: string): string => JSON.stringify(s);

/** Adds `incoming` to `existing` names: a clash keeps both, the second renamed NAME-2 (NAME-3…), with a note. */
export function mergeServers(existing: readonly WorkspaceServer[], incoming: readonly WorkspaceServer[]): { servers: WorkspaceServer[]; notes: string[] } {
  const servers = [...existing];
  const notes: string[] = [];
  const taken = (name: string): boolean => servers.some((s) => s.name === name);
  for (const server of incoming) {
    if (!taken(server.name)) {
      servers.push(server);
      continue;
    }
    let n = 2;
    while (taken(`${server.name}-${n}`)) n += 1;
    const name = `${server.name}-${n}`;
    notes.push(`Server ${quoted(server.name)} already exists; the imported one is named ${quoted(name)}.`);
    servers.push({ ...server, name, config: { ...server.config, name } });
  }
  return { servers, notes };
}

/** What the user pasted: a file or a single entry in any format, or a command line (or a URL). */
export function parseImport(text: string): Result<Workspace> {
  const trimmed = text.trim();
  if (trimmed === '') return fail('Nothing to import: paste a config file, one server entry, a command line or a URL.');
  const json = stripJsonComments(trimmed).trim();
  if (json.startsWith('{') || json.startsWith('[')) {
    const parsed = parseJsonc(trimmed);
    return parsed.ok ? importJson(parsed.value) : parsed;
  }
  return importLine(trimmed);
}

const isEntry = (value: unknown): boolean =>
  isObject(value) && (value.command !== undefined || value.url !== undefined || value.serverUrl !== undefined);

function importJson(data: unknown): Result<Workspace> {
  if (isObject(data) && (data.mcpServers !== undefined || data.servers !== undefined || isObject(data.mcp))) return workspaceFromData(data);
  if (isEntry(data)) {
    // One entry without a name: the name is derived the way the CLI derives it.
    const config = parseEntry('', data, 'mcpServers');
    if (!config.ok) return fail(`The pasted entry: ${config.error}`);
    return workspaceFromData({ mcpServers: { [config.value.name ?? 'server']: data } });
  }
  if (isObject(data) && Object.keys(data).length > 0 && Object.values(data).every(isEntry)) {
    return workspaceFromData({ mcpServers: data });
  }
  return fail('Not a server list: expected "mcpServers" or "servers", one entry with "command" or "url", or named entries {"name": {…}}.');
}

function importLine(line: string): Result<Workspace> {
  const words = parseCommandLine(line);
  if (!words.ok) return words;
  const { command, args, env } = words.value;
  let input: TargetInput;
  if (command === 'claude' && args[0] === 'mcp' && args[1] === 'add') {
    const read = claudeMcpAddTarget(args.slice(2));
    if (!read.ok) return read;
    input = read.value;
  } else {
    const loupeArgs = afterLoupe(command, args);
    const read = loupeArgs ? loupeCliTarget(loupeArgs) : undefined;
    if (read && !read.ok) return read;
    input = read ? read.value : { target: [command, ...args], env };
  }
  const config = normalizeTarget(input);
  if (!config.ok) return config;
  const name = config.value.name ?? 'server';
  const server: WorkspaceServer = {
    name,
    config: { ...config.value, name },
    disabled: false,
    secretEnv: Object.entries(input.env ?? {}).filter(([, v]) => isReference(v)).map(([k]) => k),
    secretHeaders: Object.entries(input.headers ?? {}).filter(([, v]) => isReference(v)).map(([k]) => k),
    extras: {},
  };
  return { ok: true, value: { flavour: 'mcpServers', servers: [server], inputs: [], notes: lineNotes(line) } };
}

/** A pasted line with `$VAR` in it: the shell would have expanded it; Loupe does not. */
function lineNotes(line: string): string[] {
  const tokens = tokenize(line);
  const vars = tokens.ok ? tokens.tokens.filter((t) => /\$[A-Za-z_]/.test(t.raw) && !/'/.test(t.raw)).map((t) => t.raw) : [];
  return vars.length > 0 ? [`${vars.join(', ')}: shell variables are not expanded; use \${env:NAME} to read Loupe's environment.`] : [];
}
