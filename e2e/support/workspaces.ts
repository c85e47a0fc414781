/**
 * Workspace files for the multi-server specs (issue 9): a temporary mcp.json, and the reference
 * servers as its entries.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVERYTHING } from './servers.ts';

const require = createRequire(import.meta.url);
export const MEMORY = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');

/** Writes `{ mcpServers: servers }` to a new temporary mcp.json and returns its path. */
export function workspaceFile(servers: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'loupe-e2e-workspace-')), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

/** server-memory over stdio, with a memory file of its own. */
export function memoryEntry(): Record<string, unknown> {
  return { command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(mkdtempSync(join(tmpdir(), 'loupe-memory-')), 'memory.jsonl') } };
}

/** server-everything over stdio, marked by an env value its get-env tool shows. */
export function everythingEntry(who = 'the-stdio-everything'): Record<string, unknown> {
  return { command: 'node', args: [EVERYTHING, 'stdio'], env: { LOUPE_E2E_WHO: who } };
}

/** The three-server workspace of issue 9: everything over stdio, memory over stdio, everything over Streamable HTTP. */
export function threeServers(httpBase: string): string {
  return workspaceFile({ 'everything-stdio': everythingEntry(), memory: memoryEntry(), 'everything-http': { url: `${httpBase}/mcp` } });
}
