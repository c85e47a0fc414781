/**
 * One watchdog for every group (watchdog.ts): groups join and leave its list, the last one out
 * ends it, and a released group is never touched. SIGKILL of Loupe itself, where the watchdog
 * kills what is left, is proxy/engine/lifecycle.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { watchProcessGroup } from './watchdog.ts';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid !== undefined) groupKill(child.pid);
});

function groupKill(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** A process group of its own, as Loupe starts a server. */
function sleeper(): number {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  started.push(child);
  return child.pid!;
}

/** This process's children whose command line names the watchdog. */
function watchdogs(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('loupe-watchdog')) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

const alive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform === 'win32')('the watchdog', () => {
  it('is one process for ten groups; the last release ends it and kills nothing', async () => {
    const groups = Array.from({ length: 10 }, sleeper);
    const dogs = groups.map((g) => watchProcessGroup(g, 500)!);
    expect(new Set(dogs.map((d) => d.pid)).size).toBe(1);
    expect(watchdogs()).toEqual([dogs[0].pid]);
    for (const dog of dogs.slice(0, 9)) await dog.release();
    expect(watchdogs(), 'still watching the tenth').toEqual([dogs[0].pid]);
    await dogs[9].release();
    expect(watchdogs(), 'the last release waits for it to exit').toEqual([]);
    expect(groups.every(alive), 'released groups are never touched').toBe(true);
  });

  it('starts anew for the next group after it ended, and a release twice counts once', async () => {
    const first = watchProcessGroup(sleeper(), 500)!;
    const second = watchProcessGroup(sleeper(), 500)!;
    await first.release();
    await first.release();
    expect(watchdogs(), 'the second group is still watched').toEqual([second.pid]);
    await second.release();
    const third = watchProcessGroup(sleeper(), 500)!;
    expect(third.pid).not.toBe(first.pid);
    expect(watchdogs()).toEqual([third.pid]);
    await third.release();
    expect(watchdogs()).toEqual([]);
  });
});
