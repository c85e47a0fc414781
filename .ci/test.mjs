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

const npmRun = (script) => ['npm', ['run', script, '--silent']];
const GROUPS = [
  [['build', 'node', ['.ci/build.mjs']]],
  [
    ['e2e (Playwright)', ...npmRun('test:e2e')],
    ['unit tests (vitest)', ...npmRun('test:unit')],
    // The lint is also the one type-check (eslint.config.mjs: loupe/type-errors).
    ['lint and type-check', ...npmRun('lint')],
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
  console.error(`npm test: ${failed}`);
  process.exit(1);
}
