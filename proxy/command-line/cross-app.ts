/**
 * The command line of cross-app access (issue 29; Enterprise-Managed Authorization, SEP-990), and
 * secrets that stay off the command line. An IdP option (`--idp-token-endpoint URL` or
 * `--idp-url URL`) chooses the grant: the ID token (`--id-token-file FILE` / `--id-token-env NAME`)
 * is exchanged at the IdP (as `--idp-client-id`) for an identity assertion, which the authorization
 * server trades for an access token, authenticating Loupe as `--client-id` with its secret.
 *
 * No secret is taken on the command line here (any user of the machine can list a process's
 * arguments): each one comes from a file (`…-file FILE`, read as is, without its final line break)
 * or from an environment variable whose name is given (`…-env NAME`). `--client-secret-file` and
 * `--client-secret-env` are the safe forms of `--client-secret` for every grant. The parser in
 * options.ts merges these specs through oauth.ts's OAUTH_OPTIONS.
 */
import { readFileSync } from 'node:fs';
import type { IdpSettings } from '../../lib/wire/oauth.ts';
import type { OAuthOptions } from '../oauth/provider/provider.ts';

type Holder = { oauth: OAuthOptions };
export interface CrossAppSpec {
  takesValue: true;
  apply(options: Holder, value: string, flag: string): string | undefined;
}

/** A secret from a file (its final line break dropped) or a named environment variable; the sentence why not. */
export function readSecret(flag: string, value: string, env: NodeJS.ProcessEnv = process.env): { ok: true; secret: string } | { ok: false; error: string } {
  if (value.trim() === '') return { ok: false, error: `${flag} needs a value.` };
  let secret: string | undefined;
  if (flag.endsWith('-env')) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) return { ok: false, error: `${flag} takes the name of an environment variable (letters, digits, _), got ${JSON.stringify(value)}.` };
    secret = env[value];
    if (secret === undefined) return { ok: false, error: `${flag}: the environment variable ${value} is not set.` };
  } else {
    try {
      secret = readFileSync(value, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      return { ok: false, error: `${flag}: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).` };
    }
  }
  if (secret.trim() === '') return { ok: false, error: `${flag}: ${flag.endsWith('-env') ? `the environment variable ${value}` : value} is empty.` };
  return { ok: true, secret };
}

const idpOf = (o: Holder): IdpSettings => (o.oauth.idp ??= {});

/** A secret option: from its file or variable into `set`, refused when the same secret was given already. */
function secret(what: string, has: (o: OAuthOptions) => boolean, set: (o: Holder, secret: string) => void): CrossAppSpec {
  return {
    takesValue: true,
    apply: (o, value, flag) => {
      if (has(o.oauth)) return `${what} is given twice: keep one of its options.`;
      const read = readSecret(flag, value);
      if (!read.ok) return read.error;
      set(o, read.secret);
      return undefined;
    },
  };
}

/** An IdP URL: http(s); choosing one chooses cross-app access. */
function idpUrl(set: (idp: IdpSettings, url: string) => void): CrossAppSpec {
  return {
    takesValue: true,
    apply: (o, value, flag) => {
      if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return `${flag} expects the IdP's http(s) URL, got ${JSON.stringify(value)}.`;
      set(idpOf(o), value);
      o.oauth.grant = 'cross_app_access';
      return undefined;
    },
  };
}

