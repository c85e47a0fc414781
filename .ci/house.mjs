// The house's shape, measured from the tree (issue 22): import circles between product files,
// folders without a README, files and functions over their line limits, prefixes standing in for folders. Used by
// .ci/house.test.mjs; `node .ci/house.mjs` prints what it finds.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The folders that hold product code, each opened by a README.md in every folder below it. */
export const PRODUCT = ['proxy', 'lib', 'app', 'components'];
const CODE = /\.(ts|tsx)$/;
const TEST = /\.test\.(ts|tsx)$/;

/** Every folder under the product folders (relative paths), the product folders included. */
export function productFolders(root = ROOT) {
  const out = [];
  const walk = (dir) => {
    out.push(dir);
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) if (entry.isDirectory()) walk(`${dir}/${entry.name}`);
  };
  for (const top of PRODUCT) walk(top);
  return out;
}

/** Product source files (no tests, no test helpers under testing/). */
export function productFiles(root = ROOT) {
  return productFolders(root).flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => CODE.test(name) && !TEST.test(name) && statSync(join(root, dir, name)).isFile())
      .map((name) => `${dir}/${name}`),
  ).filter((file) => !file.includes('/testing/'));
}

/** The product files one file imports (static, dynamic and type-only imports of relative or `@/` paths). */
export function importsOf(file, root = ROOT) {
  const text = readFileSync(join(root, file), 'utf8');
  return targets(file, [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])((?:\.\.?\/|@\/)[^'"]+)\1/gm)].map((m) => m[2]), root);
}

/**
 * The product files one file loads as it is loaded: its static imports and re-exports, not
 * `import type` nor `import()` (what a launch reads before it runs: proxy/startup-imports.test.ts).
 */
export function runtimeImportsOf(file, root = ROOT) {
  const text = readFileSync(join(root, file), 'utf8');
  return targets(file, [...text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?(['"])((?:\.\.?\/|@\/)[^'"]+)\1/gm)].map((m) => m[2]), root);
}

/** Import specifiers of `file` as repository paths, those that exist. */
function targets(file, specs, root) {
  return specs.map((spec) => normalize(spec.startsWith('@/') ? spec.slice(2) : join(dirname(file), spec))).filter((target) => existsSync(join(root, target)));
}

/** Strongly connected components of more than one file (Tarjan): the import circles. */
export function importCircles(root = ROOT) {
  const files = productFiles(root);
  const edges = new Map(files.map((f) => [f, importsOf(f, root).filter((t) => t !== f)]));
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return circles;
}

/** Product files over `limit` lines. */
export function longFiles(limit = 400, root = ROOT) {
  return productFiles(root).map((f) => [f, (readFileSync(join(root, f), 'utf8').match(/\n/g) ?? []).length]).filter(([, n]) => n > limit);
}

/**
 * Functions (declarations, expressions, arrows, methods, accessors) over `limit` lines in product
 * files, from the first line of the function to its last: `file:line name (n lines)`.
 */
export function longFunctions(limit = 80, root = ROOT) {
  const found = [];
  for (const file of productFiles(root)) {
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const line = (pos) => source.getLineAndCharacterOfPosition(pos).line;
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const lines = line(node.end) - line(node.getStart(source)) + 1;
        if (lines > limit) found.push(`${file}:${line(node.getStart(source)) + 1} ${nameOf(node)} (${lines} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  return '(anonymous)';
}

/**
 * Folders where `min` or more files share the first word of their name (`oauth-guided`, `oauth-store`…):
 * a prefix doing a folder's work.
 */
export function prefixGroups(min = 4, root = ROOT) {
  const found = [];
  for (const dir of productFolders(root)) {
    const counts = new Map();
    for (const name of readdirSync(join(root, dir))) {
      if (!CODE.test(name) || TEST.test(name)) continue;
      const word = name.replace(CODE, '').split(/[-.]/)[0];
      // Hooks are named use-x.ts by the house style, whatever folder they are in.
      if (word === 'use') continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    for (const [word, n] of counts) if (n >= min) found.push(`${dir}/${word}-* (${n} files)`);
  }
  return found;
}

/** Folders under the product folders without a README.md. */
export function foldersWithoutReadme(root = ROOT) {
  return productFolders(root).filter((dir) => !existsSync(join(root, dir, 'README.md')));
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  console.log('circles:', importCircles());
  console.log('long files:', longFiles());
  console.log('long functions:', longFunctions());
  console.log('prefix groups:', prefixGroups());
  console.log('folders without README:', foldersWithoutReadme());
}
