// The client command the conformance runner (.ci/conformance.mjs) gives the suite:
//   node .ci/conformance-client.mjs [--loupe PATH] <Loupe's options...> <server url>
// It runs `node dist/proxy/cli.js <Loupe's options...> [OAuth options] <server url>` and passes on
// its exit code.
//
// Why a wrapper: the suite hands a scenario's credentials (a pre-registered client id and secret,
// a client_credentials secret, a private key made for this run) to the client in the environment
// variable MCP_CONFORMANCE_CONTEXT (JSON). Loupe must not read a test suite's environment, so this
// translates the context into the command-line options a user would type: --client-id,
// --client-secret, --oauth-client-credentials, --client-private-key FILE (the PEM written to a
// temporary file only this user can read, removed when Loupe exits) and --client-signing-alg.
// Without a context, an auth scenario gets --client-metadata-url with the URL the suite's own client
// uses, so that a server offering client ID metadata documents sees one (auth/basic-cimd).
// The cross-app access scenario's context (an identity provider's ID token) has no Loupe option:
// Loupe does not implement that extension (SEP-990), and runs without OAuth options there.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The client id metadata document URL the suite's reference client uses (its auth scenarios accept it as is). */
export const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** The context of MCP_CONFORMANCE_CONTEXT, or undefined when there is none or it is not a JSON object. */
export function readContext(text) {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The OAuth options for a scenario's context. `keyFile(pem)` stores a private key and returns its
 * path. Returns { flags, note } — note: a sentence for stderr when the context cannot be used.
 */
export function oauthFlags(context, scenario, keyFile) {
  const auth = typeof scenario === 'string' && scenario.startsWith('auth/');
  const id = typeof context?.client_id === 'string' ? context.client_id : undefined;
  if (typeof context?.idp_id_token === 'string') {
    return { flags: [], note: 'this scenario signs in through an identity provider (cross-app access, SEP-990), which Loupe does not implement; running without OAuth options.' };
  }
  if (id && typeof context.private_key_pem === 'string') {
    const alg = typeof context.signing_algorithm === 'string' ? ['--client-signing-alg', context.signing_algorithm] : [];
    return { flags: ['--oauth-client-credentials', '--client-id', id, '--client-private-key', keyFile(context.private_key_pem), ...alg] };
  }
  if (id && typeof context.client_secret === 'string') {
    const machine = /client-credentials/.test(String(context.name ?? scenario ?? ''));
    return { flags: [...(machine ? ['--oauth-client-credentials'] : []), '--client-id', id, '--client-secret', context.client_secret] };
  }
  return { flags: auth ? ['--client-metadata-url', CIMD_URL] : [] };
}

/** Splits `[--loupe PATH] options... url` into the CLI to run, Loupe's options and the URL (the last word). */
export function splitArgs(argv) {
  let loupe = join(ROOT, 'dist/proxy/cli.js');
  let rest = argv;
  if (rest[0] === '--loupe' && rest[1]) {
    loupe = rest[1];
    rest = rest.slice(2);
  }
  return { loupe, options: rest.slice(0, -1), url: rest.at(-1) };
}

function main(argv, env) {
  const { loupe, options, url } = splitArgs(argv);
  if (!url) {
    process.stderr.write('conformance-client: usage: node .ci/conformance-client.mjs [--loupe PATH] <options...> <server url>\n');
    return Promise.resolve(2);
  }
  let keyDir;
  const keyFile = (pem) => {
    keyDir ??= mkdtempSync(join(tmpdir(), 'loupe-conformance-key-'));
    const path = join(keyDir, 'client-key.pem');
    writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
    return path;
  };
  const cleanup = () => keyDir && rmSync(keyDir, { recursive: true, force: true });
  const { flags, note } = oauthFlags(readContext(env.MCP_CONFORMANCE_CONTEXT), env.MCP_CONFORMANCE_SCENARIO, keyFile);
  if (note) process.stderr.write(`conformance-client: ${note}\n`);
  // Loupe gets the options, not the suite's variables: nothing in it can come to depend on them.
  const { MCP_CONFORMANCE_CONTEXT: _context, MCP_CONFORMANCE_SCENARIO: _scenario, ...loupeEnv } = env;
  const child = spawn(process.execPath, [loupe, ...options, ...flags, url], { stdio: 'inherit', env: loupeEnv });
  // The runner stops the whole process group; a signal to this one alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.once('error', (error) => {
      cleanup();
      process.stderr.write(`conformance-client: cannot start ${loupe}: ${error.message}\n`);
      resolve(3);
    });
    child.once('exit', (code, signal) => {
      cleanup();
      resolve(code ?? (signal === 'SIGINT' ? 130 : 143));
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
