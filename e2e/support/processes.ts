/**
 * Process and port helpers for the e2e suite: start a process and keep its output, look at the
 * process tree, find a free loopback port. Bounded waits only.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (e2e/support/../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A spawned process whose output is kept, with a promise for its exit. */
export interface Proc {
  child: ChildProcess;
  pid: number;
  /** Send a signal to it (to its whole group when started with `group`). */
  kill: (signal: NodeJS.Signals) => void;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Exit>;
  /** Null while it runs. */
  exit: () => Exit | null;
  /** Both streams, labelled, for failure messages. */
  output: () => string;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Start it in its own process group and signal the whole group, as a terminal's Ctrl-C does.
   * For launchers like `npx`, which die of SIGTERM without passing it on to what they started.
   */
  group?: boolean;
}

const MAX_KEPT = 1_000_000;

export function spawnProc(command: string, args: string[], opts: SpawnOptions = {}): Proc {
  const child = spawn(command, args, {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.group ?? false,
  });
  let out = '';
  let err = '';
  let exit: Exit | null = null;
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out = (out + s).slice(-MAX_KEPT)));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (err = (err + s).slice(-MAX_KEPT)));
  const exited = new Promise<Exit>((done) => {
    child.on('error', (e) => {
      err += `\n[spawn error] ${e.message}`;
      exit = { code: null, signal: null };
      done(exit);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      done(exit);
    });
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${command}`);
  const pid = child.pid;
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (opts.group) process.kill(-pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  };
  return {
    child,
    pid,
    kill,
    stdout: () => out,
    stderr: () => err,
    exited,
    exit: () => exit,
    output: () => `${command} ${args.join(' ')}\n--- stdout ---\n${out}\n--- stderr ---\n${err}\n--- exit: ${JSON.stringify(exit)}`,
  };
}

/**
 * Wait until `pattern` matches what `read()` returns, the process exits, or `timeoutMs` passes.
 * Resolves with the match; rejects with the process output.
 */
export async function waitForOutput(proc: Proc, read: () => string, pattern: RegExp, timeoutMs: number, what: string): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = read().match(pattern);
    if (m) return m;
    if (proc.exit()) throw new Error(`${what}: the process exited before printing ${pattern}\n${proc.output()}`);
    if (Date.now() > deadline) throw new Error(`${what}: nothing matched ${pattern} within ${timeoutMs} ms\n${proc.output()}`);
    await sleep(50);
  }
}

/** SIGTERM (or `signal`), then SIGKILL after `graceMs`. Says whether SIGKILL was needed. */
export async function stopProc(proc: Proc, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<Exit & { forced: boolean }> {
  if (proc.exit()) return { ...proc.exit()!, forced: false };
  proc.kill(signal);
  const timeout = sleep(graceMs).then(() => null);
  const exit = await Promise.race([proc.exited, timeout]);
  if (exit) return { ...exit, forced: false };
  proc.kill('SIGKILL');
  return { ...(await proc.exited), forced: true };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** Poll `check` until it returns true or `timeoutMs` passes; returns the last answer. */
export async function pollUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The process tree

function processTable(): Array<{ pid: number; ppid: number }> {
  const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((p) => p.length === 2 && p.every(Number.isFinite))
    .map(([pid, ppid]) => ({ pid, ppid }));
}

/** Every live descendant of `pid` (children, grandchildren …), zombies excluded. */
export function descendants(pid: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const p of table) {
      if (p.ppid === parent && !found.includes(p.pid)) {
        found.push(p.pid);
        queue.push(p.pid);
      }
    }
  }
  return found.filter(isAlive);
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Linux: the state is the field after the parenthesised command name.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(0) is all we have
  }
}

/** The command line of a process, for messages. */
export function commandOf(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '(gone)';
  }
}

/** Last resort in teardown: kill whatever is left of a tree, so one failure does not leak into the next test. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
