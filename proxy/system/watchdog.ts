/**
 * Children die with Loupe, even when Loupe is killed with SIGKILL (issue 8, "Stop means stop").
 *
 * Node has no prctl(PR_SET_PDEATHSIG), and that is Linux-only anyway. So Loupe keeps one tiny
 * `/bin/sh` watchdog (about 1.7 MB resident, not a second Node process) for all the process groups
 * it started, whose stdin is a pipe from Loupe: each group is announced (`watch PGID`) as it
 * starts and `release`d once it is gone, and the shell keeps the list.
 * - Loupe ends normally: every group is released; with none left, Loupe closes the pipe and waits
 *   for the watchdog to exit, which then touches nothing. The next group starts a new one.
 * - Loupe dies in any way (SIGKILL, crash, the 5 s hard exit): the kernel closes Loupe's end of the
 *   pipe, `read` sees EOF, and the watchdog SIGTERMs every group still on its list, waits the grace
 *   while any of them still exists, then SIGKILLs them and exits.
 * One for all, not one per server: ten servers cost one `/bin/sh` spawn (a fork of Loupe, ~2.5 ms
 * of its main thread each) and one process, not ten (bench/workspace.mjs).
 * The watchdog lives in its own session (`detached`, setsid): Ctrl-C in a terminal (SIGINT to the
 * foreground group) and SIGHUP on closing the terminal never reach it, so it cannot kill early;
 * it ignores INT and HUP besides. It cannot outlive Loupe (EOF when Loupe goes). libuv creates
 * child stdio pipes close-on-exec, so no server inherits the write end and keeps the watchdog
 * waiting. The list is kept with parameter expansion only: the shell starts no other program
 * until it must kill.
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
  'groups=" "',
  'while IFS=" " read -r verb group; do',
  '  case "$verb $groups" in',
  '    "watch "*) groups="$groups$group ";;',
  '    "release "*" $group "*) groups="${groups%% $group *} ${groups#* $group }";;',
  '  esac',
  'done',
  'for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done',
  'i=0',
  'while [ "$i" -lt "$1" ]; do',
  '  alive=',
  '  for g in $groups; do kill -s 0 -- "-$g" 2>/dev/null && alive=1; done',
  '  [ -z "$alive" ] && exit 0',
  '  sleep 0.1',
  '  i=$((i+1))',
  'done',
  'for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done',
  'exit 0',
].join('\n');

/** How long closing the watchdog may take before Loupe stops waiting for it to exit. */
const RELEASE_WAIT_MS = 1_000;

export interface Watchdog {
  readonly pid: number | undefined;
  /** The group is gone: it leaves the watchdog's list (the last one out ends the watchdog, awaited). */
  release(): Promise<void>;
}

/** The one watchdog, while any group is on its list. */
interface Shared {
  child: ChildProcess;
  exited: Promise<void>;
  /** Groups watched and not yet released. */
  count: number;
}

let shared: Shared | undefined;

function startShared(graceMs: number): Shared | undefined {
  let child: ChildProcess;
  try {
    const ticks = String(Math.max(1, Math.ceil(graceMs / 100)));
    child = spawn('/bin/sh', ['-c', SCRIPT, 'loupe-watchdog', ticks], {
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
  const started: Shared = { child, exited, count: 0 };
  // Gone on its own (killed by someone): the next group starts a new one.
  void exited.then(() => {
    if (shared === started) shared = undefined;
  });
  // An EPIPE after the watchdog is gone must not become an uncaught exception.
  child.stdin?.on('error', () => undefined);
  // The watchdog never keeps Loupe's event loop alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return started;
}

/**
 * Puts process group `pgid` on the watchdog's list (starting the watchdog when none runs);
 * undefined where there are no process groups (Windows). `graceMs`: how long the watchdog waits
 * between SIGTERM and SIGKILL; the watchdog keeps the one it was started with (Loupe has one).
 */
export function watchProcessGroup(pgid: number, graceMs: number): Watchdog | undefined {
  if (process.platform === 'win32') return undefined;
  shared ??= startShared(graceMs);
  const watching = shared;
  if (!watching) return undefined;
  watching.count += 1;
  watching.child.stdin?.write(`watch ${pgid}\n`);
  let released: Promise<void> | undefined;
  return {
    pid: watching.child.pid,
    release: () => (released ??= releaseGroup(watching, pgid)),
  };
}

async function releaseGroup(watching: Shared, pgid: number): Promise<void> {
  const { child } = watching;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.write(`release ${pgid}\n`);
  watching.count -= 1;
  if (watching.count > 0) return;
  // The last group is gone: the watchdog ends (EOF, with nothing on its list), and Loupe waits for it.
  if (shared === watching) shared = undefined;
  child.stdin?.end();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([watching.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, RELEASE_WAIT_MS)))]);
  clearTimeout(timer);
}
