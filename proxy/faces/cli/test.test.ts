/**
 * `--test` through the built CLI (a current build first: `node .ci/build.mjs`), against the real
 * server-everything over stdio: the README's collection as printed runs green and the process
 * exits promptly; the same collection runs red against a fixture that changed one answer, and says
 * where, what was expected and what came; a recording made with `--record` runs as a collection
 * against `--mock` of it (no live server), and a recording turned into a collection runs green
 * against the server it came from; the JUnit file passes a real XML parser and the strict checker.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { collectionFromRecording } from '../../../lib/collections/from-recording.ts';
import { runBuiltCli, stopChild, type BuiltCliRun } from '../../testing/children.ts';
import { parseXml } from '../../testing/strict-xml.ts';
import { EXIT } from './io.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const CHANGED = [process.execPath, join(ROOT, 'e2e/fixtures/changed-answer.mjs')];
/** A hang, not a slow exit: the product exits well within a second of its report (headless-exit.test.ts). */
const EXIT_BOUND_MS = 10_000;
const HANG_MS = 20_000;

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'loupe-test-'));
afterAll(async () => {
  await Promise.all(children.map(stopChild));
  rmSync(dir, { recursive: true, force: true });
});

/** The first ```json block under the README's `## Collections`, as printed. */
function readmeCollection(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Collections\n'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  if (!section.startsWith('\n## Collections\n') || !block) throw new Error('README.md has no ```json block under ## Collections');
  return block[1];
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function cli(args: string[]): Promise<BuiltCliRun> {
  const run = await runBuiltCli(args, children, { hangMs: HANG_MS });
  expect(run.signal, `killed after ${HANG_MS} ms without exiting; stderr: ${run.stderr}`).toBeNull();
  expect(run.quietBeforeExitMs).toBeLessThan(EXIT_BOUND_MS);
  return run;
}

interface JunitDoc {
  testsuites: { tests: string; failures: string; errors: string; testsuite: { name: string; tests: string; failures: string; testcase: { name: string; failure?: { message: string } }[] } };
}

/** The JUnit file, through a real XML parser and the strict checker of lib/headless/junit.test.ts. */
function junit(path: string): JunitDoc {
  const xml = readFileSync(path, 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(parseXml(xml).name).toBe('testsuites');
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' }).parse(xml) as JunitDoc;
}

describe('mcp-loupe --test, against server-everything', () => {
  it('runs the README’s collection as printed: every call passes, exit 0, and it exits promptly', async () => {
    const collections = file('readme.json', readmeCollection());
    const xml = join(dir, 'green.xml');
    const run = await cli(['--test', collections, '--junit', xml, ...EVERYTHING]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.ok);
    expect(run.stdout).toMatch(/^ {2}✓ echo says it back {2}(?:\d+ ms|[\d.]+ s)$/m);
    expect(run.stdout).toMatch(/^ {2}✓ add the humidity {2}(?:\d+ ms|[\d.]+ s)$/m);
    expect(run.stdout).toMatch(/^3 passed, 0 failed, 0 errors$/m);
    const doc = junit(xml);
    expect(doc.testsuites).toMatchObject({ tests: '3', failures: '0', errors: '0' });
    expect(doc.testsuites.testsuite.testcase.map((c) => c.name)).toEqual(['echo says it back', 'weather in Chicago', 'add the humidity']);
  }, 60_000);

  it('runs red against a server that changed one answer: the path, the expected and the actual value; exit 1', async () => {
    const collections = file('readme-red.json', readmeCollection());
    const xml = join(dir, 'red.xml');
    const run = await cli(['--test', collections, '--junit', xml, ...CHANGED]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.failed);
    expect(run.stdout).toContain('  ✗ echo says it back');
    expect(run.stdout).toContain('      at $.content[0].text expected "Echo: hello", found "Echo: HELLO"');
    expect(run.stdout).toMatch(/^2 passed, 1 failed, 0 errors$/m);
    const doc = junit(xml);
    expect(doc.testsuites).toMatchObject({ tests: '3', failures: '1', errors: '0' });
    expect(doc.testsuites.testsuite.testcase[0].failure?.message).toBe('at $.content[0].text expected "Echo: hello", found "Echo: HELLO"');
  }, 60_000);

  it('--var wins over the file, --collection picks; a bad file or an unknown collection is exit 2 before any server starts', async () => {
    const collections = file('vars.json', readmeCollection());
    const run = await cli(['--test', collections, '--collection', 'everything basics', '--var', 'greeting=bye', ...EVERYTHING]);
    expect(run.code).toBe(EXIT.failed);
    expect(run.stdout).toContain('at $.content[0].text expected "Echo: hello", found "Echo: bye"');
    const unknown = await cli(['--test', collections, '--collection', 'everything basic', ...EVERYTHING]);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toContain('No collection named "everything basic". Closest: everything basics.');
    const bad = file('bad.json', JSON.stringify({ collections: [{ name: 'x', calls: [{ name: 'c', kind: 'tool', target: 'echo', assert: [{ path: 'content[0]', equals: 1 }] }] }] }));
    const refused = await cli(['--test', bad, ...EVERYTHING]);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain('collections[0].calls[0].assert[0].path: The path "content[0]" is not valid: it does not start with $');
    expect(refused.stdout).toBe('');
  }, 60_000);
});

describe('mcp-loupe --test with a workspace of several servers', () => {
  /** Two servers, and the README's collection once for each (its `server`, as the page saves it). */
  function workspace(): string {
    const readme = JSON.parse(readmeCollection()) as { collections: { name: string }[] };
    const basics = readme.collections[0];
    const server = (argv: string[]) => ({ command: argv[0], args: argv.slice(1) });
    return file(
      'workspace.json',
      JSON.stringify({
        mcpServers: { everything: server(EVERYTHING), changed: server(CHANGED) },
        'x-mcp-loupe': { version: 1, collections: [{ ...basics, server: 'everything' }, { ...basics, name: 'changed basics', server: 'changed' }] },
      }),
    );
  }

  it('runs against the server the collections name; a collection for another server is skipped, saying which', async () => {
    const ws = workspace();
    // No --server: the one server the chosen collection names is the one run against.
    const green = await cli(['--test', ws, '--collection', 'everything basics', '--config', ws]);
    expect(green.code, green.stdout + green.stderr).toBe(EXIT.ok);
    expect(green.stdout).toMatch(/^3 passed, 0 failed, 0 errors$/m);
    expect(green.stderr).not.toContain('warning');
    // --server picks: the other server's collection is not run against it.
    const picked = await cli(['--test', ws, '--config', ws, '--server', 'changed']);
    expect(picked.code, picked.stdout + picked.stderr).toBe(EXIT.failed);
    expect(picked.stdout).toContain('  - echo says it back\n      This collection is for the server "everything", and this run is against "changed": run it with --server everything.');
    expect(picked.stdout).toContain('      at $.content[0].text expected "Echo: hello", found "Echo: HELLO"');
    expect(picked.stdout).toMatch(/^2 passed, 1 failed, 0 errors, 3 skipped$/m);
    // Collections for two servers, and no --server: which to run is the user's choice, before any server starts.
    const both = await cli(['--test', ws, '--config', ws]);
    expect(both.code).toBe(EXIT.usage);
    expect(both.stderr).toContain('and the collections are for everything, changed: run --test once for each, with --server NAME.');
    expect(both.stdout).toBe('');
  }, 90_000);
});

describe('mcp-loupe --test with recordings', () => {
  it('records the run with --record, then runs the collection against --mock of the recording: no live server needed', async () => {
    const collections = file('mocked.json', readmeCollection());
    const recording = join(dir, 'run.jsonl');
    const recorded = await cli(['--test', collections, '--record', recording, ...EVERYTHING]);
    expect(recorded.code, recorded.stderr).toBe(EXIT.ok);
    const mocked = await cli(['--test', collections, '--', process.execPath, CLI, '--mock', recording]);
    expect(mocked.code, mocked.stdout + mocked.stderr).toBe(EXIT.ok);
    expect(mocked.stdout).toMatch(/^3 passed, 0 failed, 0 errors$/m);
  }, 90_000);

  it('a recording turned into a collection runs green against the server it was recorded from', async () => {
    const recording = join(dir, 'cli.jsonl');
    const asked = await cli(['--cli', '--record', recording, '--method', 'tools/call', '--tool-name', 'get-structured-content', '--args', '{"location":"New York"}', ...EVERYTHING]);
    expect(asked.code, asked.stderr).toBe(EXIT.ok);
    const made = collectionFromRecording(readFileSync(recording, 'utf8'), 'recorded');
    if (!made.ok) throw new Error(made.error);
    expect(made.collection.calls.map((c) => c.target)).toEqual(['get-structured-content']);
    expect(made.collection.calls[0].assert).toContainEqual({ path: '$.structuredContent.conditions', equals: 'Cloudy' });
    expect(made.collection.calls[0].assert).toContainEqual({ outputSchema: true });
    const run = await cli(['--test', file('recorded.json', JSON.stringify({ collections: [made.collection] })), ...EVERYTHING]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.ok);
    expect(run.stdout).toMatch(/^1 passed, 0 failed, 0 errors$/m);
  }, 90_000);
});

describe('mcp-loupe --test, a call without an answer in time', () => {
  it('is an error with its reason, the run goes on, exit 1', async () => {
    const collections = file('slow.json', JSON.stringify({
      collections: [{
        name: 'slow',
        calls: [
          { name: 'too slow', kind: 'tool', target: 'trigger-long-running-operation', arguments: { duration: 5, steps: 10 }, timeoutMs: 300 },
          { name: 'after it', kind: 'tool', target: 'echo', arguments: { message: 'still here' }, assert: [{ path: '$.content[0].text', equals: 'Echo: still here' }] },
        ],
      }],
    }));
    const run = await cli(['--test', collections, ...EVERYTHING]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.failed);
    expect(run.stdout).toMatch(/^ {2}! too slow {2}\d+ ms\n {6}No answer within 300 ms\.$/m);
    expect(run.stdout).toMatch(/^ {2}✓ after it/m);
    expect(run.stdout).toMatch(/^1 passed, 0 failed, 1 error$/m);
  }, 60_000);
});

describe('mcp-loupe --test with --rules', () => {
  it('sees a call a rule refused (refusedByRule), and a notification the call brought', async () => {
    const rules = file('rules.json', JSON.stringify({ rules: [{ name: 'no sums', match: { method: 'tools/call', name: 'get-sum' }, action: { type: 'deny' } }] }));
    const collections = file('rules-test.json', JSON.stringify({
      collections: [{
        name: 'gate',
        calls: [
          { name: 'refused', kind: 'tool', target: 'get-sum', arguments: { a: 1, b: 2 }, assert: [{ isError: true }, { refusedByRule: 'no sums' }] },
          { name: 'progress', kind: 'tool', target: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 }, assert: [{ notification: 'notifications/progress' }] },
        ],
      }],
    }));
    const run = await cli(['--test', collections, '--rules', rules, ...EVERYTHING]);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.ok);
    expect(run.stdout).toMatch(/^2 passed, 0 failed, 0 errors$/m);
  }, 60_000);
});
