/**
 * Loupe as a black box: start the CLI, read the URL it prints, stop it with a signal.
 * Only what docs/contract.md promises is relied on here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, commandOf, descendants, isAlive, killAll, pollUntil, spawnProc, stopProc, waitForOutput, type Exit, type Proc, type SpawnOptions } from './processes.ts';

export const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');

/** The start-up line: `http://127.0.0.1:<port>/?token=<token>` (docs/contract.md, "Command line"). */
export const URL_PATTERN = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([^\s&#"'<>]+)/;

export interface Loupe {
  /** The URL exactly as printed, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  wsUrl: string;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  output: () => string;
  proc: Proc;
  /** SIGTERM (or `signal`) and wait; SIGKILL after 10 s (`forced`). Idempotent. */
  stop: (signal?: NodeJS.Signals) => Promise<StopResult>;
}

export interface StopResult extends Exit {
  forced: boolean;
  /** Descendants that were still alive after Loupe exited (then killed, so nothing leaks). */
  leaked: string[];
}

export interface LaunchOptions extends SpawnOptions {
  /** Run this instead of `node dist/proxy/cli.js` (the packaging test runs `npx <tarball>`). */
  command?: [string, ...string[]];
  /** Default: `--no-open --port 0`. */
  options?: string[];
  startTimeoutMs?: number;
}

/** Start Loupe with `target` (a command and its args, a URL, or nothing for the bundled demo). */
export async function launchLoupe(target: string[] = [], opts: LaunchOptions = {}): Promise<Loupe> {
  const [command, ...prefix] = opts.command ?? [process.execPath, CLI];
  if (!opts.command && !existsSync(CLI)) {
    throw new Error(`${CLI} does not exist: run \`npm run build\` first (\`npm test\` does).`);
  }
  const args = [...prefix, ...(opts.options ?? ['--no-open', '--port', '0']), ...target];
  const proc = spawnProc(command, args, opts);
  let match: RegExpMatchArray;
  try {
    match = await waitForOutput(proc, proc.stdout, URL_PATTERN, opts.startTimeoutMs ?? 60_000, 'Loupe start-up');
  } catch (error) {
    await stopProc(proc, 'SIGKILL', 1_000);
    throw error;
  }
  const port = Number(match[1]);
  const token = match[2];
  const origin = `http://127.0.0.1:${port}`;
  let stopped: Promise<StopResult> | undefined;
  return {
    url: match[0],
    origin,
    port,
    token,
    wsUrl: `ws://127.0.0.1:${port}/ws?token=${token}`,
    pid: proc.pid,
    stdout: proc.stdout,
    stderr: proc.stderr,
    output: proc.output,
    proc,
    stop: (signal: NodeJS.Signals = 'SIGTERM') => (stopped ??= stopAndSweep(proc, signal)),
  };
}

async function stopAndSweep(proc: Proc, signal: NodeJS.Signals): Promise<StopResult> {
  const before = proc.exit() ? [] : descendants(proc.pid).map((pid) => ({ pid, command: commandOf(pid) }));
  const exit = await stopProc(proc, signal);
  // Loupe may exit a moment before the kernel has taken down what it killed on its way out.
  await pollUntil(() => before.every((p) => !isAlive(p.pid)), 2_000, 50);
  const left = before.filter((p) => isAlive(p.pid));
  killAll(left.map((p) => p.pid));
  return { ...exit, leaked: left.map((p) => `${p.pid} ${p.command}`) };
}
