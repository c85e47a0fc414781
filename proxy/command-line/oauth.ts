/**
 * The OAuth options of the command line (issue 11 §4), for every mode — the UI's session of the
 * command-line target signs in with them too: `--client-id`, `--client-secret`,
 * `--client-metadata-url`, `--scope`, `--oauth-client-credentials` (with a secret, or with
 * `--client-private-key FILE` [+ `--client-signing-alg ALG`] for private_key_jwt) and
 * `--remember-credentials`; the secret-file options and cross-app access are below.
 * Specs in the shape of headless.ts's HEADLESS_OPTIONS, which the parser in options.ts merges.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IdpSettings } from '../../lib/wire/oauth.ts';
import type { OAuthOptions } from '../oauth/provider/provider.ts';

// ---------------------------------------------------------------------------------------------
/*
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

// ---------------------------------------------------------------------------------------------

export interface CliOAuthOptions extends OAuthOptions {
  /** `--client-private-key FILE`: where the PEM came from, for messages. */
  privateKeyFile?: string;
  /** `--remember-credentials`: keep tokens and registered clients across launches (oauth-store.ts). */
  rememberCredentials: boolean;
}

export function emptyOAuth(): CliOAuthOptions {
  return { rememberCredentials: false };
}

/** Anything that has the OAuth options: the parser's CliOptions once `oauth` is added to it. */
type HasOAuth = { oauth: CliOAuthOptions };
type Apply = (options: HasOAuth, value: string, flag: string) => string | undefined;

export interface OAuthSpec {
  takesValue: boolean;
  apply: Apply;
}

/** The algorithms private_key_jwt may sign with here (asymmetric JOSE algorithms jose imports from PKCS#8). */
export const SIGNING_ALGS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const;

const flag = (apply: (o: CliOAuthOptions) => void): OAuthSpec => ({ takesValue: false, apply: (o) => void apply(o.oauth) });
const text = (set: (o: CliOAuthOptions, v: string) => void): OAuthSpec => ({
  takesValue: true,
  apply: (o, v, f) => (v.trim() === '' ? `${f} needs a value.` : void set(o.oauth, v)),
});

function applyMetadataUrl(o: HasOAuth, value: string, f: string): string | undefined {
  // The SDK's own rule for a URL-based client id (SEP-991): https, with a path.
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || url.pathname === '/') return `${f} expects the https URL of a client ID metadata document, with a path (https://example.com/loupe.json), got ${JSON.stringify(value)}.`;
  o.oauth.clientMetadataUrl = value;
  return undefined;
}

function applyPrivateKey(o: HasOAuth, value: string, f: string): string | undefined {
  if (value === '') return `${f} needs a value.`;
  let pem: string;
  try {
    pem = readFileSync(value, 'utf8');
  } catch (error) {
    return `${f}: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`;
  }
  if (!/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/.test(pem)) return `${f}: ${value} is not a PEM private key (it has no "-----BEGIN PRIVATE KEY-----" line).`;
  o.oauth.privateKeyPem = pem;
  o.oauth.privateKeyFile = value;
  return undefined;
}

function applySigningAlg(o: HasOAuth, value: string, f: string): string | undefined {
  const alg = value.toUpperCase();
  if (!(SIGNING_ALGS as readonly string[]).includes(alg)) return `${f} expects one of ${SIGNING_ALGS.join(', ')}, got ${JSON.stringify(value)}.`;
  o.oauth.signingAlg = alg;
  return undefined;
}

export const OAUTH_OPTIONS = new Map<string, OAuthSpec>([
  ['--client-id', text((o, v) => (o.clientId = v))],
  // An empty secret is a forgotten value, not a public client: leave the flag out for that.
  ['--client-secret', text((o, v) => (o.clientSecret = v))],
  ['--client-metadata-url', { takesValue: true, apply: applyMetadataUrl }],
  ['--scope', text((o, v) => (o.scope = v.trim().split(/\s+/).join(' ')))],
  ['--oauth-client-credentials', flag((o) => ((o.clientCredentials = true), (o.grant = 'client_credentials')))],
  ['--client-private-key', { takesValue: true, apply: applyPrivateKey }],
  ['--client-signing-alg', { takesValue: true, apply: applySigningAlg }],
  ['--remember-credentials', flag((o) => (o.rememberCredentials = true))],
  ...CROSS_APP_OPTIONS,
]);

