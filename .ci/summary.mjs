// Prints one closing line for the whole `npm test`: unit + integration (vitest) and e2e (Playwright),
// read from the JSON reports both runners write to .reports/.
import { existsSync, readFileSync } from 'node:fs';

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);
const vitest = read('.reports/vitest.json');
const playwright = read('.reports/playwright.json');
if (!vitest || !playwright) {
  console.error('summary: a test report is missing (.reports/vitest.json, .reports/playwright.json)');
  process.exit(1);
}
const passed = vitest.numPassedTests + playwright.stats.expected + playwright.stats.flaky;
const failed = vitest.numFailedTests + playwright.stats.unexpected;
const skipped = vitest.numPendingTests + vitest.numTodoTests + playwright.stats.skipped;
console.log(`unit: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`);
console.log(`e2e: ${playwright.stats.expected} passed, ${playwright.stats.unexpected} failed, ${playwright.stats.skipped} skipped`);
const conformance = read('.reports/conformance.json');
if (conformance) {
  const { core, auth } = conformance.groups;
  const regressions = (conformance.regressions ?? []).map((r) => r.name);
  const checks = (g) => `${g?.checksPassed ?? 0}/${g?.checksTotal ?? 0} checks`;
  console.log(`conformance: core ${core.passing}/${core.scenarios} scenarios (${checks(core)}), auth ${auth?.passing ?? 0}/${auth?.scenarios ?? 0} (${checks(auth)}); ${regressions.length ? `regressions: ${regressions.join(', ')}` : 'no regression against .ci/conformance-baseline.json'}`);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
