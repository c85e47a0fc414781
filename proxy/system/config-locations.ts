/**
 * The MCP config files of the hosts Loupe knows, where they live on this OS (issue 9,
 * `list-config-locations`): offered for import when they exist. Read-only: Loupe never writes
 * them (workspace-file.ts refuses to save over them).
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConfigLocation } from '../../lib/wire/wire.ts';

export interface LocationContext {
  home: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** The folder Loupe was started in (project files: .cursor/mcp.json, .vscode/mcp.json, .mcp.json). */
  cwd: string;
}

export interface KnownLocation {
  app: string;
  path: string;
  /** ~/.claude.json keeps much more than servers: only its `mcpServers` and this project's are offered. */
  claudeJson?: boolean;
}

/** A text bigger than this is not sent to the page (a config is a few kB). */
const MAX_TEXT = 1024 * 1024;

export function currentContext(cwd: string): LocationContext {
  return { home: os.homedir(), platform: process.platform, env: process.env, cwd };
}

/** The OS's per-user application-config folder (where Claude Desktop and VS Code keep theirs). */
function appConfigDir(ctx: LocationContext): string {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  if (ctx.platform === 'darwin') return p.join(ctx.home, 'Library', 'Application Support');
  if (ctx.platform === 'win32') return ctx.env.APPDATA ?? p.join(ctx.home, 'AppData', 'Roaming');
  return ctx.env.XDG_CONFIG_HOME || p.join(ctx.home, '.config');
}

export function knownLocations(ctx: LocationContext): KnownLocation[] {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  const config = appConfigDir(ctx);
  const codeUser = p.join(config, 'Code', 'User');
  return [
    { app: 'Claude Desktop', path: p.join(config, 'Claude', 'claude_desktop_config.json') },
    { app: 'Cursor', path: p.join(ctx.home, '.cursor', 'mcp.json') },
    { app: 'Cursor', path: p.join(ctx.cwd, '.cursor', 'mcp.json') },
    { app: 'VS Code', path: p.join(codeUser, 'mcp.json') },
    { app: 'VS Code', path: p.join(ctx.cwd, '.vscode', 'mcp.json') },
    { app: 'Windsurf', path: p.join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json') },
    { app: 'Claude Code', path: p.join(ctx.cwd, '.mcp.json') },
    { app: 'Claude Code', path: p.join(ctx.home, '.claude.json'), claudeJson: true },
    { app: 'Cline', path: p.join(codeUser, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json') },
  ];
}

/** The known files that exist, each with its text and server count, or why it could not be read. */
export async function listConfigLocations(ctx: LocationContext): Promise<ConfigLocation[]> {
  const found = await Promise.all(knownLocations(ctx).map((known) => readLocation(known, ctx.cwd)));
  return found.filter((l): l is ConfigLocation => l !== undefined);
}

async function readLocation(known: KnownLocation, cwd: string): Promise<ConfigLocation | undefined> {
  let text: string;
  try {
    text = await readFile(known.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : { app: known.app, path: known.path, error: `Could not read it: ${(error as Error).message}` };
  }
  if (known.claudeJson) {
    const servers = claudeJsonServers(text, cwd);
    if (!servers.ok) return { app: known.app, path: known.path, error: servers.error };
    if (servers.count === 0) return undefined;
    text = servers.text;
  }
  if (text.length > MAX_TEXT) return { app: known.app, path: known.path, error: `It is ${text.length} characters long, more than Loupe imports.` };
  // Loaded when a tab first asks for the known files: the workspace reader is not on the way to the first screen.
  const { parseWorkspace } = await import('../../lib/workspace/workspace.ts');
  const parsed = parseWorkspace(text);
  return parsed.ok ? { app: known.app, path: known.path, servers: parsed.value.servers.length, text } : { app: known.app, path: known.path, text, error: parsed.error };
}

/** Claude Code's user file: its `mcpServers`, and those of this project (`projects[cwd].mcpServers`, which win on a clash). */
function claudeJsonServers(text: string, cwd: string): { ok: true; text: string; count: number } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: 'It is not JSON.' };
  }
  const record = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const root = record(data);
  const project = record(record(root.projects)[cwd]);
  const mcpServers = { ...record(root.mcpServers), ...record(project.mcpServers) };
  return { ok: true, text: `${JSON.stringify({ mcpServers }, null, 2)}\n`, count: Object.keys(mcpServers).length };
}
