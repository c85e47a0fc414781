/**
 * `--eval` end to end (issue 27): the built CLI runs an eval file against server-everything over
 * stdio, asking the scripted LLM fixtures (e2e/fixtures/llm-anthropic.mjs, llm-openai.mjs; real
 * HTTP on 127.0.0.1) with their key from the environment. One case passes with both formats, one
 * fails (a forbidden tool called and refused, wrong arguments, an answer without the number): the
 * reasons are printed, the exit code is 1, the JUnit file has a suite per model. A bad model word,
 * a missing key and a bad file are exit 2 before any server starts; every run exits promptly.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './io.ts';
import { runBuiltCli, startLlmFixture, stopChild } from '../../testing/children.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const started: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'loupe-eval-'));
const ENV = { FIXTURE_API_KEY: 'test-key' };
let anthropic: string;
let openai: string;

const CASES = {
  cases: [
    {
      name: 'echo the greeting',
      prompt: 'Please say hello loupe',
      expect: { tools: [{ name: 'echo', arguments: { message: { contains: 'hello loupe' } } }], answerContains: ['Echo: Please say hello loupe'], maxSteps: 3 },
    },
    {
      // The fixture's script-two-tools calls echo {message: "first"} and get-sum {a: 2, b: 3}.
      name: 'add four and five',
      prompt: 'script-two-tools: what is 4 + 5? Use get-sum only.',
      expect: { tools: [{ name: 'get-sum', arguments: { a: 4, b: { type: 'number' } } }], forbid: ['echo'], answerContains: ['9'] },
    },
  ],
  repeats: 2,
  // The Anthropic format reports no cost: priced from the table. The OpenAI fixture's -priced model reports its own.
  prices: { 'eval-model': { input: 3, output: 15 } },
};

beforeAll(async () => {
  [anthropic, openai] = await Promise.all([startLlmFixture('llm-anthropic.mjs', started), startLlmFixture('llm-openai.mjs', started)]);
  writeFileSync(join(dir, 'evals.jsonc'), `// two cases\n${JSON.stringify(CASES, null, 2)}\n`);
}, 60_000);
afterAll(async () => {
  await Promise.all(started.map(stopChild));
});

const models = () => ['--model', `anthropic:${anthropic}/v1#eval-model,key=FIXTURE_API_KEY`, '--model', `openai-compatible:${openai}/v1#eval-model-priced,key=FIXTURE_API_KEY`];
const loupe = (args: string[], env: Record<string, string> = ENV) => runBuiltCli(args, started, { env, hangMs: 20_000 });

describe('mcp-loupe --eval', () => {
  it('runs every case with both formats against server-everything: the passing case passes, the failing one says why, exit 1, JUnit', async () => {
    const junit = join(dir, 'evals.xml');
    const run = await loupe(['--eval', join(dir, 'evals.jsonc'), ...models(), '--junit', junit, ...EVERYTHING]);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(EXIT.failed);
    expect(run.quietBeforeExitMs).toBeLessThan(10_000);
    const out = run.stdout;
    expect(out).toContain('Evals: 2 cases × 2 models, 8 runs: 4 passed, 4 failed.');
    const a = `anthropic:${anthropic}/v1#eval-model`;
    const o = `openai-compatible:${openai}/v1#eval-model-priced`;
    expect(out).toMatch(new RegExp(`echo the greeting\\s+${escape(a)}\\s+2/2 \\(100%\\)\\s+\\d+/\\d+\\s+(?:\\d+ ms|[\\d.]+ s)\\s+\\$[\\d.e-]+ \\(price table\\)`));
    expect(out).toMatch(new RegExp(`echo the greeting\\s+${escape(o)}\\s+2/2 \\(100%\\)\\s+\\d+/\\d+\\s+(?:\\d+ ms|[\\d.]+ s)\\s+\\$[\\d.e-]+ \\(provider\\)`));
    expect(out).toMatch(new RegExp(`add four and five\\s+${escape(a)}\\s+0/2 \\(0%\\)`));
    for (const model of [a, o]) {
      expect(out).toContain(`FAILED add four and five × ${model}, run 1:\n  - forbidden tool "echo" called (refused, not run)\n  - "get-sum" called with arguments.a = 2, expected 4\n  - answer lacks "9"`);
    }
    // What the model did is under the reasons: echo refused, get-sum made, the answer.
    expect(out).toContain('call echo {"message":"first"} → denied: The call to "echo" was refused and not made: this eval forbids it.');
    expect(out).toContain('call get-sum {"a":2,"b":3} → done: The sum of 2 and 3 is 5.');
    expect(run.stderr).toContain('running 8 eval runs (2 cases × 2 models × 2), two at a time…');
    // The key came from the environment and is printed nowhere.
    expect(out + run.stderr).not.toContain('test-key');

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites tests="8" failures="4" errors="0"/);
    expect(xml).toContain(`<testsuite name="${a}" tests="4" failures="2" errors="0"`);
    expect(xml).toContain(`<testsuite name="${o}" tests="4" failures="2" errors="0"`);
    expect(xml).toContain('<testcase name="add four and five (run 2)"');
    expect(xml).toContain('<failure message="forbidden tool &quot;echo&quot; called (refused, not run); &quot;get-sum&quot; called with arguments.a = 2, expected 4; answer lacks &quot;9&quot;" type="expectation">');
    // A JUnit reader's view: well-formed XML, a suite per model, a case per case × repeat.
    expect(XMLValidator.validate(xml)).toBe(true);
    type Doc = { testsuites: { testsuite: { name: string; testcase: { name: string; failure?: { message: string } }[] }[] } };
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'testsuite' }).parse(xml) as Doc;
    expect(doc.testsuites.testsuite.map((s) => [s.name, s.testcase.map((c) => `${c.name}${c.failure ? ' ✗' : ''}`)])).toEqual([
      [a, ['echo the greeting (run 1)', 'echo the greeting (run 2)', 'add four and five (run 1) ✗', 'add four and five (run 2) ✗']],
      [o, ['echo the greeting (run 1)', 'echo the greeting (run 2)', 'add four and five (run 1) ✗', 'add four and five (run 2) ✗']],
    ]);
  }, 120_000);

  it('exit 0 when every run passes (the file’s models and repeats), promptly even with a timer left behind', async () => {
    const file = join(dir, 'passing.json');
    writeFileSync(file, JSON.stringify({ cases: [CASES.cases[0]], models: [`openai-compatible:${openai}/v1#eval-model,key=FIXTURE_API_KEY`] }));
    // What a library may leave behind: a timer that holds the event loop for ten minutes.
    const run = await runBuiltCli(['--eval', file, ...EVERYTHING], started, { env: ENV, hangMs: 20_000, nodeArgs: ['--import', 'data:text/javascript,setTimeout(() => {}, 600000)'] });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.quietBeforeExitMs).toBeLessThan(10_000);
    expect(run.code, run.stderr + run.stdout).toBe(EXIT.ok);
    expect(run.stdout).toContain('Evals: 1 case × 1 model, 1 run: 1 passed, 0 failed.');
  }, 60_000);

  it('runs the README’s eval file as printed (its models replaced by the fixture’s): the greeting passes, the sum fails in words', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Evals\n'));
    const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    if (!block) throw new Error('README.md has no ```json block under ## Evals');
    const file = join(dir, 'readme-evals.json');
    writeFileSync(file, block);
    const run = await loupe(['--eval', file, '--model', `openai-compatible:${openai}/v1#eval-model,key=FIXTURE_API_KEY`, '--repeats', '1', ...EVERYTHING]);
    expect(run.code, run.stderr).toBe(EXIT.failed);
    expect(run.stdout).toContain('Evals: 2 cases × 1 model, 2 runs: 1 passed, 1 failed.');
    expect(run.stdout).toContain('  - forbidden tool "echo" called (refused, not run)\n  - expected tool "get-sum" not called\n  - answer does not match /\\b9\\b/');
  }, 60_000);

  it('exit 2, before any server starts: a bad file, no model, a key not in the environment, a provider key for another host', async () => {
    const file = join(dir, 'evals.jsonc');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ cases: [{ name: 'x', prompt: 'p', expect: { answerMatches: '(' } }] }));
    const never = ['node', '-e', 'process.exit(9)'];
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--eval', bad, '--model', 'openai:gpt-x', ...never], ENV, /bad\.json: The eval file is not valid: cases\[0\]\.expect\.answerMatches: "\(" is not a regular expression/],
      [['--eval', file, ...never], ENV, /no model to ask: give --model PROVIDER:MODEL, or list "models" in/],
      [['--eval', file, '--model', 'anthropic:claude-x', ...never], { ANTHROPIC_API_KEY: '' }, /anthropic:claude-x: ANTHROPIC_API_KEY is not set\. Put the key in the environment \(Loupe takes no key on the command line\)\./],
      [['--eval', file, '--model', `openai-compatible:${openai}/v1#m,key=OPENAI_API_KEY`, ...never], { OPENAI_API_KEY: 'sk-x' }, /OPENAI_API_KEY is OpenAI's key: Loupe sends it to https:\/\/api\.openai\.com only/],
      [['--eval', file, '--model', 'gpt-4o', ...never], ENV, /--model: The model "gpt-4o" does not start with a provider/],
    ];
    for (const [args, env, said] of cases) {
      const run = await loupe(args, env);
      expect(run.code, run.stderr).toBe(EXIT.usage);
      expect(run.stderr).toMatch(said);
    }
  }, 60_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