export const CROSS_APP_OPTIONS = new Map<string, CrossAppSpec>([
  ['--client-secret-file', secret('The client secret', (o) => o.clientSecret !== undefined, (o, s) => (o.oauth.clientSecret = s))],
  ['--client-secret-env', secret('The client secret', (o) => o.clientSecret !== undefined, (o, s) => (o.oauth.clientSecret = s))],
  ['--idp-token-endpoint', idpUrl((idp, url) => (idp.tokenEndpoint = url))],
  ['--idp-url', idpUrl((idp, url) => (idp.url = url))],
  ['--idp-client-id', { takesValue: true, apply: (o, v, f) => (v.trim() === '' ? `${f} needs a value.` : void (idpOf(o).clientId = v.trim())) }],
  ['--idp-client-secret-file', secret('The IdP client secret', (o) => o.idp?.clientSecret !== undefined, (o, s) => (idpOf(o).clientSecret = s))],
  ['--idp-client-secret-env', secret('The IdP client secret', (o) => o.idp?.clientSecret !== undefined, (o, s) => (idpOf(o).clientSecret = s))],
  [
    '--id-token-file',
    {
      takesValue: true,
      apply: (o, value, flag) => {
        if (o.oauth.idTokenFile !== undefined || o.oauth.idp?.idToken !== undefined) return 'The ID token is given twice: keep one of its options.';
        // Read now to say at once when it cannot be; read again at each exchange (a script may renew it).
        const read = readSecret(flag, value);
        if (!read.ok) return read.error;
        o.oauth.idTokenFile = value;
        return undefined;
      },
    },
  ],
  ['--id-token-env', secret('The ID token', (o) => o.idTokenFile !== undefined || o.idp?.idToken !== undefined, (o, s) => (idpOf(o).idToken = s.trim()))],
]);

/** The lines of `--help` for these options. */
export const CROSS_APP_USAGE = `
Secrets off the command line (any user can list a process's arguments; a file is read as is, less its last line break):
  --client-secret-file <file>     the client secret, from a file only you can read
  --client-secret-env <NAME>      the client secret, from the environment variable NAME

Cross-app access (enterprise IdP, SEP-990): the IdP exchanges your ID token for an identity assertion
(ID-JAG, RFC 8693), which the authorization server trades for an access token (jwt-bearer, RFC 7523):
  --idp-token-endpoint <url>      the IdP's token endpoint
  --idp-url <url>                 or the IdP's issuer URL (its metadata names the token endpoint)
  --idp-client-id <id>            Loupe's client id at the IdP
  --idp-client-secret-file <file> / --idp-client-secret-env <NAME>
                                  its secret at the IdP, where it has one
  --id-token-file <file> / --id-token-env <NAME>
                                  your ID token from the IdP (the file is read again at each sign-in)
  with --client-id <id> and --client-secret-file <file> (or -env): Loupe's client at the authorization server
`;

/** Whether any cross-app option was given. */
export function hasCrossAppOptions(o: OAuthOptions): boolean {
  return o.grant === 'cross_app_access' || o.idp !== undefined || o.idTokenFile !== undefined;
}

/** What cross-app access needs of the other options; undefined when they fit (or none was given). */
export function checkCrossApp(o: OAuthOptions): string | undefined {
  if (!hasCrossAppOptions(o)) return undefined;
  const idp = o.idp ?? {};
  // --oauth-client-credentials sets its grant too: whichever came last, both were asked for.
  if (o.clientCredentials === true) return 'Cross-app access and --oauth-client-credentials are two ways to sign in: keep one.';
  if (o.grant !== 'cross_app_access') return '--idp-client-id, --idp-client-secret-… and --id-token-… belong to cross-app access: add --idp-token-endpoint URL or --idp-url URL.';
  if (idp.tokenEndpoint !== undefined && idp.url !== undefined) return 'Cross-app access takes the IdP once: keep --idp-token-endpoint (its token endpoint) or --idp-url (its issuer, for discovery).';
  if (o.privateKeyPem !== undefined) return 'Cross-app access authenticates at the authorization server with a client secret (client_secret_basic), not --client-private-key.';
  if (o.clientMetadataUrl !== undefined) return 'Cross-app access uses a pre-registered client: use --client-id, not --client-metadata-url.';
  const missing = [
    ...(o.clientId === undefined ? ['--client-id ID (Loupe at the authorization server)'] : []),
    ...(o.clientSecret === undefined ? ['--client-secret-file FILE or --client-secret-env NAME (its secret there)'] : []),
    ...(idp.clientId === undefined ? ['--idp-client-id ID'] : []),
    ...(idp.idToken === undefined && o.idTokenFile === undefined ? ['--id-token-file FILE or --id-token-env NAME'] : []),
  ];
  return missing.length > 0 ? `Cross-app access needs ${missing.join(', ')}.` : undefined;
}
