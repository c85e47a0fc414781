/**
 * The OAuth options of the command line (issue 11 §4), for every mode — the UI's session of the
 * command-line target signs in with them too: `--client-id`, `--client-secret`,
 * `--client-metadata-url`, `--scope`, `--oauth-client-credentials` (with a secret, or with
 * `--client-private-key FILE` [+ `--client-signing-alg ALG`] for private_key_jwt) and
 * `--remember-credentials`; the secret-file options and cross-app access come from cross-app.ts.
 * Specs in the shape of headless.ts's HEADLESS_OPTIONS, which the parser in options.ts merges.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { OAuthOptions } from '../oauth/provider/provider.ts';
import { checkCrossApp, CROSS_APP_OPTIONS, CROSS_APP_USAGE, hasCrossAppOptions } from './cross-app.ts';

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
