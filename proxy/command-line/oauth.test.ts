/**
 * The OAuth options of the command line (oauth.ts): each flag's value checks, the PEM read from
 * --client-private-key (and its algorithm found from the key), the combination checks with one plain
 * sentence each, and the provider options made from them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOAuth, defaultSigningAlg, emptyOAuth, hasOAuthOptions, OAUTH_OPTIONS, OAUTH_USAGE, oauthOptionsOf, type CliOAuthOptions } from './oauth.ts';

const dir = mkdtempSync(join(tmpdir(), 'loupe-cli-oauth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keyFile = (kind: 'es256' | 'rs256') => {
  const path = join(dir, `${kind}.pem`);
  writeFileSync(path, execFileSync(process.execPath, ['e2e/fixtures/oauth/keys.mjs', kind], { encoding: 'utf8' }), { mode: 0o600 });
  return path;
};

/** Applies flags as the parser does (`[flag, value]` pairs); the first error, or the options. */
function apply(...flags: [string, string?][]): { oauth: CliOAuthOptions; error?: string } {
  const holder = { oauth: emptyOAuth() };
  for (const [flag, value = ''] of flags) {
    const spec = OAUTH_OPTIONS.get(flag);
    if (!spec) throw new Error(`no spec for ${flag}`);
    expect(spec.takesValue).toBe(value !== '' || flag === '--client-secret');
    const error = spec.apply(holder, value, flag);
    if (error) return { ...holder, error };
  }
  return holder;
}

describe('the flags', () => {
  it('fill the OAuth options; the usage names every flag', () => {
    const { oauth, error } = apply(['--client-id', 'loupe'], ['--client-secret', 's3cret'], ['--scope', ' mcp   admin '], ['--remember-credentials']);
    expect(error).toBeUndefined();
    expect(oauth).toEqual({ clientId: 'loupe', clientSecret: 's3cret', scope: 'mcp admin', rememberCredentials: true });
    for (const name of OAUTH_OPTIONS.keys()) expect(OAUTH_USAGE).toContain(name);
  });

  it('refuse an empty value and a client metadata URL that is not https with a path', () => {
    expect(apply(['--client-secret', '']).error).toBe('--client-secret needs a value.');
    expect(apply(['--client-metadata-url', 'http://example.com/loupe.json']).error).toMatch(/expects the https URL of a client ID metadata document/);
    expect(apply(['--client-metadata-url', 'https://example.com/']).error).toMatch(/with a path/);
    expect(apply(['--client-metadata-url', 'https://example.com/loupe.json']).oauth.clientMetadataUrl).toBe('https://example.com/loupe.json');
  });

  it('--oauth-client-credentials sets the grant', () => {
    expect(apply(['--oauth-client-credentials']).oauth).toMatchObject({ clientCredentials: true, grant: 'client_credentials' });
  });

  it('--client-private-key reads the PEM; a missing file or a non-key says so', () => {
    const path = keyFile('es256');
    expect(apply(['--client-private-key', path]).oauth).toMatchObject({ privateKeyFile: path, privateKeyPem: expect.stringContaining('-----BEGIN PRIVATE KEY-----') });
    expect(apply(['--client-private-key', join(dir, 'missing.pem')]).error).toBe(`--client-private-key: cannot read ${join(dir, 'missing.pem')} (ENOENT).`);
    const notKey = join(dir, 'not-a-key.pem');
    writeFileSync(notKey, 'hello');
    expect(apply(['--client-private-key', notKey]).error).toMatch(/is not a PEM private key/);
  });

  it('--client-signing-alg takes the JOSE names, in any case', () => {
    expect(apply(['--client-signing-alg', 'es384']).oauth.signingAlg).toBe('ES384');
    expect(apply(['--client-signing-alg', 'HS256']).error).toMatch(/expects one of ES256, .*PS512, got "HS256"/);
  });
});

describe('checkOAuth', () => {
  const check = (flags: [string, string?][], target: string[] = ['https://srv/mcp']) => {
    const { oauth, error } = apply(...flags);
    expect(error).toBeUndefined();
    return { error: checkOAuth(oauth, { words: target }), oauth };
  };

  it('accepts what fits, and finds the algorithm from the key', () => {
    expect(check([['--client-id', 'a'], ['--client-secret', 'b']]).error).toBeUndefined();
    expect(check([]).error).toBeUndefined();
    const es = check([['--oauth-client-credentials'], ['--client-id', 'loupe-jwt-client'], ['--client-private-key', keyFile('es256')]]);
    expect(es).toMatchObject({ error: undefined, oauth: { signingAlg: 'ES256' } });
    const rs = check([['--oauth-client-credentials'], ['--client-id', 'x'], ['--client-private-key', keyFile('rs256')]]);
    expect(rs.oauth.signingAlg).toBe('RS256');
    expect(defaultSigningAlg('not a key')).toBeUndefined();
  });

  it('names what is missing or does not fit, one sentence each', () => {
    expect(check([['--client-secret', 'b']]).error).toBe('--client-secret belongs to a client id: add --client-id ID.');
    expect(check([['--oauth-client-credentials'], ['--client-secret', 'b']]).error).toMatch(/^--client-secret belongs to a client id/);
    expect(check([['--oauth-client-credentials']]).error).toBe("--oauth-client-credentials needs the machine client's id: add --client-id ID.");
    expect(check([['--oauth-client-credentials'], ['--client-id', 'a']]).error).toMatch(/needs a credential: add --client-secret SECRET or --client-private-key FILE/);
    expect(check([['--client-id', 'a'], ['--client-private-key', keyFile('es256')]]).error).toMatch(/add --oauth-client-credentials/);
    expect(check([['--oauth-client-credentials'], ['--client-id', 'a'], ['--client-secret', 'b'], ['--client-private-key', keyFile('es256')]]).error).toMatch(/a secret or a private key, not both/);
    expect(check([['--client-signing-alg', 'ES256']]).error).toMatch(/is the algorithm of --client-private-key FILE/);
    expect(check([['--oauth-client-credentials'], ['--client-id', 'a'], ['--client-secret', 'b'], ['--client-metadata-url', 'https://x.example/m.json']]).error).toMatch(/--client-metadata-url is for signing in with a browser/);
  });

  it('the sign-in options need a URL target; --remember-credentials alone does not', () => {
    expect(check([['--client-id', 'a']], ['node', 'server.js']).error).toBe('The OAuth options sign in to a remote server, but the target node is a command: give the server\'s URL.');
    expect(check([['--remember-credentials']], ['node', 'server.js']).error).toBeUndefined();
    const { oauth } = apply(['--client-id', 'a']);
    expect(checkOAuth(oauth, { words: [], config: 'mcp.json' })).toBeUndefined();
    expect(hasOAuthOptions(emptyOAuth())).toBe(false);
  });

  it('gives the provider its options without the CLI-only fields', () => {
    const { oauth } = check([['--client-id', 'a'], ['--remember-credentials'], ['--scope', 'mcp']]);
    expect(oauthOptionsOf(oauth)).toEqual({ clientId: 'a', scope: 'mcp' });
  });
});
