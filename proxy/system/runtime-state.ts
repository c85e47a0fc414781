/**
 * Where a running Loupe can be found by `mcp-loupe --tap` (issue 13): a small JSON file
 * `{url, pid, version, startedAt}` in the user's runtime directory (`$XDG_RUNTIME_DIR/mcp-loupe/`,
 * else `<tmpdir>/mcp-loupe-<uid>/`). The URL carries Loupe's token, so the directory is 0700 and
 * the file 0600, written whole (a temporary file renamed over it) so that a reader never sees half
 * of one; a reader refuses a file anyone else could have written or read, or whose Loupe is gone.
 * Only node:fs here: the UI mode loads it at start.
 */
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

export interface RuntimeState {
  url: string;
  pid: number;
  version: string;
}

export interface StoredRuntimeState extends RuntimeState {
  /** Milliseconds since the epoch when that Loupe wrote the file. */
  startedAt: number;
}

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** The directory of the state file; `env` and `tmp` for tests. */
export function runtimeDir(env: Record<string, string | undefined> = process.env, tmp = tmpdir()): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && runtime.startsWith('/')) return join(runtime, 'mcp-loupe');
  return join(tmp, `mcp-loupe-${uid() ?? 'user'}`);
}

export function runtimeStatePath(dir = runtimeDir()): string {
  return join(dir, 'state.json');
}

/**
 * Writes the state file (0600, in a 0700 directory); returns the function that removes it, which
 * leaves it alone when another Loupe has written its own since. Never throws: without the file a
 * tap just does not find this Loupe, which is no reason to stop it.
 */
export function writeRuntimeState(state: RuntimeState, dir = runtimeDir()): () => void {
  const path = runtimeStatePath(dir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A directory made earlier with a wider mode (or by an umask) is narrowed; one we do not own is not used.
    const stat = lstatSync(dir);
    const me = uid();
    if (!stat.isDirectory() || (me !== undefined && stat.uid !== me)) return () => undefined;
    if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    const temporary = join(dir, `.state.${process.pid}.${Date.now()}.tmp`);
    const stored: StoredRuntimeState = { ...state, startedAt: Date.now() };
    writeFileSync(temporary, `${JSON.stringify(stored)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, path);
  } catch {
    return () => undefined;
  }
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    // Another Loupe started since and wrote its own: that one stays.
    if (readStateFile(path)?.pid !== state.pid) return;
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
}

/** The running Loupe of the state file, or undefined when there is none we can trust. */
export function readRuntimeState(dir = runtimeDir()): StoredRuntimeState | undefined {
  const path = runtimeStatePath(dir);
  try {
    const stat = lstatSync(path);
    const me = uid();
    // Someone else's file, a link, or one others could read or write: not ours to believe.
    if (!stat.isFile() || (stat.mode & 0o077) !== 0 || (me !== undefined && stat.uid !== me)) return undefined;
  } catch {
    return undefined;
  }
  const state = readStateFile(path);
  return state && processAlive(state.pid) ? state : undefined;
}

function readStateFile(path: string): StoredRuntimeState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.url !== 'string' || typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0) return undefined;
  return { url: v.url, pid: v.pid, version: typeof v.version === 'string' ? v.version : '', startedAt: typeof v.startedAt === 'number' ? v.startedAt : 0 };
}