/** The lines of `--help` for these options. */
export const OAUTH_USAGE = `
Signing in to a server behind OAuth (every mode; without them Loupe registers itself where the server allows it):
  --client-id <id>                a pre-registered client id
  --client-secret <secret>        its secret (confidential client; sent with HTTP Basic); other users of this
                                  machine can read a command line: prefer --client-secret-file or -env (below)
  --client-metadata-url <url>     the https URL of a client ID metadata document to use as the client id
  --scope "<scopes>"              scopes to ask for (default: what the server's challenge or metadata names)
  --oauth-client-credentials      sign in as a machine (client_credentials): needs --client-id and
                                  --client-secret, or --client-private-key
  --client-private-key <file>     a PEM private key for private_key_jwt (with --oauth-client-credentials)
  --client-signing-alg <alg>      its JWS algorithm (${SIGNING_ALGS.join(', ')}; default: from the key)
  --remember-credentials          keep tokens and registered clients across launches, in a file only you can read
${CROSS_APP_USAGE}`;

/** Whether an option about signing in was given (the target must then be a URL); --remember-credentials alone is not one. */
export function hasOAuthOptions(o: CliOAuthOptions): boolean {
  return [o.clientId, o.clientSecret, o.clientMetadataUrl, o.scope, o.clientCredentials, o.privateKeyPem, o.signingAlg].some((v) => v !== undefined) || hasCrossAppOptions(o);
}

/** The JWS algorithm a key signs with by default: ES256/384/512 for the P curves, RS256 for RSA. */
export function defaultSigningAlg(pem: string): string | undefined {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType === 'rsa') return 'RS256';
    if (key.asymmetricKeyType === 'rsa-pss') return 'PS256';
    if (key.asymmetricKeyType === 'ec') {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      return curve === 'prime256v1' ? 'ES256' : curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

const isUrl = (word: string | undefined): boolean => word !== undefined && /^https?:\/\//i.test(word);

/**
 * What the OAuth options need of each other (and of the target, when given); undefined when they
 * fit. Fills in the signing algorithm from the key when it was not given.
 */
export function checkOAuth(o: CliOAuthOptions, target: { words: string[]; config?: string } = { words: [] }): string | undefined {
  const machine = o.clientCredentials === true;
  const crossApp = checkCrossApp(o);
  if (crossApp) return crossApp;
  if (o.clientSecret !== undefined && o.clientId === undefined) return '--client-secret belongs to a client id: add --client-id ID.';
  if (o.privateKeyPem !== undefined && !machine) return '--client-private-key signs client_credentials requests (private_key_jwt): add --oauth-client-credentials.';
  if (o.signingAlg !== undefined && o.privateKeyPem === undefined) return '--client-signing-alg is the algorithm of --client-private-key FILE: add the key, or drop the algorithm.';
  if (machine) {
    if (o.clientId === undefined) return '--oauth-client-credentials needs the machine client\'s id: add --client-id ID.';
    if (o.clientSecret !== undefined && o.privateKeyPem !== undefined) return '--oauth-client-credentials takes a secret or a private key, not both: keep --client-secret or --client-private-key.';
    if (o.clientSecret === undefined && o.privateKeyPem === undefined) return '--oauth-client-credentials needs a credential: add --client-secret SECRET or --client-private-key FILE.';
    if (o.clientMetadataUrl !== undefined) return '--client-metadata-url is for signing in with a browser (authorization code); --oauth-client-credentials uses --client-id.';
  }
  if (o.privateKeyPem !== undefined && o.signingAlg === undefined) {
    const alg = defaultSigningAlg(o.privateKeyPem);
    const file = o.privateKeyFile ? ` ${o.privateKeyFile}` : '';
    if (!alg) return `--client-private-key${file}: Loupe cannot tell which algorithm this key signs with (or cannot read the key): add --client-signing-alg (${SIGNING_ALGS.join(', ')}).`;
    o.signingAlg = alg;
  }
  if (hasOAuthOptions(o) && target.config === undefined && target.words.length > 0 && !isUrl(target.words[0])) {
    return `The OAuth options sign in to a remote server, but the target ${target.words[0]} is a command: give the server's URL.`;
  }
  return undefined;
}

/** The provider's options (oauth-provider.ts) from the command line's. */
export function oauthOptionsOf(o: CliOAuthOptions): OAuthOptions {
  const { privateKeyFile: _file, rememberCredentials: _remember, ...options } = o;
  return options;
}
