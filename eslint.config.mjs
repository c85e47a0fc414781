// Lint: correctness rules plus the layer arrows of docs/architecture.md, so that nobody has to remember them.
import js from '@eslint/js';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const LAYER = 'Layer rule (docs/architecture.md): this folder may not import that.';

/**
 * The arrows, one row a folder: what a file under `files` may not import. ESLint keeps only the
 * last `no-restricted-imports` that applies to a file, so every row lists all of its folder's
 * bans (the bans of the folders it sits in included), and `layers()` turns them into one config
 * block a row, the deepest folders last.
 */
const NODE = ['node:*', 'fs', 'path', 'child_process', 'ws'];
const UI = ['react', 'react-dom', 'next', 'next/*', '@rjsf/*'];
const LIB = [...NODE, ...UI, '**/proxy/**', '**/app/**', '**/components/**'];
const PROXY = ['**/app/**', '**/components/**', 'react', 'react-dom', 'next', 'next/*'];
// Test helpers are for tests: product code never imports them (and the build never ships them).
const TESTING = ['**/testing/**'];
const FACES = ['web', 'cli', 'mock', 'tap', 'gateway'];
const otherFaces = (face) => FACES.filter((f) => f !== face).map((f) => `**/faces/${f}/**`);
const BELOW_SESSION = ['**/session/**', '**/engine/**', '**/faces/**', '**/command-line/**', '../cli.ts', '../launch.ts'];

const RULES = [
  // lib/: isomorphic, under everything; its form library lives in components/tools/rjsf-validator.ts.
  { files: ['lib/**/*.ts'], ban: LIB },
  // lib/model: the shapes every side shares, at the very bottom: it imports nothing of Loupe's.
  { files: ['lib/model/**/*.ts'], ban: LIB, banRegex: '^\\.\\./' },
  { files: ['proxy/**/*.ts'], ban: [...PROXY, ...TESTING] },
  // A face speaks to a user or a host; faces never import each other (their options come from command-line/),
  // neither as `../../faces/web/…` nor as a sibling `../web/…`.
  ...FACES.map((face) => ({ files: [`proxy/faces/${face}/**/*.ts`], ban: [...PROXY, ...TESTING, ...otherFaces(face)], banRegex: `^\\.\\./(${FACES.filter((f) => f !== face).join('|')})/` })),
  // The engine holds sessions for every face and knows none of them.
  { files: ['proxy/engine/**/*.ts'], ban: [...PROXY, ...TESTING, '**/faces/**', '**/command-line/**'] },
  // A session knows its connection, not who holds it.
  { files: ['proxy/session/**/*.ts'], ban: [...PROXY, ...TESTING, '**/engine/**', '**/faces/**', '**/command-line/**'] },
  // MCP Apps (issue 24): hosts a view over a session, for the page's face; knows no engine or face.
  { files: ['proxy/apps/**/*.ts'], ban: [...PROXY, ...TESTING, '**/engine/**', '**/faces/**', '**/command-line/**'] },
  // The pipeline and the upstreams move frames; they know no session, engine or face.
  { files: ['proxy/pipeline/**/*.ts', 'proxy/upstream/**/*.ts', 'proxy/system/**/*.ts', 'proxy/listen/**/*.ts'], ban: [...PROXY, ...TESTING, ...BELOW_SESSION] },
  { files: ['components/**/*.ts', 'components/**/*.tsx'], ban: ['**/proxy/**', '**/app/**', 'ws', 'node:*'] },
  { files: ['app/**/*.ts', 'app/**/*.tsx'], ban: ['**/proxy/**', 'ws', 'node:*'] },
];

function layers(rows) {
  return rows.map(({ files, ban, banRegex }) => ({
    files,
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ban, message: LAYER }, ...(banRegex ? [{ regex: banRegex, message: LAYER }] : [])] }] },
  }));
}

/**
 * The project's one type-check (issue 22). The type-aware rules below make typescript-eslint build a
 * TypeScript program of tsconfig.json, which is every file `tsc --noEmit` would check; this rule
 * reports that program's own errors, so that neither `tsc --noEmit` nor `next build` (told to skip
 * its check in next.config.js) checks every file a second and third time. typescript-eslint has no
 * such rule: it leaves type errors to the compiler.
 */
const typeErrors = {
  meta: { type: 'problem', docs: { description: 'TypeScript errors, from the program the typed rules already built' }, schema: [] },
  create(context) {
    const { program } = context.sourceCode.parserServices ?? {};
    const file = program?.getSourceFile(context.filename);
    if (!file) return {};
    return {
      'Program:exit'() {
        for (const d of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
          // typescript-eslint builds its programs with noUnusedLocals and noUnusedParameters on;
          // unused names are @typescript-eslint/no-unused-vars's job, under the project's settings.
          if (d.category !== ts.DiagnosticCategory.Error || d.reportsUnnecessary) continue;
          const at = file.getLineAndCharacterOfPosition(d.start ?? 0);
          const end = file.getLineAndCharacterOfPosition((d.start ?? 0) + (d.length ?? 0));
          context.report({
            loc: { start: { line: at.line + 1, column: at.character }, end: { line: end.line + 1, column: end.character } },
            message: `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
          });
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'out/**', 'dist/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', '**/*.mjs', '**/*.js', 'e2e/fixtures/**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { loupe: { rules: { 'type-errors': typeErrors } } },
    rules: {
      'loupe/type-errors': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...layers(RULES),
);
