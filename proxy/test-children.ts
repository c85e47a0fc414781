/** Test-only (excluded from the build): stopping the server processes a test started, so none outlives it. */
import { once } from 'node:events';
import type { ChildProcess } from 'node:child_process';

/** SIGTERM, then SIGKILL after 3 s; resolves once the process has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}
