/**
 * Every mode without a browser exits once its output is written (issue 21, item 5): `--smoke`
 * against server-everything once printed its report and ran on for minutes, held by the SDK task
 * store's ttl timers. Each mode runs through the built CLI (a current build first) against the real
 * server-everything over stdio, once as it is and once with a module preloaded that leaves a
 * 10-minute timer, as a library may. What is measured is that the process exits: the time from its
 * last output to its exit is bounded loosely (the product aims at well under a second), and a run
 * that hangs is killed long before the test's own timeout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCliArgs, resolveTarget } from '../../command-line/options.ts';
import { EXIT } from './io.ts';
import { runHeadless } from './run.ts';
import { defaultServer } from '../../default-server.ts';
import { runBuiltCli, stopChild, type BuiltCliOptions } from '../../testing/children.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
/** What a library may leave behind: a timer that holds the event loop for ten minutes. */
const LINGERING_TIMER = ['--import', 'data:text/javascript,setTimeout(() => {}, 600000)'];
/**
 * A hang, not a slow exit: the product exits well within a second of its last output (a hang is
 * killed at HANG_MS); the bound is far from the typical time so that a loaded machine passes.
 */
const EXIT_BOUND_MS = 10_000;
/** A run still there this long after its last output is killed (and fails on its signal). */
const HANG_MS = 20_000;

const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map(stopChild));
});

const dir = mkdtempSync(join(tmpdir(), 'loupe-exit-'));
const recording = join(dir, 'tools.jsonl');
beforeAll(async () => {
  const recorded = await runBuiltCli(['--cli', '--record', recording, '--method', 'tools/list', ...EVERYTHING], children);
  expect(recorded.code).toBe(EXIT.ok);
}, 120_000);

async function expectPromptExit(args: string[], codes: number[], options: BuiltCliOptions = {}) {
  const run = await runBuiltCli(args, children, { hangMs: HANG_MS, ...options });
  expect(run.signal, `killed after ${HANG_MS} ms without exiting; stderr: ${run.stderr}`).toBeNull();
  expect(codes, run.stderr).toContain(run.code);
  expect(run.stdout + run.stderr).not.toBe('');
  expect(run.quietBeforeExitMs).toBeLessThan(EXIT_BOUND_MS);
  return run;
}

// The SDK's task store keeps a timer of each client-side task's ttl (server-everything asks 300 s).
const SAMPLING_AS_TASK = ['--cli', '--method', 'tools/call', '--tool-name', 'trigger-sampling-request-async', '--tool-arg', 'prompt=hi', '--sample', 'hello', ...EVERYTHING];
const ELICITATION_AS_TASK = ['--cli', '--method', 'tools/call', '--tool-name', 'trigger-elicitation-request-async', '--elicit', 'decline', ...EVERYTHING];

describe('the headless modes exit after their output, against server-everything', () => {
  // 0 when every tool behaved, 1 when one failed (docs/contract.md): which one is the smoke's business.
  it('--smoke', () => expectPromptExit(['--smoke', ...EVERYTHING], [EXIT.ok, EXIT.failed]), 90_000);

  it('--cli, with a sampling and an elicitation the server ran as tasks on Loupe', async () => {
    const sampled = await expectPromptExit(SAMPLING_AS_TASK, [EXIT.ok]);
    expect(sampled.stdout).toContain('Async sampling completed');
    await expectPromptExit(ELICITATION_AS_TASK, [EXIT.ok]);
  }, 90_000);

  it('--verify', () => expectPromptExit(['--verify', recording, ...EVERYTHING], [EXIT.ok]), 60_000);
  it('--doctor', () => expectPromptExit(['--doctor', ...EVERYTHING], [EXIT.ok]), 60_000);
  it('--export-tools', () => expectPromptExit(['--export-tools', 'openai', ...EVERYTHING], [EXIT.ok]), 60_000);
});

