// Builds the two halves of Loupe, each only when it is stale:
//   node .ci/build.mjs [proxy] [ui] [--force]      (no half named: both; --force: build regardless)
// proxy = `tsc -p tsconfig.proxy.json` into dist/; ui = `next build` (static export) into out/.
//
// A half is up to date when a stamp written after its last successful build still matches both its
// inputs and its outputs. Both are content hashes (sha256 over sorted path + content), never mtimes:
// a fresh clone, a `git checkout` and a `touch` do not make anything stale, and an output that some
// other command rewrote (a bare `next build`, a half-finished tsc) no longer matches its stamp.
// The stamps live in dist/ (git-ignored, outside the packed dist/proxy and dist/lib, and not in out/,
// which the proxy serves and npm packs).
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nextBin, nextEnv, runNode } from './next.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Part of every fingerprint: bump it when the way a half is built changes, so old stamps go stale. */
const RECIPE = 1;

/**
 * What each half is built from and into. `dirs` are walked recursively (`ext`: only names ending
 * so; `skip`: paths left out). `files` that do not exist count too, so creating one (a .env,
 * next.config.ts) makes the half stale; so does a new folder like public/.
 * The UI takes every file under its folders: Next type-checks the tests there, and CSS, SVG and
 * markdown are inputs as much as code is. (Tailwind also scans the rest of the tree for class names;
 * a class that only appears outside these folders cannot matter to the page, so those files are not
 * inputs here.)
 */
export const HALVES = {
  proxy: {
    dirs: [{ dir: 'proxy', ext: '.ts' }, { dir: 'lib', ext: '.ts' }],
    // tsconfig.proxy.json leaves the tests out of dist/, so editing one rebuilds nothing here.
    skip: /\.test\.ts$/,
    files: ['tsconfig.proxy.json', 'package-lock.json'],
    outputs: ['dist/proxy', 'dist/lib'],
    marker: 'dist/proxy/cli.js',
    stamp: 'dist/.build-stamp-proxy.json',
    build: buildProxy,
  },
  ui: {
    dirs: [{ dir: 'app' }, { dir: 'components' }, { dir: 'lib' }, { dir: 'public' }],
    files: [
      'next.config.js', 'next.config.mjs', 'next.config.ts', 'postcss.config.mjs', 'postcss.config.js',
      'tsconfig.json', 'package-lock.json', '.env', '.env.local', '.env.production', '.env.production.local',
    ],
    outputs: ['out'],
    marker: 'out/index.html',
    stamp: 'dist/.build-stamp-ui.json',
    build: buildUi,
  },
};

/** Relative paths (always with `/`) of the files under `dir`, recursively; none if it is missing. */
export function listFiles(root, dir, ext = '') {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listFiles(root, path, ext);
    return entry.isFile() && path.endsWith(ext) ? [path] : [];
  });
}

/** path → sha256 of its bytes, in path order; `-` for a file that is missing. */
export function fileDigests(root, paths) {
  const digests = {};
  for (const path of [...new Set(paths)].sort()) {
    try {
      digests[path] = createHash('sha256').update(readFileSync(join(root, path))).digest('hex');
    } catch {
      digests[path] = '-'; // recorded as missing, so that its appearance changes the fingerprint
    }
  }
  return digests;
}

/** One sha256 over the sorted paths and their digests. */
export function combine(digests, salt = '') {
  const hash = createHash('sha256').update(`${salt}\n`);
  for (const path of Object.keys(digests).sort()) hash.update(`${path}\0${digests[path]}\n`);
  return hash.digest('hex');
}

/** A half's inputs: their digests and the fingerprint over them. */
export function inputState(root, half) {
  const found = half.dirs.flatMap(({ dir, ext }) => listFiles(root, dir, ext)).filter((path) => !half.skip?.test(path));
  const files = fileDigests(root, [...found, ...half.files]);
  return { hash: combine(files, `recipe ${RECIPE}`), files };
}

/** The fingerprint of what a half's build wrote. */
export function outputHash(root, half) {
  return combine(fileDigests(root, half.outputs.flatMap((dir) => listFiles(root, dir))));
}

