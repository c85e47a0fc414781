/**
 * A server's process group, for every place Loupe starts one (stdio-transport.ts for its own
 * sessions, tap-child.ts for the tap): whether it is alive, signalling it, stopping it (SIGTERM,
 * SIGKILL after a grace) and the words for a spawn that failed. Free of the SDK, which the tap
 * never loads.
 *
 * Whether a process group still has a live member (POSIX). `kill(-pgid, 0)` answers for the group,
 * but counts zombies too: where PID 1 reaps orphans slowly (containers), a group whose members are
 * all dead would look alive for a second or more. On Linux the zombies are told apart in /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import type { LoupeError } from '../../lib/wire/wire.ts';

/**
 * SIGTERM → SIGKILL grace for a server's process group. Short enough that grace + escalation
 * fit well inside the CLI's 5 s hard exit (cli.ts), with every session stopped in parallel.
 */
export const KILL_GRACE_MS = 1_500;
/** After SIGKILL (or for the leader's 'close' once the group is gone): how long to wait at most. */
export const KILL_WAIT_MS = 1_000;
const POLL_MS = 25;

export { processAlive } from './process-alive.ts';

/** Sends `signal` to the child's whole group; on Windows, which has no groups, taskkill stops its tree. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') {
      // taskkill while the tree's root is still there to find it by (child.kill is TerminateProcess).
      const taskkill = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      taskkill.once('error', () => child.kill());
    } else process.kill(-pid, signal);
  } catch {
    // Already gone: nothing to stop.
  }
}

/** Whether any process of the child's group is still there (Windows: the child itself). */
export function childGroupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  if (process.platform === 'win32') return child.exitCode === null && child.signalCode === null;
  return groupAlive(child.pid);
}

/**
 * Stops the child's group: SIGTERM, then SIGKILL after the grace if any member is still alive,
 * also when the leader has exited and left others behind. `exited` says whether the leader's exit
 * was seen (the caller records it before it counts as gone).
 */
export async function stopGroup(child: ChildProcess, exited: () => boolean): Promise<void> {
  if (!childGroupAlive(child)) return;
  signalGroup(child, 'SIGTERM');
  if (await groupGone(child, exited, KILL_GRACE_MS)) return;
  signalGroup(child, 'SIGKILL');
  await groupGone(child, exited, KILL_WAIT_MS);
}

async function groupGone(child: ChildProcess, exited: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  // Most servers are gone within milliseconds of SIGTERM: look again soon at first, then every
  // POLL_MS (a restart under --watch waits for this before it starts the new process).
  for (let step = 1; childGroupAlive(child) || !exited(); step = Math.min(POLL_MS, step * 2)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, step));
  }
  return true;
}

/** A spawn that failed, in words: the command missing (with the PATH searched), not executable, or else. */
export function spawnFailure(command: string, error: NodeJS.ErrnoException, path: string | undefined): LoupeError {
  if (error.code === 'ENOENT') {
    const pathSearched = (path ?? '').split(delimiter).filter(Boolean);
    return {
      code: 'COMMAND_NOT_FOUND',
      message: `Command not found: ${command}`,
      hint: command.includes('/') ? 'Check the path to the executable.' : 'Install it, or give its full path.',
      detail: { pathSearched },
    };
  }
  if (error.code === 'EACCES') return { code: 'SPAWN_FAILED', message: `Permission denied running ${command}`, hint: 'Is the file executable (chmod +x)?' };
  return { code: 'SPAWN_FAILED', message: `Could not start ${command}: ${error.message}` };
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform === 'linux' ? hasLiveMemberInProc(pgid) : true;
}

function hasLiveMemberInProc(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …: the command may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}
