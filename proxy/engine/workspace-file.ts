/**
 * Writing the workspace file (issue 9, `save-workspace`): to the file given by --config or the one
 * the page names, relative names resolved against the folder Loupe was started in. Nothing odd is
 * followed: no symbolic links, no climbing out of that folder with `..`, only .json/.jsonc files,
 * never a host's own config file (those are read-only to Loupe: config-locations.ts). A file that
 * changed on disk since Loupe read or wrote it is not replaced unless the user says so (content
 * hash). The write is atomic: a temporary file beside it, then a rename; mode 0644.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { LoupeError } from '../../lib/wire/wire.ts';

export const hashText = (text: string): string => createHash('sha256').update(text).digest('hex');

export type SaveOutcome =
  | { ok: true; path: string; hash: string }
  | { ok: false; conflict: true; path: string; reason: string }
  | { ok: false; conflict: false; error: LoupeError };

export interface SaveRequest {
  text: string;
  /** What the page gave (absent: `currentPath`). */
  given?: string;
  /** The workspace's file (read with --config, or saved to before), absolute. */
  currentPath?: string;
  /** Hash of `currentPath`'s text when Loupe last read or wrote it. */
  knownHash?: string;
  overwrite: boolean;
  /** The folder Loupe was started in. */
  cwd: string;
  /** Host config files Loupe never writes. */
  readOnly: readonly string[];
}

const refuse = (message: string, hint?: string): SaveOutcome => ({ ok: false, conflict: false, error: { code: 'BAD_MESSAGE', message, hint } });

/** Where to write, or why not. Relative names are resolved against the launch folder (and may not leave it). */
export function resolveSavePath(given: string | undefined, currentPath: string | undefined, cwd: string): { ok: true; path: string } | { ok: false; message: string } {
  const name = given ?? currentPath;
  if (name === undefined || name.trim() === '') return { ok: false, message: 'There is no workspace file yet (Loupe was not started with --config): give a file name to save to.' };
  if (name.includes('\0')) return { ok: false, message: 'That file name holds a NUL character.' };
  const resolved = path.resolve(cwd, name);
  if (!path.isAbsolute(name)) {
    const inside = path.relative(cwd, resolved);
    if (inside.startsWith('..') || path.isAbsolute(inside)) {
      return { ok: false, message: `${name} leads out of the folder Loupe was started in (${cwd}): give an absolute path to save elsewhere.` };
    }
  }
  if (!/\.jsonc?$/i.test(resolved)) return { ok: false, message: `Loupe saves workspaces as .json files; ${name} is not one.` };
  return { ok: true, path: resolved };
}

export async function saveWorkspaceFile(request: SaveRequest): Promise<SaveOutcome> {
  const where = resolveSavePath(request.given, request.currentPath, request.cwd);
  if (!where.ok) return refuse(where.message);
  const target = where.path;
  if (request.readOnly.some((p) => path.resolve(p) === target)) {
    return refuse(`${target} is another application's MCP config; Loupe only reads it.`, 'Save the workspace to a file of its own.');
  }
  const checked = await checkTarget(target, request);
  if (checked) return checked;
  try {
    await writeAtomically(target, request.text);
  } catch (error) {
    return refuse(`Could not write ${target}: ${(error as Error).message}`);
  }
  return { ok: true, path: target, hash: hashText(request.text) };
}

/** A refusal or a conflict, or undefined when the file may be written. */
async function checkTarget(target: string, request: SaveRequest): Promise<SaveOutcome | undefined> {
  const dir = await stat(path.dirname(target)).catch(() => undefined);
  if (!dir?.isDirectory()) return refuse(`The folder ${path.dirname(target)} does not exist.`);
  const existing = await lstat(target).catch(() => undefined);
  if (!existing) return undefined;
  if (existing.isSymbolicLink()) return refuse(`${target} is a symbolic link; Loupe does not write through links.`, 'Give the path of the file itself.');
  if (!existing.isFile()) return refuse(`${target} is not a regular file.`);
  if (request.overwrite) return undefined;
  const known = target === request.currentPath ? request.knownHash : undefined;
  if (known === undefined) return { ok: false, conflict: true, path: target, reason: 'A file of that name exists already, and Loupe did not read it.' };
  const now = await readFile(target, 'utf8').catch(() => undefined);
  if (now !== undefined && hashText(now) === known) return undefined;
  return { ok: false, conflict: true, path: target, reason: 'The file changed on disk since Loupe read or last saved it.' };
}

async function writeAtomically(target: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    // The mode given to open is cut by the umask; the file is meant to be shared (0644).
    await handle.chmod(0o644);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
