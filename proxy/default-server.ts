/**
 * The server Loupe shows when started without a target: the official "everything" demo server,
 * shipped as a dependency, run with the same Node that runs Loupe, over stdio (no network).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerConfig } from '../lib/model/server-config.ts';

const PACKAGE = '@modelcontextprotocol/server-everything';

/**
 * Resolved through Node's module resolution from this file, so it works from the source tree
 * (proxy/) and from an installed package (node_modules/mcp-loupe/dist/proxy/), wherever npm
 * hoisted the dependency. Throws when the dependency is missing: that is a broken install.
 */
export function defaultServer(): ServerConfig {
  const require = createRequire(import.meta.url);
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${PACKAGE}/package.json`);
  } catch (e) {
    throw new Error(`The bundled demo server (${PACKAGE}) is not installed: ${(e as Error).message}`, { cause: e });
  }
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  return {
    kind: 'stdio',
    name: 'server-everything (demo)',
    // process.execPath, not "node": the user may run Loupe with a Node that is not on PATH.
    command: process.execPath,
    // The launcher's first argument picks its transport; stdio is also its default.
    args: [path.join(path.dirname(manifestPath), binEntry(manifest.bin)), 'stdio'],
    env: {},
  };
}

function binEntry(bin: string | Record<string, string> | undefined): string {
  if (typeof bin === 'string') return bin;
  return bin?.['mcp-server-everything'] ?? Object.values(bin ?? {})[0] ?? 'dist/index.js';
}
