// The client command the conformance runner (.ci/conformance.mjs) gives the suite:
//   node .ci/conformance-client.mjs [--loupe PATH] <Loupe's options...> <server url>
// It runs `node dist/proxy/cli.js <Loupe's options...> [OAuth options] <server url>` and passes on
// its exit code.
//
// Why a wrapper: the suite hands a scenario's credentials (a pre-registered client id and secret,
// a client_credentials secret, a private key made for this run, an identity provider's ID token) to
// the client in the environment variable MCP_CONFORMANCE_CONTEXT (JSON). Loupe must not read a test
// suite's environment, so this translates the context into the command-line options a user would
// type: --client-id, --oauth-client-credentials, --client-private-key FILE, --client-signing-alg,
// and for cross-app access (SEP-990) --idp-token-endpoint, --idp-client-id and --id-token-file FILE.
// No secret goes on the command line: each (client secret, private key, ID token) is written to a
// temporary file only this user can read, removed when Loupe exits, and named with its -file option.
// Without a context, an auth scenario gets --client-metadata-url with the URL the suite's own client
// uses, so that a server offering client ID metadata documents sees one (auth/basic-cimd).
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

const text = (value) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Cross-app access (SEP-990): the IdP's token endpoint (or its issuer), its client id, the ID token; Loupe's client at the AS. */
function crossAppFlags(context, secretFile) {
  const idp = text(context.idp_token_endpoint) ? ['--idp-token-endpoint', context.idp_token_endpoint] : ['--idp-url', context.idp_issuer];
  const idpClient = text(context.idp_client_id) ? ['--idp-client-id', context.idp_client_id] : [];
  const idpSecret = text(context.idp_client_secret) ? ['--idp-client-secret-file', secretFile('idp-client-secret', context.idp_client_secret)] : [];
  const client = text(context.client_id) ? ['--client-id', context.client_id] : [];
  const secret = text(context.client_secret) ? ['--client-secret-file', secretFile('client-secret', context.client_secret)] : [];
  return [...idp, ...idpClient, ...idpSecret, '--id-token-file', secretFile('id-token', context.idp_id_token), ...client, ...secret];
}

/**
 * The OAuth options for a scenario's context. `secretFile(name, text)` stores a secret in a file
 * only this user can read and returns its path. Returns { flags, note } — note: a sentence for
 * stderr when the context cannot be used.
 */
export function oauthFlags(context, scenario, secretFile) {
  const auth = typeof scenario === 'string' && scenario.startsWith('auth/');
  const id = text(context?.client_id);
  if (text(context?.idp_id_token)) {
    if (!text(context.idp_token_endpoint) && !text(context.idp_issuer)) return { flags: [], note: 'this cross-app access context names neither the IdP token endpoint nor its issuer; running without OAuth options.' };
    return { flags: crossAppFlags(context, secretFile) };
  }
  if (id && typeof context.private_key_pem === 'string') {
    const alg = typeof context.signing_algorithm === 'string' ? ['--client-signing-alg', context.signing_algorithm] : [];
    return { flags: ['--oauth-client-credentials', '--client-id', id, '--client-private-key', secretFile('client-key.pem', context.private_key_pem), ...alg] };
  }
  if (id && typeof context.client_secret === 'string') {
    const machine = /client-credentials/.test(String(context.name ?? scenario ?? ''));
    return { flags: [...(machine ? ['--oauth-client-credentials'] : []), '--client-id', id, '--client-secret-file', secretFile('client-secret', context.client_secret)] };
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
  let secretDir;
  const secretFile = (name, text) => {
    secretDir ??= mkdtempSync(join(tmpdir(), 'loupe-conformance-secret-'));
    const path = join(secretDir, name);
    writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
    return path;
  };
  const cleanup = () => secretDir && rmSync(secretDir, { recursive: true, force: true });
  const { flags, note } = oauthFlags(readContext(env.MCP_CONFORMANCE_CONTEXT), env.MCP_CONFORMANCE_SCENARIO, secretFile);
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
