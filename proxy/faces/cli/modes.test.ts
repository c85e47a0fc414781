/**
 * The headless modes through the built CLI, as a terminal or CI runs them (issue 10; the build
 * comes first in `npm test`): record → mock → --cli against the mock gives the recorded answers;
 * verify passes against the same server and exits 1 with the first divergence against a changed
 * one; the lockfile is written, then diffed; smoke writes JUnit; exit codes are the contract's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')];
const VERIFY_FIXTURE = join(ROOT, 'e2e', 'fixtures', 'verify-server.mjs');
const SMOKE_FIXTURE = join(ROOT, 'e2e', 'fixtures', 'smoke-server.mjs');
const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

const dir = () => mkdtempSync(join(tmpdir(), 'loupe-modes-'));

function loupe(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('record → mock → --cli', () => {
  it('answers from the recording over stdio, and names the nearest recorded request otherwise', () => {
    const trace = join(dir(), 'echo.jsonl');
    const recorded = loupe(['--cli', '--record', trace, '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=from the recording', ...EVERYTHING]);
    expect(recorded.code).toBe(0);
    // The mock is the target: mcp-loupe --cli … node cli.js --mock FILE.
    const replayed = loupe(['--cli', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=from the recording', process.execPath, CLI, '--mock', trace]);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout)).toEqual(JSON.parse(recorded.stdout));
    const other = loupe(['--cli', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=never recorded', process.execPath, CLI, '--mock', trace]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('no recorded answer for tools/call');
    expect(other.stderr).toContain('nearest recorded: tools/call');
    expect(other.stderr).toContain('from the recording');
  });

  it('serves the recording over Streamable HTTP with --mock-port', async () => {
    const trace = join(dir(), 'list.jsonl');
    const recorded = loupe(['--cli', '--record', trace, '--method', 'tools/list', ...EVERYTHING]);
    expect(recorded.code).toBe(0);
    const mock = spawn(process.execPath, [CLI, '--mock', trace, '--mock-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    stops.push(() => mock.kill('SIGTERM'));
    // The mock prints its URL, then its token and client configs to paste: the client is given the
    // Cursor one as its --config file (the token never on a command line).
    const config = await new Promise<string>((resolveConfig, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no URL and token: ${err}`)), 15_000);
      mock.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const url = /listening at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1];
        const cursor = /^ {2}Cursor \(mcp\.json\): +(\{.*\})$/m.exec(err)?.[1];
        if (url && cursor) {
          clearTimeout(timer);
          expect(cursor).toContain(url);
          const file = join(dir(), 'mcp.json');
          writeFileSync(file, cursor, { mode: 0o600 });
          resolveConfig(file);
        }
      });
    });
    const listed = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const child = spawn(process.execPath, [CLI, '--cli', '--method', 'tools/list', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.on('exit', (code) => done({ code, stdout }));
    });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(JSON.parse(recorded.stdout));
  });

  it('refuses a file that is not a Loupe trace, with exit 2', () => {
    const file = join(dir(), 'not-a-trace.jsonl');
    writeFileSync(file, '{"hello":"world"}\n');
    const out = loupe(['--mock', file]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('not a Loupe trace header');
  });
});

describe('--verify and --lock', () => {
  it('passes against the same server, and reports the first divergence (exit 1) against a changed one', () => {
    const trace = join(dir(), 'verify.jsonl');
    expect(loupe(['--cli', '--record', trace, '--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'a=2', '--tool-arg', 'b=3', process.execPath, VERIFY_FIXTURE]).code).toBe(0);
    const same = loupe(['--verify', trace, process.execPath, VERIFY_FIXTURE]);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/no drift|same/i);
    // Stdio servers get a minimal environment: the variant goes with -e, as a user would give it.
    const changed = loupe(['--verify', trace, '-e', 'VERIFY_VARIANT=changed', process.execPath, VERIFY_FIXTURE]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/tools\/call/);
    expect(changed.stdout).toMatch(/recorded/i);
    expect(changed.stdout).toMatch(/live/i);
  });

  it('exit 3, not a diff, when the server does not start', () => {
    const trace = join(dir(), 'verify.jsonl');
    expect(loupe(['--cli', '--record', trace, '--method', 'tools/list', process.execPath, VERIFY_FIXTURE]).code).toBe(0);
    const out = loupe(['--verify', trace, 'no-such-server-command-loupe']);
    expect(out.code).toBe(3);
    expect(out.stdout).toBe('');
  });

  it('exit 2 for an --ignore rule that does not parse, before anything starts', () => {
    const out = loupe(['--verify', 'whatever.jsonl', '--ignore', '$..[', process.execPath, VERIFY_FIXTURE]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--ignore');
  });

  it('writes a lockfile, then reports what changed as a diff (exit 1)', () => {
    const lock = join(dir(), 'tools.lock.json');
    const wrote = loupe(['--lock', lock, process.execPath, VERIFY_FIXTURE]);
    expect(wrote.code).toBe(0);
    expect(existsSync(lock)).toBe(true);
    expect(JSON.parse(readFileSync(lock, 'utf8')).format).toBe('mcp-loupe-lock');
    expect(loupe(['--lock', lock, process.execPath, VERIFY_FIXTURE]).code).toBe(0);
    const drift = loupe(['--lock', lock, '-e', 'VERIFY_VARIANT=changed', process.execPath, VERIFY_FIXTURE]);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(/^\+ /m);
    expect(drift.stdout).toMatch(/^- /m);
    expect(drift.stdout).toMatch(/^~ /m);
  });
});

describe('--smoke', () => {
  it('reports per tool, writes JUnit, and exits 1 when a tool fails', () => {
    const junit = join(dir(), 'smoke.xml');
    // The fixture's tools have no readOnlyHint: true, so only --allow-writes calls them.
    const out = loupe(['--smoke', '--allow-writes', '--timeout', '2000', '--junit', junit, process.execPath, SMOKE_FIXTURE]);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/crash\s+FAILED/);
    expect(out.stdout).toMatch(/slow\s+FAILED/);
    expect(out.stdout).toMatch(/bad_output\s+FAILED/);
    expect(out.stdout).toMatch(/good\s+passed/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toContain('<testsuite');
    expect(xml).toContain('name="crash');
  });

  it('passes a server whose tools all answer', () => {
    const out = loupe(['--smoke', '--no-negative', '--allow-writes', process.execPath, VERIFY_FIXTURE]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/\d+ tools?: \d+ passed, 0 failed/);
  });
});
