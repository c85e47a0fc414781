/**
 * `--watch [PATH]…` (issue 25): which files a stdio server is made of, and a watcher that says,
 * once the saving has settled, which of them changed. Node's own `fs.watch` (recursive on Linux
 * since Node 20) rather than a watcher library: Loupe needs one folder tree or a few files, no
 * globbing, no polling, and every event is filtered here by the ignore list below anyway.
 */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Folders never watched: dependencies, version control, caches, and build outputs a server author does not edit. */
export const IGNORED_FOLDERS = ['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache', '.next', '.turbo', 'coverage', '.cache'];
/** Build outputs: ignored under a watched folder unless the server's script itself lives in one (then it is what changes). */
export const BUILD_FOLDERS = ['dist', 'build', 'out', 'target', 'lib-cjs', 'lib-esm'];
/** Files whose changes are an editor's, not the author's: swap files, backups, lock files. */
const IGNORED_FILE = /(^\.#|~$|\.sw[px]$|^#.*#$|\.tmp$|^\.DS_Store$|4913$)/;

export const DEFAULT_DEBOUNCE_MS = 150;

export interface WatchPlan {
  /** Absolute files or folders. */
  roots: string[];
  /** Folder names skipped under a root (IGNORED_FOLDERS plus the build outputs that apply). */
  ignored: string[];
  /** How the roots were chosen, for the start-up line: `build/ (the script's folder)`. */
  said: string;
}

/** Interpreters whose first non-option argument is the script (`node build/index.js`, `uv run server.py`). */
const SCRIPT_RUNNERS = /^(node|nodejs|bun|deno|tsx|ts-node|python\d?(\.\d+)?|uv|uvx|pipx|ruby|php|perl|npx)(\.exe)?$/i;

/**
 * The script a stdio command runs: the command itself when it is a file (`./server`), else the
 * first argument that names an existing file (`node --inspect build/index.js`, `uv run src/server.py`).
 */
export function scriptOf(command: string, args: readonly string[], cwd: string, exists: (p: string) => boolean = isFile): string | undefined {
  const here = (p: string) => path.resolve(cwd, p);
  if (SCRIPT_RUNNERS.test(path.basename(command))) {
    for (const arg of args) if (!arg.startsWith('-') && exists(here(arg))) return here(arg);
    return undefined;
  }
  return (command.includes('/') || command.includes('\\')) && exists(here(command)) ? here(command) : undefined;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * What `--watch` watches. Given paths: those (relative to `cwd`). None: the folder of the script the
 * command runs, or `cwd` when there is none to tell; build outputs under it are left out unless the
 * script itself is in one (`node build/index.js` watches build/, which `tsc --watch` rewrites).
 */
export function planWatch(options: { paths: readonly string[]; command: string; args: readonly string[]; cwd: string }): WatchPlan | { error: string } {
  const { cwd } = options;
  if (options.paths.length > 0) {
    const roots = options.paths.map((p) => path.resolve(cwd, p));
    const missing = roots.filter((r) => !existsSync(r));
    if (missing.length > 0) return { error: `--watch: no such file or folder: ${missing.join(', ')}` };
    return { roots, ignored: ignoredUnder(roots, undefined), said: roots.map((r) => (path.relative(cwd, r).startsWith('..') ? r : path.relative(cwd, r) || '.')).join(', ') };
  }
  const script = scriptOf(options.command, options.args, cwd);
  const root = script ? path.dirname(script) : path.resolve(cwd);
  const relative = path.relative(cwd, root) || '.';
  const shown = relative === '.' ? './' : relative.startsWith('..') ? `${root}/` : `${relative}/`;
  return { roots: [root], ignored: ignoredUnder([root], script), said: `${shown} (${script ? 'the script’s folder' : 'the working directory'})` };
}

function ignoredUnder(roots: readonly string[], script: string | undefined): string[] {
  const inside = (name: string) => roots.some((r) => r.split(path.sep).includes(name)) || (script !== undefined && script.split(path.sep).includes(name));
  return [...IGNORED_FOLDERS, ...BUILD_FOLDERS.filter((name) => !inside(name))];
}

/** Whether a changed path (relative to its root) is one the author made. */
export function isWatched(relative: string, ignored: readonly string[]): boolean {
  const parts = relative.split(/[\\/]/);
  if (parts.some((part) => ignored.includes(part))) return false;
  return !IGNORED_FILE.test(parts[parts.length - 1] ?? '');
}

/** A changed file as the user knows it: relative to the working directory when inside it, else to the watched folder. */
function nameOf(cwd: string, root: string, file: string): string {
  const inCwd = path.relative(cwd, file);
  return inCwd.startsWith('..') || path.isAbsolute(inCwd) ? path.relative(root, file) || path.basename(file) : inCwd;
}

export interface Watching {
  close(): void;
}

/**
 * Calls `onChange` with the changed paths (relative to the working directory) once no change has
 * come for `debounceMs`. A root that cannot be watched (removed, no permission) is said through
 * `onError` once; the others go on.
 */
export function watchFiles(plan: WatchPlan, options: { cwd: string; debounceMs?: number; onChange: (files: string[]) => void; onError?: (message: string) => void }): Watching {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    const files = [...changed].sort();
    changed.clear();
    if (files.length > 0) options.onChange(files);
  };
  const watchers: FSWatcher[] = [];
  for (const root of plan.roots) {
    // A file is watched through its folder: an editor that saves by replacing the file would
    // otherwise end the watch with the old file.
    const file = isFile(root) ? path.basename(root) : undefined;
    const folder = file ? path.dirname(root) : root;
    try {
      const watcher = watch(folder, { recursive: file === undefined, persistent: false }, (_event, name) => {
        const relative = String(name ?? '');
        if (relative === '' || (file !== undefined && relative !== file)) return;
        if (!isWatched(relative, plan.ignored)) return;
        changed.add(nameOf(options.cwd, file ? folder : root, path.join(folder, relative)));
        if (timer) clearTimeout(timer);
        timer = setTimeout(fire, debounceMs);
      });
      watcher.on('error', (error) => options.onError?.(`Stopped watching ${root}: ${error.message}`));
      watchers.push(watcher);
    } catch (error) {
      options.onError?.(`Cannot watch ${root}: ${(error as Error).message}`);
    }
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
