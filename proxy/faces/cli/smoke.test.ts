/**
 * Integration: `runSmoke` against a fixture with one tool per verdict (a crash, a timeout, an
 * outputSchema violation, isError, a JSON-RPC refusal, a lax server, a task-only tool), against a
 * server that cannot be restarted after its crash, and against server-everything over stdio.
 * Every test checks that no server process is left behind.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import type { SmokeTool } from '../../../lib/headless/smoke-report.ts';
import { openFaceSession } from './face-session.ts';
import { formatSmokeText, runSmoke, smokeExitCode, smokeJunit, type SmokeReport } from './smoke.ts';

const FIXTURE = path.join(import.meta.dirname, '../../..', 'e2e', 'fixtures', 'smoke-server.mjs');
const EVERYTHING: ServerConfig = { kind: 'stdio', command: process.execPath, args: [path.join(import.meta.dirname, '../../..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')], env: {} };
const fixture: ServerConfig = { kind: 'stdio', command: process.execPath, args: [FIXTURE], env: {} };

const dir = mkdtempSync(path.join(tmpdir(), 'loupe-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Live (not zombie) processes started by this test process (other suites may run the same servers). */
function descendants(): string[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' }).split('\n');
  const rows = table.flatMap((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s*(.*)$/.exec(line);
    return m ? [{ pid: Number(m[1]), ppid: Number(m[2]), stat: m[3], args: m[4] }] : [];
  });
  const found: typeof rows = [];
  const queue = [process.pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const row of rows) {
      if (row.ppid !== parent || found.includes(row)) continue;
      found.push(row);
      queue.push(row.pid);
    }
  }
  return found.filter((r) => !r.stat.startsWith('Z') && !r.args.startsWith('ps ')).map((r) => r.args);
}

afterEach(() => {
  expect(descendants().filter((args) => args.includes('smoke-server.mjs') || args.includes('server-everything'))).toEqual([]);
});

/**
 * Runs a smoke test on a fresh session and closes it (which must stop every process it started).
 * The fixture's tools have no annotations, so by default smoke calls none of them: the tests of
 * the verdicts allow writes.
 */
async function smoke(config: ServerConfig, timeoutMs: number, negative = true, allowWrites = true): Promise<SmokeReport> {
  const face = await openFaceSession(config, { connectTimeoutMs: 15_000 });
  try {
    if (!face.ok) throw new Error(`could not connect: ${face.error.message}`);
    return await runSmoke(face.session, { timeoutMs, negative, allowWrites });
  } finally {
    await face.close();
  }
}

