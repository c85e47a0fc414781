/**
 * Whether a process runs, apart from process-group.ts so that what the CLI loads before its port
 * listens (runtime-state.ts) does not load node:child_process with it (bench/cold-start.mjs).
 */

/** kill(pid, 0): false once the process is gone (or is another user's, so not one Loupe started). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

