// End-to-end tests: real Chromium against a real `mcp-loupe` process (see e2e/README.md).
// `npm test` builds first; the specs run `dist/proxy/cli.js` and the exported UI in `out/`.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './e2e/browser.ts';

export default defineConfig({
  testDir: 'e2e',
  // Each test starts Loupe, its server(s) and a browser: on two cores, two at a time is the limit.
  workers: 2,
  fullyParallel: true,
  // A test that needs a retry is a defect to fix, on CI too.
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: '.reports/playwright.json' }]],
  // Bounds that tell a hang from an answer, far from the typical time: two CIs at once on two cores
  // (issue 22) made a server's start take 15 s and a first paint 10 s. A passing test never waits them out.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    // Off: recording a trace (a DOM snapshot at every action) made the suite a third slower, and a
    // failure keeps its screenshot and every process's output. LOUPE_E2E_TRACE=1 records them again.
    trace: process.env.LOUPE_E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
});