const tool = (report: SmokeReport, name: string): SmokeTool => {
  const found = report.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${report.tools.map((t) => t.name).join(', ')}`);
  return found;
};
const brief = (t: SmokeTool) => t.cases.map((c) => [c.kind, c.outcome, c.verdict]);

/** Parses XML with Python's expat when python3 is there: a real parser, not ours. */
function wellFormed(xml: string): boolean | undefined {
  const python = spawnSync('python3', ['-c', 'import sys, xml.dom.minidom as m; m.parseString(sys.stdin.buffer.read())'], { input: xml });
  if (python.error) return undefined;
  return python.status === 0;
}

describe('runSmoke against the smoke fixture', () => {
  let report: SmokeReport;

  it('gives every tool its verdict, reports the crash and goes on with the next tools', async () => {
    report = await smoke(fixture, 1_500);
    expect(report.tools.map((t) => [t.name, t.verdict])).toEqual([
      ['good', 'passed'],
      ['fails', 'passed'],
      ['crash', 'failed'],
      ['strict', 'passed'],
      ['slow', 'failed'],
      ['bad_output', 'failed'],
      ['no_structured', 'failed'],
      ['lenient', 'warning'],
      ['needs_task', 'skipped'],
    ]);
    expect(report.server).toEqual({ name: 'smoke-fixture', version: '1.0.0' });
    expect(report.restarts).toBe(1);
    expect(report.listError).toBeUndefined();
  }, 120_000);

  it('calls the good tool with valid synthesised arguments and its negative cases are refused', () => {
    const good = tool(report, 'good');
    expect(good.cases[0]).toMatchObject({
      kind: 'valid',
      outcome: 'ok',
      reason: 'Answered; structuredContent matches its outputSchema.',
      arguments: { mode: 'fast', count: 2, target: { host: 'example.com', port: 1 }, tags: ['example'], homepage: 'https://example.com/' },
    });
    expect(brief(good)).toEqual([
      ['valid', 'ok', 'passed'],
      ['missing-required', 'is-error', 'passed'],
      ['wrong-type', 'is-error', 'passed'],
      ['empty', 'is-error', 'passed'],
    ]);
    expect(good.cases.map((c) => c.label)).toEqual(['valid arguments', 'without required "mode"', '"mode" as integer instead of string', 'no arguments ({})']);
    expect(brief(tool(report, 'strict'))).toEqual([
      ['valid', 'ok', 'passed'],
      ['missing-required', 'rpc-error', 'passed'],
      ['wrong-type', 'rpc-error', 'passed'],
    ]);
    expect(tool(report, 'strict').cases[0].arguments).toEqual({ id: 'aaa-00' });
  });

  it('names the tool that killed the server, with its exit code and the end of its stderr', () => {
    const crash = tool(report, 'crash');
    expect(crash.crash).toMatchObject({ exitCode: 3, message: expect.stringMatching(/exited with code 3/) });
    expect(crash.crash?.stderrTail).toContain('fatal: out of widgets (simulated crash)');
    expect(brief(crash)).toEqual([['valid', 'crash', 'failed']]);
  });

  it('reports isError (a refusal of made-up arguments, not a fault), the timeout, the outputSchema violations, the lax server and the task-only tool', () => {
    expect(tool(report, 'fails').cases[0]).toMatchObject({ outcome: 'is-error', verdict: 'passed', reason: "Refused the made-up arguments with isError (a tool's own error, not a fault): fails: the widget store is closed" });
    expect(tool(report, 'slow').cases[0]).toMatchObject({ outcome: 'timeout', verdict: 'failed', reason: 'Request timed out: no answer within 1500 ms.' });
    expect(tool(report, 'slow').cases[0].ms).toBeGreaterThanOrEqual(1_400);
    expect(tool(report, 'bad_output').cases[0]).toMatchObject({ outcome: 'output-invalid', reason: expect.stringMatching(/^structuredContent does not match its outputSchema: .*\/summary must be string/) });
    expect(tool(report, 'no_structured').cases[0]).toMatchObject({ outcome: 'output-invalid', reason: 'It declares an outputSchema, but the result has no structuredContent.' });
    expect(brief(tool(report, 'lenient'))).toEqual([
      ['valid', 'ok', 'passed'],
      ['missing-required', 'ok', 'warning'],
      ['wrong-type', 'ok', 'warning'],
    ]);
    expect(tool(report, 'lenient').reason).toBe('without required "name": The server accepted arguments that its inputSchema does not allow.');
    expect(tool(report, 'needs_task').cases).toEqual([expect.objectContaining({ outcome: 'not-run', verdict: 'skipped', reason: expect.stringMatching(/must be called as a task.*did not declare tasks/) })]);
  });

  it('prints a table and the summary, exits 1 and writes JUnit that a real parser reads', () => {
    const text = formatSmokeText(report);
    expect(text).toMatch(/^crash\s+FAILED\s+\d+\s+The server exited with code 3\.$/m);
    expect(text).toContain('  | fatal: out of widgets (simulated crash)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('9 tools: 3 passed, 4 failed, 1 warning, 1 skipped');
    expect(text.split('\n')[0]).toMatch(/, tools that may change data called too$/);
    expect(text).not.toContain('not called: they may change data');
    expect(smokeExitCode(report)).toBe(1);
    const xml = smokeJunit(report);
    expect(xml).toMatch(/<testsuite name="mcp-loupe smoke: smoke-fixture" tests="18" failures="2" errors="2" skipped="1"/);
    expect(xml).toContain('<error message="Request timed out: no answer within 1500 ms." type="timeout"');
    expect(wellFormed(xml)).not.toBe(false);
  });

  it('without negative cases, calls each tool once', async () => {
    const once = await smoke(fixture, 1_000, false);
    expect(once.tools.map((t) => t.cases.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(tool(once, 'lenient').verdict).toBe('passed');
  }, 120_000);
});

describe('runSmoke by default (without allowWrites)', () => {
  it('calls no tool that may change data: each is skipped with why and the flag, and nothing fails', async () => {
    const report = await smoke(fixture, 1_000, true, false);
    expect(report.allowWrites).toBe(false);
    expect(report.tools.map((t) => [t.name, t.verdict])).toEqual(['good', 'fails', 'crash', 'strict', 'slow', 'bad_output', 'no_structured', 'lenient', 'needs_task'].map((name) => [name, 'skipped']));
    for (const t of report.tools) {
      expect(t.cases, t.name).toEqual([expect.objectContaining({ outcome: 'may-change-data', verdict: 'skipped', reason: 'Not called: it does not say it is read-only (no readOnlyHint: true), so by the MCP spec it may change data, perhaps destructively. --allow-writes calls it too.' })]);
    }
    // Not called means the crash tool did not crash the server.
    expect(report.restarts).toBe(0);
    expect(smokeExitCode(report)).toBe(0);
    expect(formatSmokeText(report)).toContain('\n9 of 9 tools not called: they may change data (no readOnlyHint: true); add --allow-writes to call them with made-up arguments too.\n9 tools: 0 passed, 0 failed, 0 warnings, 9 skipped\n');
  }, 120_000);
});

describe('runSmoke with a schema too deep to check', () => {
  it('fails that tool without calling it, and smokes the others', async () => {
    const report = await smoke({ ...fixture, args: [FIXTURE, '--deep-schema'] }, 1_000, false);
    expect(report.tools[0]).toMatchObject({ name: 'deep_schema', verdict: 'failed', cases: [expect.objectContaining({ outcome: 'input-schema-invalid', reason: expect.stringMatching(/^Its inputSchema cannot be used \(.+\), so it was not called\.$/) })] });
    expect(report.tools.slice(1).map((t) => t.name)).toEqual(['good', 'fails', 'crash', 'strict', 'slow', 'bad_output', 'no_structured', 'lenient', 'needs_task']);
    expect(tool(report, 'good').verdict).toBe('passed');
  }, 120_000);
});

describe('runSmoke when the server cannot be started again', () => {
  it('reports the crash, then every later tool as not called, with why', async () => {
    const flag = path.join(dir, 'started-once');
    // Starts the fixture the first time only; the restart after the crash fails with exit 7.
    const script = `if [ -e "$1" ]; then echo "refusing to start twice" >&2; exit 7; fi; : > "$1"; exec "$2" "$3"`;
    const once: ServerConfig = { kind: 'stdio', command: '/bin/sh', args: ['-c', script, 'sh', flag, process.execPath, FIXTURE], env: {} };
    const report = await smoke(once, 1_000, false);
    expect(report.tools.map((t) => [t.name, t.verdict])).toEqual([
      ['good', 'passed'],
      ['fails', 'passed'],
      ['crash', 'failed'],
      ['strict', 'skipped'],
      ['slow', 'skipped'],
      ['bad_output', 'skipped'],
      ['no_structured', 'skipped'],
      ['lenient', 'skipped'],
      ['needs_task', 'skipped'],
    ]);
    expect(tool(report, 'strict').reason).toMatch(/^Not called: Loupe could not start the server again after a crash \(The server exited with code 7/);
    expect(smokeExitCode(report)).toBe(1);
  }, 120_000);
});

describe('runSmoke against server-everything over stdio', () => {
  it('by default calls only the tools annotated readOnlyHint: true', async () => {
    const report = await smoke(EVERYTHING, 15_000, false, false);
    const readOnly = report.tools.filter((t) => t.cases[0].outcome !== 'may-change-data').map((t) => t.name);
    expect(readOnly).toEqual(expect.arrayContaining(['echo', 'get-structured-content', 'get-roots-list']));
    expect(readOnly).not.toContain('toggle-simulated-logging');
    expect(tool(report, 'echo').verdict).toBe('passed');
    expect(tool(report, 'toggle-simulated-logging').cases[0]).toMatchObject({ verdict: 'skipped', reason: expect.stringMatching(/^Not called: it says it may change data \(readOnlyHint: false\)/) });
    expect(formatSmokeText(report)).toMatch(new RegExp(`\\n${report.tools.length - readOnly.length} of ${report.tools.length} tools not called: they may change data`));
  }, 120_000);

  it('gives every tool a verdict and none crashes; the task-only tool runs as a task', async () => {
    const report = await smoke(EVERYTHING, 15_000);
    expect(report.tools.length).toBeGreaterThanOrEqual(15);
    expect(report.restarts).toBe(0);
    for (const t of report.tools) {
      expect(['passed', 'warning', 'failed', 'skipped'], t.name).toContain(t.verdict);
      expect(t.crash, t.name).toBeUndefined();
      expect(t.cases.some((c) => c.outcome === 'crash'), t.name).toBe(false);
    }
    expect(tool(report, 'echo').verdict).toBe('passed');
    expect(tool(report, 'echo').cases[0].arguments).toEqual({ message: 'example' });
    expect(tool(report, 'get-structured-content').cases[0]).toMatchObject({ outcome: 'ok', reason: 'Answered; structuredContent matches its outputSchema.' });
    expect(tool(report, 'simulate-research-query').cases[0]).toMatchObject({ asTask: true, outcome: 'ok', verdict: 'passed' });
    expect(formatSmokeText(report)).toMatch(new RegExp(`^${report.tools.length} tools: \\d+ passed`, 'm'));
    expect(wellFormed(smokeJunit(report))).not.toBe(false);
  }, 120_000);
});

describe('--smoke on a server with MCP Apps views (issue 24)', () => {
  it('names the tools that have a view, and the view they link', async () => {
    const apps: ServerConfig = { kind: 'stdio', command: process.execPath, args: [path.join(import.meta.dirname, '../../..', 'e2e', 'fixtures', 'apps-server.mjs')], env: {} };
    const report = await smoke(apps, 10_000, false);
    expect(report.tools.find((t) => t.name === 'counter')?.view).toEqual({ uri: 'ui://apps/counter', appOnly: false });
    expect(report.tools.find((t) => t.name === 'echo')?.view).toBeUndefined();
    expect(formatSmokeText(report)).toMatch(/tools with a view \(MCP Apps; open one in the page to see it\): .*counter → ui:\/\/apps\/counter/);
  }, 120_000);
});

