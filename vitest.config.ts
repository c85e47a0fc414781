import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts', 'proxy/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', '.ci/**/*.test.mjs'],
    exclude: ['node_modules', 'e2e', 'dist', 'out'],
    // Most files wait on processes they start (servers, the built CLI), not on the CPU: two cores
    // run four files at once well (measured here: 147 s against 207 s with three and isolation).
    // Vitest's default (cores - 1) ran them one at a time.
    maxWorkers: 4,
    // A worker keeps the modules it loaded from one file to the next instead of loading them again
    // for each file: loading was a fifth of the suite's CPU time. No test file relies on a fresh
    // module registry (none mocks a module; the one global a test stubs is restored after it).
    isolate: false,
    // Far from the typical time (a few seconds): with two CIs at once on two cores (issue 22) a
    // file's children took over 30 s to start. A passing test never waits it out.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.reports/vitest.json' },
  },
});
