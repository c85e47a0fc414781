// Runs the project's own `next` with Next.js telemetry off: `node .ci/next.mjs dev`.
// Loupe promises no telemetry, and Next collects it unless told not to. Next decides per process
// (node_modules/next/dist/telemetry/storage.js: `NEXT_TELEMETRY_DISABLED` in the environment, or
// `telemetry.enabled: false` in its user-wide config store). `next telemetry disable` would write that
// store for every project of the user, and `VAR=1 next …` in package.json is not Windows syntax, so the
// variable is set here, for the child only, in plain Node that runs the same in every shell.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/** The environment every `next` child of the project gets. */
export function nextEnv(env = process.env) {
  return { ...env, NEXT_TELEMETRY_DISABLED: '1' };
}

/** The Node entry of the installed `next` (no shell, no `.cmd` shim: the same on Windows). */
export function nextBin() {
  return require.resolve('next/dist/bin/next');
}

/**
 * Runs a Node script with inherited output; resolves to its exit code (a signal counts as 1).
 * Failures are values: a spawn error resolves to 1 after printing it.
 */
export function runNode(script, args, { cwd, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: 'inherit' });
    child.once('error', (error) => {
      console.error(`could not start ${script}: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await runNode(nextBin(), process.argv.slice(2), { env: nextEnv() });
}
