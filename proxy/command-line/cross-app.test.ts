/**
 * The command line of cross-app access and of secrets kept off it (cross-app.ts), through the whole
 * parser (options.ts): each secret from a file (its last line break dropped) or a named variable,
 * never from the command line; an IdP option chooses the grant; what is missing or does not fit is
 * said in one sentence.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CROSS_APP_OPTIONS, readSecret } from './oauth.ts';
import { OAUTH_USAGE, oauthOptionsOf } from './oauth.ts';
import { parseCliArgs } from './options.ts';

const dir = mkdtempSync(join(tmpdir(), 'loupe-cli-xaa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};
const variables: string[] = [];
afterEach(() => {
  for (const name of variables.splice(0)) delete process.env[name];
});
const env = (name: string, value: string) => {
  process.env[name] = value;
  variables.push(name);
};

const URL_TARGET = 'https://mcp.example.com/mcp';
const parse = (...argv: string[]) => parseCliArgs([...argv, URL_TARGET]);
const error = (...argv: string[]) => {
  const parsed = parse(...argv);
  return parsed.ok ? undefined : parsed.error;
};

describe('secrets off the command line', () => {
  it('--client-secret-file reads the file less its last line break; --client-secret-env the named variable', () => {
    const fromFile = parse('--client-id', 'c', '--client-secret-file', file('secret', 's3cret\n'));
    expect(fromFile.ok && fromFile.options.oauth).toMatchObject({ clientId: 'c', clientSecret: 's3cret' });
    env('LOUPE_TEST_SECRET', 'from-env');
    const fromEnv = parse('--client-id', 'c', '--client-secret-env', 'LOUPE_TEST_SECRET');
    expect(fromEnv.ok && fromEnv.options.oauth.clientSecret).toBe('from-env');
  });

  it('says why a secret cannot be had: no file, empty, an unset or badly named variable, given twice', () => {
    expect(readSecret('--client-secret-file', join(dir, 'missing'))).toEqual({ ok: false, error: `--client-secret-file: cannot read ${join(dir, 'missing')} (ENOENT).` });
    expect(readSecret('--client-secret-file', file('empty', '\n'))).toEqual({ ok: false, error: `--client-secret-file: ${join(dir, 'empty')} is empty.` });
    expect(readSecret('--client-secret-env', 'LOUPE_NOT_SET_XYZ')).toEqual({ ok: false, error: '--client-secret-env: the environment variable LOUPE_NOT_SET_XYZ is not set.' });
    expect(readSecret('--client-secret-env', 'not a name')).toEqual({ ok: false, error: '--client-secret-env takes the name of an environment variable (letters, digits, _), got "not a name".' });
    env('LOUPE_TEST_SECRET', 'x');
    expect(error('--client-id', 'c', '--client-secret', 'a', '--client-secret-env', 'LOUPE_TEST_SECRET')).toBe('The client secret is given twice: keep one of its options.');
  });

  it('every option is in --help, and none of them takes a secret as its value', () => {
    for (const name of CROSS_APP_OPTIONS.keys()) expect(OAUTH_USAGE).toContain(name);
    expect([...CROSS_APP_OPTIONS.keys()].filter((n) => /secret|token/.test(n) && !/-(file|env)$/.test(n) && n !== '--idp-token-endpoint')).toEqual([]);
  });
});

describe('cross-app access', () => {
  const idToken = () => file('id-token', 'eyJ.eyJ.sig\n');
  const complete = () => ['--idp-token-endpoint', 'https://idp.example.com/token', '--idp-client-id', 'loupe-at-idp', '--id-token-file', idToken(), '--client-id', 'loupe', '--client-secret-file', file('cs', 'shh')];

  it('an IdP option chooses the grant; the provider gets the IdP, the client and the ID token file, not its text', () => {
    const parsed = parse(...complete());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const options = oauthOptionsOf(parsed.options.oauth);
    expect(options).toEqual({ grant: 'cross_app_access', clientId: 'loupe', clientSecret: 'shh', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'loupe-at-idp' }, idTokenFile: join(dir, 'id-token') });
  });

  it('takes the ID token and the IdP secret from variables, and the IdP by its issuer', () => {
    env('LOUPE_TEST_ID_TOKEN', ' eyJ.eyJ.sig\n');
    env('LOUPE_TEST_IDP_SECRET', 'idp-secret');
    const parsed = parse('--idp-url', 'https://idp.example.com', '--idp-client-id', 'i', '--idp-client-secret-env', 'LOUPE_TEST_IDP_SECRET', '--id-token-env', 'LOUPE_TEST_ID_TOKEN', '--client-id', 'loupe', '--client-secret-file', file('cs2', 'shh'));
    expect(parsed.ok && parsed.options.oauth.idp).toEqual({ url: 'https://idp.example.com', clientId: 'i', clientSecret: 'idp-secret', idToken: 'eyJ.eyJ.sig' });
  });

  it('names what is missing, all at once', () => {
    expect(error('--idp-token-endpoint', 'https://idp/token')).toBe('Cross-app access needs --client-id ID (Loupe at the authorization server), --client-secret-file FILE or --client-secret-env NAME (its secret there), --idp-client-id ID, --id-token-file FILE or --id-token-env NAME.');
    expect(error('--idp-token-endpoint', 'https://idp/token', '--idp-client-id', 'i', '--id-token-file', idToken(), '--client-id', 'c')).toBe('Cross-app access needs --client-secret-file FILE or --client-secret-env NAME (its secret there).');
  });

  it('refuses what does not fit, one sentence each', () => {
    expect(error('--idp-client-id', 'i')).toMatch(/^--idp-client-id, --idp-client-secret-… and --id-token-… belong to cross-app access: add --idp-token-endpoint URL or --idp-url URL\.$/);
    expect(error('--id-token-file', idToken())).toMatch(/belong to cross-app access/);
    expect(error(...complete(), '--idp-url', 'https://idp.example.com')).toMatch(/takes the IdP once/);
    expect(error(...complete(), '--oauth-client-credentials')).toMatch(/two ways to sign in/);
    expect(error(...complete(), '--client-metadata-url', 'https://x.example.com/c.json')).toMatch(/uses a pre-registered client/);
    expect(error('--idp-token-endpoint', 'idp.example.com/token')).toBe('--idp-token-endpoint expects the IdP\'s http(s) URL, got "idp.example.com/token".');
    expect(error(...complete(), '--id-token-env', 'HOME')).toBe('The ID token is given twice: keep one of its options.');
    expect(parseCliArgs([...complete(), 'node', 'server.js'])).toMatchObject({ ok: false, error: expect.stringMatching(/the target node is a command: give the server's URL/) });
  });
});
