// `npm test`: the stages in order, stopping at the first that fails, each one's wall time printed
// at the end (issue 22: CI time is watched stage by stage). The same commands `npm test` always ran.
import { spawnSync } from 'node:child_process';

const STAGES = [
  ['build', 'node', ['.ci/build.mjs']],
  // The lint is also the one type-check (eslint.config.mjs: loupe/type-errors).
  ['lint and type-check', 'npm', ['run', 'lint', '--silent']],
  ['unit tests (vitest)', 'npm', ['run', 'test:unit', '--silent']],
  ['e2e (Playwright)', 'npm', ['run', 'test:e2e', '--silent']],
  ['conformance', 'npm', ['run', 'test:conformance', '--silent']],
  ['summary', 'node', ['.ci/summary.mjs']],
];

const times = [];
let failed;
for (const [name, command, args] of STAGES) {
  const started = Date.now();
  const run = spawnSync(command, args, { stdio: 'inherit' });
  times.push([name, (Date.now() - started) / 1000]);
  if (run.status !== 0) {
    failed = `${name} failed (${run.status ?? run.signal})`;
    break;
  }
}
const total = times.reduce((sum, [, s]) => sum + s, 0);
console.log(`\nnpm test: wall time per stage (${total.toFixed(0)} s in all)`);
for (const [name, seconds] of times) console.log(`${seconds.toFixed(0).padStart(6)} s  ${name}`);
if (failed) {
  console.error(`npm test: ${failed}`);
  process.exit(1);
}
