/**
 * The real server of `mcp-loupe --tap` (issue 13): started in its own process group, with a
 * watchdog (watchdog.ts) so that it cannot outlive the tap even when the tap is SIGKILLed, and
 * stopped as a group (SIGTERM, SIGKILL after the grace) the way stdio-transport.ts stops Loupe's own
 * servers. Its environment is the tap's own plus `-e`: the host chose the tap's environment for
 * the server it thinks it starts (API keys in its config's `env`), so none of it is filtered out
 * but MCP_LOUPE_TOKEN, Loupe's own token, which tap.ts takes out before the server starts.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import spawn from 'cross-spawn';
import type { StdioConfig } from '../../../lib/model/server-config.ts';
import { KILL_GRACE_MS, signalGroup, spawnFailure, stopGroup } from '../../system/process-group.ts';
import { watchProcessGroup, type Watchdog } from '../../system/watchdog.ts';


export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The exit code a shell would give: the server's own, or 128 + the signal's number. */
export function exitCodeOf(exit: ServerExit): number {
  if (exit.code !== null) return exit.code;
  const n = exit.signal ? constants.signals[exit.signal] : undefined;
  return n !== undefined ? 128 + n : 1;
}

export class TapChild {
  readonly exited: Promise<ServerExit>;
  private exit?: ServerExit;
  private stopping?: Promise<void>;
  private readonly watchdog?: Watchdog;

  private constructor(readonly process: ChildProcess) {
    if (process.pid !== undefined) this.watchdog = watchProcessGroup(process.pid, KILL_GRACE_MS);
    this.exited = new Promise((resolve) =>
      process.once('close', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
        // The leader is gone; whatever it left in its group goes too, and the watchdog is released.
        void this.stop();
      }),
    );
  }

  /** Starts the server; rejects with one plain sentence when it cannot start. */
  static start(config: StdioConfig): Promise<TapChild> {
    if (config.cwd !== undefined && !(existsSync(config.cwd) && statSync(config.cwd).isDirectory())) {
      return Promise.reject(new Error(`Working directory not found: ${config.cwd}`));
    }
    const child = spawn(config.command, config.args, {
      cwd: config.cwd,
      env: { ...process.env, ...config.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    // At once, before the spawn settles: a signal to the tap meanwhile must find the group watched.
    const tapChild = new TapChild(child);
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(tapChild));
      child.once('error', (error: NodeJS.ErrnoException) => {
        void tapChild.watchdog?.release();
        const failure = spawnFailure(config.command, error, config.env?.PATH ?? process.env.PATH);
        reject(new Error(failure.hint ? `${failure.message}. ${failure.hint}` : failure.message));
      });
    });
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** SIGKILL the group at once (a `kill` rule). */
  kill(): void {
    signalGroup(this.process, 'SIGKILL');
  }

  /** Stops the whole group: SIGTERM, SIGKILL after the grace if any member is left. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.stopGroup();
    return this.stopping;
  }

  private async stopGroup(): Promise<void> {
    await stopGroup(this.process, () => this.exit !== undefined);
    await this.watchdog?.release();
  }
}
