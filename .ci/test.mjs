// `npm test`: the stages in order, stopping after the first group in which one fails, each stage's
// wall time printed at the end (issue 22: CI time is watched stage by stage). The same commands
// `npm test` always ran.
//
// Stages in one group run side by side. After the build, every suite runs at once: the e2e specs
// spend much of their time waiting on browsers and servers, which leaves room for the unit tests,
// the lint and the conformance suite beside them. Each is independent (the lint reads the sources
// while the tests run them; every suite starts its own processes on ports of its own). In two
// groups (unit tests with the lint, then e2e with the conformance suite) they took 803 s here. No
// test may depend on a quiet machine (issue 22). The first stage of a group prints as it goes; the
// others' output is held and printed, whole, when they end.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const npmRun = (script) => ['npm', ['run', script, '--silent']];
/**
 * A stage that runs beside the e2e specs yields the CPU to them (nice 10): the specs wait on
 * browsers and servers, and each moment a spec is ready to run but the unit tests or the lint hold
 * both cores lengthens the whole run; the stages beside it fill the gaps and end well before it.
 */
const beside = (script) => ['nice', ['-n', '10', 'npm', 'run', script, '--silent']];
const GROUPS = [
  [['build', 'node', ['.ci/build.mjs']]],
  [
    ['e2e (Playwright)', ...npmRun('test:e2e')],
    ['unit tests (vitest)', ...beside('test:unit')],
    // The lint is also the one type-check (eslint.config.mjs: loupe/type-errors).
    ['lint and type-check', ...beside('lint')],
    ['conformance', ...npmRun('test:conformance')],
  ],
  [['summary', 'node', ['.ci/summary.mjs']]],
];

/** Runs one stage; `held`: its output is kept and printed when it ends. Resolves to its name, exit code and wall time. */
function run([name, command, args], held) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    if (held) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    const done = (code) => {
      if (held) {
        process.stdout.write(`\n==== ${name} (ran beside the stage above) ====\n`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ name, code, seconds: (Date.now() - started) / 1000 });
    };
    child.once('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      done(1);
    });
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Names each failed test, with the first line of why, from the JSON reports the runners write: the
 * last lines of a CI log are often all that is kept, and a held stage's output comes long before them.
 */
function printFailures() {
  const read = (path) => {
    try {
      return JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      return undefined;
    }
  };
  const firstLine = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim()) ?? '';
  const lines = [];
  for (const file of read('.reports/vitest.json')?.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') lines.push(`unit  ${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') lines.push(`unit  ${file.name.replace(`${process.cwd()}/`, '')}: ${firstLine(file.message)}`);
  }
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected') {
          const result = test.results?.at(-1);
          lines.push(`e2e   ${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}: ${firstLine(result?.error?.message)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of read('.reports/playwright.json')?.suites ?? []) walk(suite, []);
  if (lines.length === 0) return;
  console.error(`\nnpm test: the failed tests (${lines.length})`);
  for (const line of lines.slice(0, 40)) console.error(`  ${line.slice(0, 400)}`);
}

// A report left by an earlier run must not speak for this one.
for (const report of ['.reports/vitest.json', '.reports/playwright.json']) rmSync(report, { force: true });

const times = [];
let failed;
const began = Date.now();
for (const group of GROUPS) {
  const results = await Promise.all(group.map((stage, i) => run(stage, i > 0)));
  times.push(...results.map((r, i) => [r.name + (i > 0 ? ` (beside ${results[0].name})` : ''), r.seconds]));
  const bad = results.filter((r) => r.code !== 0);
  if (bad.length > 0) {
    failed = bad.map((r) => `${r.name} failed (${r.code})`).join('; ');
    break;
  }
}
console.log(`\nnpm test: wall time per stage (${((Date.now() - began) / 1000).toFixed(0)} s in all; stages beside another overlap it)`);
for (const [name, seconds] of times) console.log(`${seconds.toFixed(0).padStart(6)} s  ${name}`);
if (failed) {
  printFailures();
  console.error(`npm test: ${failed}`);
  process.exit(1);
}
