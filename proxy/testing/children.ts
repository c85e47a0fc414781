/** Test-only (excluded from the build): running the built CLI, and stopping the processes a test started, so none outlives it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');

export interface BuiltCliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the last byte on stdout or stderr to the exit. */
  quietBeforeExitMs: number;
}

export interface BuiltCliOptions {
  /** Node's own options, before the CLI (`--import` of a module that leaves a timer). */
  nodeArgs?: string[];
  /** Killed (SIGKILL) when it has not exited this long after its last output: a hang fails fast. */
  hangMs?: number;
  /** Variables added to this process's environment (an API key for `--eval`). */
  env?: Record<string, string>;
}

/**
 * Runs the built CLI (`node dist/proxy/cli.js`, so a test needs a current build) to its end; a run
 * that hangs is killed after 60 s (or `hangMs` after its last output) and fails the test by its
 * code. The child joins `started`.
 */
export function runBuiltCli(args: string[], started: ChildProcess[], options: BuiltCliOptions = {}): Promise<BuiltCliRun> {
  return new Promise((done) => {
    const env = options.env ? { ...process.env, ...options.env } : undefined;
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let stdout = '';
    let stderr = '';
    let lastOutput = performance.now();
    let hang: NodeJS.Timeout | undefined;
    const heard = () => {
      lastOutput = performance.now();
      if (options.hangMs === undefined) return;
      clearTimeout(hang);
      hang = setTimeout(() => child.kill('SIGKILL'), options.hangMs);
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      heard();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      heard();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let quietBeforeExitMs = 0;
    child.on('exit', () => {
      quietBeforeExitMs = performance.now() - lastOutput;
      clearTimeout(timer);
      clearTimeout(hang);
    });
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr, quietBeforeExitMs }));
  });
}

/** SIGTERM, then SIGKILL after 3 s; resolves once the process has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  // A hang guard, far from the typical exit (two CIs at once made a graceful one take over 3 s).
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Starts an LLM fixture of e2e/fixtures (llm-openai.mjs, llm-anthropic.mjs); resolves to its origin once it listens. */
export function startLlmFixture(file: string, started: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, [join(resolve(import.meta.dirname, '../..'), 'e2e', 'fixtures', file)], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(child);
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (found) done(found[1]);
    });
    child.on('exit', (code) => fail(new Error(`${file} exited with ${code} before it listened`)));
  });
}
