import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts', 'proxy/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', '.ci/**/*.test.mjs'],
    exclude: ['node_modules', 'e2e', 'dist', 'out'],
    // Most files wait on processes they start (servers, the built CLI), not on the CPU: two cores
    // run three files at once well. Vitest's default (cores - 1) ran them one at a time here.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.reports/vitest.json' },
  },
});