describe('whatever timer a library leaves', () => {
  const lingering = { nodeArgs: LINGERING_TIMER };
  it('--smoke', () => expectPromptExit(['--smoke', ...EVERYTHING], [EXIT.ok, EXIT.failed], lingering), 90_000);
  it('--cli', () => expectPromptExit(['--cli', '--method', 'tools/list', ...EVERYTHING], [EXIT.ok], lingering), 60_000);
  it('--verify', () => expectPromptExit(['--verify', recording, ...EVERYTHING], [EXIT.ok], lingering), 60_000);
  it('--doctor', () => expectPromptExit(['--doctor', ...EVERYTHING], [EXIT.ok], lingering), 60_000);
  it('--export-tools', () => expectPromptExit(['--export-tools', 'openai', ...EVERYTHING], [EXIT.ok], lingering), 60_000);
  it('an error exit keeps its code', () => expectPromptExit(['--cli', '--method', 'tools/call', '--tool-name', 'ecko', ...EVERYTHING], [EXIT.usage], lingering), 60_000);
});

/** `--mock` over stdio: answers, then exits when its client closes stdin. */
async function mockUntilClientLeaves(nodeArgs: string[]): Promise<{ code: number | null; afterLeaveMs: number; answers: unknown[] }> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, '--mock', recording], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  const answers: unknown[] = [];
  let buffered = '';
  const answered = new Promise<void>((resolveAnswered) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      // The recording's notifications (logging) come too: only the answers to ids 1 and 2 are counted.
      answers.push(...lines.filter((l) => l !== '').map((l) => JSON.parse(l) as { id?: unknown }).filter((m) => m.id === 1 || m.id === 2));
      if (answers.length >= 2) resolveAnswered();
    });
  });
  child.stderr!.resume();
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const hang = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'exit-test', version: '0' } };
  child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })}\n`);
  child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  await answered;
  const left = performance.now();
  child.stdin!.end();
  const [code] = await exited;
  clearTimeout(hang);
  return { code, afterLeaveMs: performance.now() - left, answers };
}

describe('--mock exits when its client leaves', () => {
  it('over stdio, as it is and with a lingering timer', async () => {
    for (const nodeArgs of [[], LINGERING_TIMER]) {
      const run = await mockUntilClientLeaves(nodeArgs);
      expect(run.answers).toHaveLength(2);
      expect(run.code).toBe(EXIT.ok);
      expect(run.afterLeaveMs).toBeLessThan(EXIT_BOUND_MS);
    }
  }, 120_000);

  it('over HTTP, on SIGTERM, with a lingering timer', async () => {
    const child = spawn(process.execPath, [...LINGERING_TIMER, CLI, '--mock', recording, '--mock-port', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let err = '';
    await new Promise<void>((listening) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (/listening at http/.test(err)) listening();
      });
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const hang = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    const signalled = performance.now();
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    clearTimeout(hang);
    expect(signal).toBeNull();
    expect(code).toBe(EXIT.ok);
    expect(performance.now() - signalled).toBeLessThan(EXIT_BOUND_MS);
  }, 120_000);
});

describe('the session', () => {
  it('leaves no task-store timer behind once it is closed', async () => {
    // In this process, through the same entry point: every long timer started during the run is cleared by its end.
    const started = new Set<unknown>();
    const cleared = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const setSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      const timer = realSet(fn, ms, ...rest);
      if ((ms ?? 0) >= 60_000) started.add(timer);
      return timer;
    }) as typeof setTimeout);
    const realClear = globalThis.clearTimeout;
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
      cleared.add(timer);
      realClear(timer);
    });
    try {
      const parsed = parseCliArgs(SAMPLING_AS_TASK);
      if (!parsed.ok) throw new Error(parsed.error);
      const target = resolveTarget(parsed.options, { readFile: (p) => readFileSync(p, 'utf8'), defaultServer });
      if (!target.ok) throw new Error(target.error);
      let out = '';
      const code = await runHeadless(parsed.options, target.value, { stdout: (t) => void (out += t), stderr: () => undefined });
      expect(code).toBe(EXIT.ok);
      expect(out).toContain('Async sampling completed');
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
    expect(started.size).toBeGreaterThan(0);
    expect([...started].filter((timer) => !cleared.has(timer))).toEqual([]);
  }, 120_000);
});
