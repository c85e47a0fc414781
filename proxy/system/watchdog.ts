/**
 * Children die with Loupe, even when Loupe is killed with SIGKILL (issue 8, "Stop means stop").
 *
 * Node has no prctl(PR_SET_PDEATHSIG), and that is Linux-only anyway. So each stdio server gets a
 * tiny `/bin/sh` watchdog (about 1 MB resident, not a second Node process) whose stdin is a pipe
 * from Loupe and which blocks on `read`:
 * - Loupe ends normally: once the server's process group is gone, it writes `release`; the
 *   watchdog exits without touching anything.
 * - Loupe dies in any way (SIGKILL, crash, the 5 s hard exit): the kernel closes Loupe's end of the
 *   pipe, `read` sees EOF, and the watchdog SIGTERMs the server's process group, waits the grace
 *   while the group still exists, then SIGKILLs it and exits.
 * The watchdog lives in its own session (`detached`, setsid): Ctrl-C in a terminal (SIGINT to the
 * foreground group) and SIGHUP on closing the terminal never reach it, so it cannot kill early;
 * it ignores INT and HUP besides. It cannot outlive Loupe (EOF when Loupe goes) nor the server
 * group (released when the group is gone, or it ends after its own SIGKILL). libuv creates child
 * stdio pipes close-on-exec, so no server inherits the write end and keeps the watchdog waiting.
 *
 * Works with dash, bash (macOS /bin/sh) and any POSIX sh: `kill -s SIG -- -PGID` is the one
 * spelling of a group kill that both accept.
 *
 * Windows gets no watchdog: there are no process groups to signal, and Node exposes no Job Object
 * (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE would be the equivalent). Loupe stops a tree there with
 * `taskkill /T /F` (stdio-transport.ts); if Loupe itself is killed, a server survives unless it exits
 * when its stdin closes, as most stdio MCP servers do.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const SCRIPT = [
  "trap '' INT HUP",
  'IFS= read -r line',
  '[ "$line" = release ] && exit 0',
  'kill -s TERM -- "-$1" 2>/dev/null || exit 0',
  'i=0',
  'while [ "$i" -lt "$2" ] && kill -s 0 -- "-$1" 2>/dev/null; do sleep 0.1; i=$((i+1)); done',
  'kill -s KILL -- "-$1" 2>/dev/null',
  'exit 0',
].join('\n');

/** How long a release may take before Loupe stops waiting for the watchdog to exit. */
const RELEASE_WAIT_MS = 1_000;

export interface Watchdog {
  readonly pid: number | undefined;
  /** The group is gone: the watchdog exits without killing. Resolves once it has exited. */
  release(): Promise<void>;
}

/** Starts a watchdog for process group `pgid`; undefined where there are no process groups (Windows). */
export function watchProcessGroup(pgid: number, graceMs: number): Watchdog | undefined {
  if (process.platform === 'win32') return undefined;
  let child: ChildProcess;
  try {
    const ticks = String(Math.max(1, Math.ceil(graceMs / 100)));
    child = spawn('/bin/sh', ['-c', SCRIPT, 'loupe-watchdog', String(pgid), ticks], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
  } catch {
    return undefined;
  }
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  // An EPIPE after the watchdog is gone must not become an uncaught exception.
  child.stdin?.on('error', () => undefined);
  // The watchdog never keeps Loupe's event loop alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  let released: Promise<void> | undefined;
  return {
    pid: child.pid,
    release: () =>
      (released ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.stdin?.end('release\n');
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, RELEASE_WAIT_MS)))]);
        clearTimeout(timer);
      })()),
  };
}