/** The input paths that differ between two digest maps (for the message), at most three named. */
export function changedPaths(before = {}, after = {}) {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((p) => before[p] !== after[p]).sort();
  return paths.length <= 3 ? paths.join(', ') : `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more`;
}

/** Whether a half must be built, and why: `{ stale: false }` or `{ stale: true, reason }`. */
export function staleness(root, half) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, half.stamp), 'utf8'));
  } catch {
    return { stale: true, reason: 'no build stamp yet' };
  }
  if (!existsSync(join(root, half.marker))) return { stale: true, reason: `${half.marker} is missing` };
  const inputs = inputState(root, half);
  if (stamp.inputs !== inputs.hash) return { stale: true, reason: `changed since the last build: ${changedPaths(stamp.files, inputs.files) || 'the build recipe'}` };
  if (stamp.outputs !== outputHash(root, half)) return { stale: true, reason: 'its output was changed by another command' };
  return { stale: false };
}

/**
 * Builds one half if it is stale (or `force`), then stamps it. Resolves to an exit code.
 * The old stamp goes first, so an interrupted or failed build is never taken for a good one.
 */
export async function ensureBuilt(root, name, { force = false, half = HALVES[name], log = console.log } = {}) {
  const state = force ? { stale: true, reason: 'forced' } : staleness(root, half);
  if (!state.stale) {
    log(`build: ${name} is up to date (${half.outputs.join(', ')})`);
    return 0;
  }
  log(`build: ${name}: ${state.reason}; building`);
  const inputs = inputState(root, half);
  rmSync(join(root, half.stamp), { force: true });
  const started = performance.now();
  const code = await half.build(root, half);
  if (code !== 0) {
    log(`build: ${name} failed (exit ${code})`);
    return code;
  }
  mkdirSync(dirname(join(root, half.stamp)), { recursive: true });
  const stamp = { recipe: RECIPE, inputs: inputs.hash, outputs: outputHash(root, half), builtAt: new Date().toISOString(), files: inputs.files };
  writeFileSync(join(root, half.stamp), `${JSON.stringify(stamp, null, 2)}\n`);
  log(`build: ${name} built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

async function buildProxy(root, half) {
  // A half is rebuilt whole (about 5 s): tsc never deletes an output whose source was moved or
  // removed, so a stale dist/ would keep it and npm would pack it (a test helper, a file from before
  // a move). Its incremental state goes too, or tsc would think the emptied outputs still stand.
  rmSync(join(root, 'dist/.tsbuildinfo.proxy'), { force: true });
  for (const dir of half.outputs) rmSync(join(root, dir), { recursive: true, force: true });
  const code = await runNode(require.resolve('typescript/bin/tsc'), ['-p', 'tsconfig.proxy.json'], { cwd: root });
  if (code === 0) chmodSync(join(root, half.marker), 0o755);
  return code;
}

function buildUi(root) {
  return runNode(nextBin(), ['build'], { cwd: root, env: nextEnv() });
}

/** `[proxy] [ui] [--force]` → `{ ok, names, force }`; failures are values. */
export function parseArgs(argv) {
  const names = argv.filter((arg) => Object.hasOwn(HALVES, arg));
  const unknown = argv.filter((arg) => !Object.hasOwn(HALVES, arg) && arg !== '--force');
  if (unknown.length > 0) return { ok: false, error: `unknown argument ${unknown[0]}; usage: build.mjs [proxy] [ui] [--force]` };
  return { ok: true, names: names.length > 0 ? names : Object.keys(HALVES), force: argv.includes('--force') };
}

async function main(argv) {
  const args = parseArgs(argv);
  if (!args.ok) {
    console.error(`build: ${args.error}`);
    return 2;
  }
  // The halves share no input and no output: built side by side (tsc for the proxy, next for the page).
  const codes = await Promise.all(args.names.map((name) => ensureBuilt(ROOT, name, { force: args.force })));
  return codes.find((code) => code !== 0) ?? 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
