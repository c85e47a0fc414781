// Lint: correctness rules plus the layer arrows of docs/architecture.md, so that nobody has to remember them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group, message: 'Layer rule (docs/architecture.md): this folder may not import that.' })) }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'out/**', 'dist/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', '**/*.mjs', '**/*.js', 'e2e/fixtures/**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['lib/**/*.ts'],
    // No form library either (issue 9): rjsf's validator lives in components/tools/rjsf-validator.ts.
    rules: restrict([['node:*', 'fs', 'path', 'child_process', 'react', 'react-dom', '@rjsf/*', 'next', 'next/*', '**/proxy/**', '**/app/**', '**/components/**', 'ws']]),
  },
  { files: ['proxy/**/*.ts'], rules: restrict([['**/app/**', '**/components/**', 'react', 'react-dom', 'next', 'next/*']]) },
  { files: ['components/**/*.ts', 'components/**/*.tsx'], rules: restrict([['**/proxy/**', '**/app/**', 'ws', 'node:*']]) },
  { files: ['app/**/*.ts', 'app/**/*.tsx'], rules: restrict([['**/proxy/**', 'ws', 'node:*']]) },
);
