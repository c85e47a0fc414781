/**
 * Whether a process group still has a live member (POSIX). `kill(-pgid, 0)` answers for the group,
 * but counts zombies too: where PID 1 reaps orphans slowly (containers), a group whose members are
 * all dead would look alive for a second or more. On Linux the zombies are told apart in /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';

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
