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
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    // Off: recording a trace (a DOM snapshot at every action) made the suite a third slower, and a
    // failure keeps its screenshot and every process's output. LOUPE_E2E_TRACE=1 records them again.
    trace: process.env.LOUPE_E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
});
