import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts', 'proxy/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', '.ci/**/*.test.mjs'],
    exclude: ['node_modules', 'e2e', 'dist', 'out'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.reports/vitest.json' },
  },
});
