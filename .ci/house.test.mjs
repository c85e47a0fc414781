// The house's shape (issue 22), checked against the tree: no import circle, no product file over
// 400 lines, no prefix standing in for a folder, a README in every folder, docs/architecture.md
// naming every folder (and only folders that exist), and the lint rule refusing a wrong-way import.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { foldersWithoutReadme, importCircles, longFiles, longFunctions, prefixGroups, productFolders, ROOT, runtimeImportsOf } from './house.mjs';

const TOP = ['.ci', 'app', 'bench', 'components', 'docs', 'e2e', 'lib', 'proxy'];

describe('the house', () => {
  it('has no import circle between product files', () => {
    expect(importCircles()).toEqual([]);
  });

  it('has no product file over 400 lines, no function over 80 and no prefix standing in for a folder', () => {
    expect(longFiles(400)).toEqual([]);
    expect(longFunctions(80)).toEqual([]);
    // The measure sees what it should: the longest functions of the tree are over 70 lines.
    expect(longFunctions(70).length).toBeGreaterThan(0);
    expect(prefixGroups(4)).toEqual([]);
  });

  it('opens every product folder with a README', () => {
    expect(foldersWithoutReadme()).toEqual([]);
  });

  it('is drawn by docs/architecture.md: every folder it names exists, every folder is named', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const map = doc.slice(doc.indexOf('## The map'), doc.indexOf('### One frame'));
    // Every path-looking word of the map (`proxy/faces/web/`, `_wire/`) resolved against its parent line's folder.
    const named = new Set();
    const stack = [];
    for (const line of map.slice(map.indexOf('```') + 3, map.indexOf('```', map.indexOf('```') + 3)).split('\n')) {
      const indent = line.length - line.trimStart().length;
      // The path column: the folder words a line starts with (the description after them may name folders too).
      const words = [];
      for (const w of line.trim().split(/\s+/)) {
        if (!/^[._a-z][\w.-]*\/$/.test(w)) break;
        words.push(w);
      }
      while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
      const parent = stack.length > 0 ? stack[stack.length - 1].path : '';
      for (const word of words) named.add(`${parent}${word}`.replace(/\/$/, ''));
      if (words.length === 1) stack.push({ indent, path: `${parent}${words[0]}` });
    }
    const missing = [...named].filter((dir) => !existsSync(join(ROOT, dir)));
    expect(missing, 'folders the map names that do not exist').toEqual([]);
    const unnamed = productFolders().filter((dir) => !named.has(dir));
    expect(unnamed, 'folders the map does not name').toEqual([]);
    const tops = readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory() && !['node_modules', '.git', '.next', 'dist', 'out', 'test-results', 'playwright-report', '.reports'].includes(e.name)).map((e) => e.name);
    expect(tops.filter((t) => !TOP.includes(t)), 'a new top folder, unexplained').toEqual([]);
    expect(TOP.filter((t) => !named.has(t)), 'a top folder the map does not explain').toEqual([]);
  });

  it('refuses a wrong-way import by the lint rule', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (file, code) => (await eslint.lintText(code, { filePath: join(ROOT, file) }))[0].messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
    const wrong = {
      'the engine importing a face': ['proxy/engine/engine.ts', "import { Hub } from '../faces/web/hub.ts';\nexport type X = Hub;\n"],
      'a face importing another': ['proxy/faces/tap/tap.ts', "import { startGateway } from '../gateway/gateway.ts';\nexport const x = startGateway;\n"],
      'the pipeline importing a session': ['proxy/pipeline/pipeline.ts', "import type { Session } from '../session/session.ts';\nexport type X = Session;\n"],
      'lib/model importing the rest of lib': ['lib/model/rules.ts', "import type { TraceEvent } from '../wire/wire.ts';\nexport type X = TraceEvent;\n"],
      'product code importing a test helper': ['proxy/engine/record.ts', "import { runBuiltCli } from '../testing/children.ts';\nexport const x = runBuiltCli;\n"],
    };
    for (const [what, [file, code]] of Object.entries(wrong)) expect(await lint(file, code), what).toBe(1);
    // And the right way round passes.
    expect(await lint('proxy/faces/web/hub.ts', "import type { Engine } from '../../engine/engine.ts';\nexport type X = Engine;\n"), 'a face importing the engine').toBe(0);
  }, 300_000);

  it('is the one type-check: the lint reports a type error (next build and npm test check none of their own)', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const errors = async (file, code) => (await eslint.lintText(code, { filePath: join(ROOT, file) }))[0].messages.filter((m) => m.ruleId === 'loupe/type-errors').map((m) => m.message);
    expect(await errors('lib/json/jsonc.ts', "export const n: number = 'text';\n")).toEqual(["TS2322: Type 'string' is not assignable to type 'number'."]);
    expect(await errors('components/ui/list-status.tsx', "export const n: number = 1;\n")).toEqual([]);
  }, 300_000);
});

/**
 * What a plain launch loads (issue 23: start-up loads only what the first screen needs). The
 * static imports reachable from the command line and the hub (type-only imports and `import()`
 * left out, as at run time) must not reach the modules that build zod schemas the first screen
 * never uses: every wire envelope's, every trace event's, the rules', OAuth's. Each of those cost
 * the idle proxy heap (about 1 MB in all, measured after a GC), and a launch their building.
 */
describe('a plain launch', () => {
  const reachable = (roots) => {
    const seen = new Set();
    const stack = [...roots];
    while (stack.length > 0) {
      const file = stack.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      stack.push(...runtimeImportsOf(file));
    }
    return seen;
  };
  const loaded = reachable(['proxy/cli.ts', 'proxy/launch.ts', 'proxy/faces/web/hub.ts', 'proxy/pipeline/trace-recorder.ts', 'proxy/session/session.ts']);

  it('reaches the hub and a session (the graph is read)', () => {
    expect(loaded.has('proxy/faces/web/hub.ts')).toBe(true);
    expect(loaded.has('proxy/session/session.ts')).toBe(true);
    expect(loaded.has('proxy/pipeline/spec-validator.ts')).toBe(true);
    expect(loaded.size).toBeGreaterThan(60);
  });

  it('does not build the wire, trace event, rules or OAuth schemas', () => {
    const heavy = ['lib/wire/wire.ts', 'lib/wire/base.ts', 'lib/wire/events.ts', 'lib/wire/oauth.ts', 'lib/otel/schema.ts', 'lib/model/rules.ts', 'lib/trace/read-trace.ts'];
    expect(heavy.filter((file) => loaded.has(file))).toEqual([]);
  });

  // `ws` is CommonJS: through the ESM loader (import, import()) its five modules left an idle Loupe
  // 2–4 MB larger than `require` does (proxy/faces/web/server.ts, bench/memory.mjs).
  it('loads ws with require, not through the ESM loader', () => {
    const files = [...loaded, 'proxy/faces/web/server.ts'];
    const importsWs = (file) => /(?<!typeof\s)import\(\s*['"]ws['"]\s*\)(?!\.[A-Z])|^import\s+(?!type\b)[^;]*?\sfrom\s+['"]ws['"]/m.test(readFileSync(join(ROOT, file), 'utf8'));
    expect(files.filter(importsWs)).toEqual([]);
    expect(readFileSync(join(ROOT, 'proxy/faces/web/server.ts'), 'utf8')).toMatch(/createRequire\(import\.meta\.url\)\('ws'\)/);
  });
});
