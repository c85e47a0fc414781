/**
 * Loupe's OAuth provider against the OAuth fixture (e2e/fixtures/oauth-server.mjs, a real process):
 * the SDK's StreamableHTTPClientTransport with createOAuthProvider, signing in headless
 * (authorizeOnDemand + followRedirect), calling `whoami`, refreshing after expiry, stepping up on
 * 403, client_credentials with a secret and with a signed JWT, forget(), and the refusals the SDK
 * does not make itself (no PKCE, an issuer from elsewhere). The page's view never holds a secret:
 * every value the fixture handed out (/debug/secrets) is looked for in it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthState } from '../../../lib/wire/oauth.ts';
import { authorizeOnDemand, followingRedirects, HEADLESS_REDIRECT_URL } from '../headless.ts';
import { createOAuthProvider, type AuthStep, type LoupeAuthProvider, type OAuthOptions, type ProviderHooks } from './provider.ts';
import { CredentialFile } from '../store.ts';
import { startOAuthFixture, type OAuthFixture } from '../../testing/oauth-fixture.ts';

const cleanups: (() => Promise<void> | void)[] = [];

type Fixture = OAuthFixture;
const startFixture = (...args: string[]): Promise<Fixture> => startOAuthFixture(args);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});


interface Connected {
  client: Client;
  provider: LoupeAuthProvider;
  steps: AuthStep[];
  urls: URL[];
}

/** A headless session as the CLI makes it: the provider on the transport, sign-ins finished by following the redirect. */
function prepare(mcpUrl: string, options: OAuthOptions = {}, extra: Partial<ProviderHooks> & { watch?: boolean } = {}): Connected & { open(): Promise<void> } {
  const steps: AuthStep[] = [];
  const urls: URL[] = [];
  const provider = createOAuthProvider(options, { redirectUrl: HEADLESS_REDIRECT_URL, onAuthorizationUrl: (url) => urls.push(url), onChange: () => {}, onStep: (s) => steps.push(s), ...extra });
  const fetchFn: FetchLike = extra.watch === false ? fetch : provider.watchChallenges(fetch);
  const transport = authorizeOnDemand(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: fetchFn }), provider, followingRedirects(provider));
  const client = new Client({ name: 'oauth-provider-test', version: '1.0.0' });
  cleanups.push(() => client.close());
  return { client, provider, steps, urls, open: () => client.connect(transport) };
}

async function connect(mcpUrl: string, options: OAuthOptions = {}, extra: Partial<ProviderHooks> & { watch?: boolean } = {}): Promise<Connected> {
  const session = prepare(mcpUrl, options, extra);
  await session.open();
  return session;
}

type WhoAmI = { clientId: string; scopes: string[]; resource: string; expiresAt: number };
const whoami = async (client: Client): Promise<WhoAmI> => (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as WhoAmI;

/** No value the fixture handed out (tokens, codes, secrets) appears in what the page is shown. */
async function expectNoSecrets(fixture: Fixture, state: OAuthState): Promise<void> {
  const shown = JSON.stringify(state);
  const secrets = await fixture.secrets();
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets) expect(shown).not.toContain(secret);
}

describe('authorization code, headless, against the good fixture', () => {
  it('registers, signs in with PKCE and calls whoami; the page sees the sign-in but no token', async () => {
    const fixture = await startFixture('--auto-approve');
    const { client, provider, steps, urls } = await connect(fixture.mcpUrl);
    const me = await whoami(client);
    expect(me.scopes).toEqual(['mcp']);
    expect(me.resource).toBe(fixture.mcpUrl);
    expect(urls).toHaveLength(1);
    expect(urls[0].searchParams.get('code_challenge_method')).toBe('S256');
    expect(urls[0].searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    const state = provider.authState();
    expect(state).toMatchObject({ phase: 'signed-in', clientId: me.clientId, hasClientSecret: false, scope: 'mcp', hasRefreshToken: true });
    expect(state.expiresAt! - Date.now()).toBeGreaterThan(3500_000);
    expect(state.authorizationUrl).toBeUndefined();
    await expectNoSecrets(fixture, state);
    expect(JSON.stringify(steps)).not.toMatch(/code=|access_token/);
    expect(steps.map((s) => s.step)).toEqual(['registration', 'authorization-request', 'token-request']);
    const stats = await fixture.stats();
    expect(stats.registrations).toBe(1);
    expect(stats.grants.authorization_code).toBe(1);
  });

  it('refreshes an expired access token without a new sign-in', async () => {
    // Whatever token the first call used has expired by the second (a busy machine may take a second to
    // connect, and may refresh before the first call): what counts is a refresh between the two calls.
    const fixture = await startFixture('--auto-approve', '--token-ttl', '2');
    const { client, provider, steps } = await connect(fixture.mcpUrl);
    await whoami(client);
    const before = (await fixture.stats()).grants.refresh_token;
    await new Promise((r) => setTimeout(r, 3000));
    await whoami(client);
    const stats = await fixture.stats();
    expect(stats.grants.refresh_token).toBeGreaterThan(before);
    expect(stats.authorizations.requested).toBe(1);
    expect(steps.some((s) => s.step === 'refresh' && s.status === 'passed')).toBe(true);
    expect(provider.authState().phase).toBe('signed-in');
  });

  it('steps up on 403 insufficient_scope: signs in again for the wider scope instead of refreshing', async () => {
    const fixture = await startFixture('--auto-approve');
    const { client, provider, steps } = await connect(fixture.mcpUrl);
    const result = await client.callTool({ name: 'admin_action', arguments: {} });
    expect(result.isError).not.toBe(true);
    expect((await whoami(client)).scopes.sort()).toEqual(['admin', 'mcp']);
    expect(provider.authState().scope?.split(' ').sort()).toEqual(['admin', 'mcp']);
    expect((await fixture.stats()).authorizations.requested).toBe(2);
    expect(steps.some((s) => s.step === 'step-up')).toBe(true);
  });

  it('without watchChallenges the SDK refreshes instead and the step-up fails (why the wrapper exists)', async () => {
    const fixture = await startFixture('--auto-approve');
    const { client } = await connect(fixture.mcpUrl, {}, { watch: false });
    await expect(client.callTool({ name: 'admin_action', arguments: {} })).rejects.toThrow(/403/);
  });

  it('uses a pre-registered confidential client without registering', async () => {
    const fixture = await startFixture('--auto-approve');
    const { client, provider } = await connect(fixture.mcpUrl, { clientId: 'loupe-test-client', clientSecret: 'loupe-test-secret' });
    expect((await whoami(client)).clientId).toBe('loupe-test-client');
    expect(provider.authState()).toMatchObject({ clientId: 'loupe-test-client', hasClientSecret: true });
    expect(JSON.stringify(provider.authState())).not.toContain('loupe-test-secret');
    expect((await fixture.stats()).registrations).toBe(0);
  });

  it('asks for the scope the user set as well as the one the challenge names', async () => {
    const fixture = await startFixture('--auto-approve');
    const { client, urls } = await connect(fixture.mcpUrl, { scope: 'admin' });
    expect((await whoami(client)).scopes.sort()).toEqual(['admin', 'mcp']);
    expect(urls[0].searchParams.get('scope')).toBe('mcp admin');
  });

  it('forget() drops tokens and the registered client: the next request signs in from scratch', async () => {
    const fixture = await startFixture('--auto-approve');
    const { client, provider, steps } = await connect(fixture.mcpUrl);
    const before = (await whoami(client)).clientId;
    await provider.forget();
    expect(provider.authState()).toMatchObject({ phase: 'none' });
    expect(provider.authState().clientId).toBeUndefined();
    expect(await provider.tokens()).toBeUndefined();
    expect(steps.some((s) => s.step === 'forget')).toBe(true);
    const after = (await whoami(client)).clientId;
    expect(after).not.toBe(before);
    const stats = await fixture.stats();
    expect(stats.registrations).toBe(2);
    expect(stats.authorizations.requested).toBe(2);
  });
});

describe('client_credentials', () => {
  it('signs in with a client secret (the SDK ClientCredentialsProvider), forget() works the same', async () => {
    const fixture = await startFixture();
    const { client, provider, urls } = await connect(fixture.mcpUrl, { clientId: 'loupe-test-client', clientSecret: 'loupe-test-secret', clientCredentials: true });
    expect((await whoami(client)).clientId).toBe('loupe-test-client');
    expect(urls).toHaveLength(0);
    expect(provider.redirectUrl).toBeUndefined();
    expect(provider.authState()).toMatchObject({ phase: 'signed-in', clientId: 'loupe-test-client', hasClientSecret: true, scope: 'mcp' });
    await expectNoSecrets(fixture, provider.authState());
    expect((await fixture.stats()).grants.client_credentials).toBe(1);
    await provider.forget();
    expect(provider.authState().phase).toBe('none');
    expect(await provider.tokens()).toBeUndefined();
    expect((await whoami(client)).clientId).toBe('loupe-test-client');
    expect((await fixture.stats()).grants.client_credentials).toBe(2);
  });

  it('signs in with a private key (private_key_jwt, the SDK PrivateKeyJwtProvider), and steps up by asking again', async () => {
    const fixture = await startFixture();
    const pem = execFileSync(process.execPath, ['e2e/fixtures/oauth/keys.mjs', 'es256'], { encoding: 'utf8' });
    const { client, provider } = await connect(fixture.mcpUrl, { clientId: 'loupe-jwt-client', privateKeyPem: pem, signingAlg: 'ES256', grant: 'client_credentials' });
    expect((await whoami(client)).clientId).toBe('loupe-jwt-client');
    expect(JSON.stringify(provider.authState())).not.toContain('PRIVATE KEY');
    expect((await client.callTool({ name: 'admin_action', arguments: {} })).isError).not.toBe(true);
    expect((await fixture.stats()).grants.client_credentials).toBe(2);
  });
});

describe('what the SDK lets through and Loupe refuses', () => {
  it('an authorization server without code_challenge_methods_supported: no sign-in, a plain reason', async () => {
    const fixture = await startFixture('--auto-approve', '--variant', 'no-pkce-methods');
    const session = prepare(fixture.mcpUrl);
    await expect(session.open()).rejects.toThrow(/does not say it supports PKCE/);
    expect(session.provider.authState().phase).toBe('failed');
    expect((await fixture.stats()).authorizations.requested).toBe(0);
  });

  it('metadata whose issuer is another origin than the one the resource metadata named', async () => {
    const fixture = await startFixture('--auto-approve', '--variant', 'metadata-wrong-origin');
    await expect(connect(fixture.mcpUrl)).rejects.toThrow(/names another issuer/);
  });

  it('a resource mismatch fails the sign-in and the page is told why', async () => {
    const fixture = await startFixture('--auto-approve', '--variant', 'resource-mismatch');
    const session = prepare(fixture.mcpUrl);
    await expect(session.open()).rejects.toThrow(/does not match/);
    expect(session.provider.authState()).toMatchObject({ phase: 'failed', error: expect.stringMatching(/does not match/) });
    expect(session.steps.at(-1)).toMatchObject({ step: 'sign-in', status: 'failed' });
    expect((await fixture.stats()).authorizations.requested).toBe(0);
  });
});

describe('remembering credentials (../store.ts)', () => {
  it('a second launch with the same file signs in without a new authorization; the file is 0600', async () => {
    const fixture = await startFixture('--auto-approve');
    const dir = mkdtempSync(join(tmpdir(), 'loupe-oauth-provider-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = new CredentialFile(join(dir, 'mcp-loupe', 'credentials.json'));
    const first = await connect(fixture.mcpUrl, {}, { store: file.forServer(fixture.mcpUrl) });
    const clientId = (await whoami(first.client)).clientId;
    expect(statSync(file.file).mode & 0o777).toBe(0o600);
    const second = await connect(fixture.mcpUrl, {}, { store: file.forServer(fixture.mcpUrl) });
    expect(second.provider.authState().phase).toBe('signed-in');
    expect((await whoami(second.client)).clientId).toBe(clientId);
    expect((await fixture.stats()).authorizations.requested).toBe(1);
    await second.provider.forget();
    const third = createOAuthProvider({}, { redirectUrl: HEADLESS_REDIRECT_URL, onAuthorizationUrl: () => {}, onChange: () => {}, store: file.forServer(fixture.mcpUrl) });
    expect(third.authState().phase).toBe('none');
    expect(await third.tokens()).toBeUndefined();
  });
});

describe('sign-in bookkeeping (no server: the calls auth() makes, in its order)', () => {
  function provider(now = { t: 1_000_000 }) {
    const changes: OAuthState[] = [];
    const opened: URL[] = [];
    const p = createOAuthProvider({ clientId: 'pre', clientSecret: 'shh-secret' }, { redirectUrl: 'http://127.0.0.1:7/oauth/callback', onAuthorizationUrl: (u) => opened.push(u), onChange: () => changes.push(p.authState()), now: () => now.t });
    /** state() → saveCodeVerifier() → redirectToAuthorization(), as auth() does; returns the state. */
    const startSignIn = (verifier: string, scope = 'mcp', clientId = 'pre'): string => {
      const state = p.state!() as string;
      void p.saveCodeVerifier(verifier);
      const url = new URL('https://as.example/authorize');
      url.search = new URLSearchParams({ client_id: clientId, state, scope, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' }).toString();
      void p.redirectToAuthorization(url);
      return state;
    };
    return { p, changes, opened, startSignIn, now };
  }

  it('each sign-in has its own unguessable state, accepted once, with its own verifier', async () => {
    const { p, startSignIn } = provider();
    const a = startSignIn('verifier-a'.padEnd(43, 'a'));
    const b = startSignIn('verifier-b'.padEnd(43, 'b'));
    expect(a).not.toBe(b);
    expect(p.expectedState()).toBe(b);
    expect(p.authState()).toMatchObject({ phase: 'waiting-for-user', authorizationUrl: expect.stringContaining(`state=${b}`) });
    expect(p.takeState('made-up')).toBe(false);
    expect(p.takeState(a)).toBe(true);
    // The same caller checking again before the exchange is no second use...
    expect(p.takeState(a)).toBe(true);
    expect(await p.codeVerifier()).toBe('verifier-a'.padEnd(43, 'a'));
    await p.saveTokens({ access_token: 'a', token_type: 'Bearer' });
    // ...but once exchanged, it is spent.
    expect(p.takeState(a)).toBe(false);
    expect(p.takeState(b)).toBe(false);
  });

  it('a client registered by another request during an exchange does not make it: the code\'s own client does', async () => {
    const { p, startSignIn } = provider();
    const redirect_uris = ['http://127.0.0.1:7/oauth/callback'];
    // Two requests failed together; each registered a client and started a sign-in.
    await p.saveClientInformation!({ client_id: 'first', redirect_uris });
    const first = startSignIn('verifier-a'.padEnd(43, 'a'), 'mcp', 'first');
    await p.saveClientInformation!({ client_id: 'second', redirect_uris });
    startSignIn('verifier-b'.padEnd(43, 'b'), 'mcp', 'second');
    expect(p.takeState(first)).toBe(true);
    // While the exchange discovers metadata, a third request registers yet another client.
    await p.saveClientInformation!({ client_id: 'third', redirect_uris });
    expect((await p.clientInformation())?.client_id).toBe('first');
    // The SDK stamping the issuer on it keeps it the exchange's client.
    await p.saveClientInformation!({ client_id: 'first', redirect_uris, issuer: 'https://as.example' } as never);
    expect((await p.clientInformation())?.client_id).toBe('first');
    expect(await p.codeVerifier()).toBe('verifier-a'.padEnd(43, 'a'));
    await p.saveTokens({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer' });
    // The tokens belong to the client that exchanged the code, so its refreshes use it.
    expect((await p.clientInformation())?.client_id).toBe('first');
  });

  it('a client invalidated during an exchange is not handed out for it', async () => {
    const { p, startSignIn } = provider();
    await p.saveClientInformation!({ client_id: 'first', redirect_uris: ['http://127.0.0.1:7/oauth/callback'] });
    expect(p.takeState(startSignIn('verifier-a'.padEnd(43, 'a'), 'mcp', 'first'))).toBe(true);
    await p.invalidateCredentials!('client');
    // Back to the pre-registered client of the settings.
    expect((await p.clientInformation())?.client_id).toBe('pre');
  });

  it('a sign-in older than ten minutes is not accepted', () => {
    const { p, startSignIn, now } = provider();
    const state = startSignIn('v'.repeat(43));
    now.t += 10 * 60_000 + 1;
    expect(p.takeState(state)).toBe(false);
  });

  it('cancelAuthorization goes back to where it was; reportFailure says why; neither shows a secret', async () => {
    const { p, startSignIn, changes } = provider();
    const state = startSignIn('v'.repeat(43));
    p.cancelAuthorization(state);
    expect(p.authState().phase).toBe('none');
    expect(p.pendingAuthorization()).toBeUndefined();
    p.reportFailure('The authorization server answered 500.', 'Try again later.');
    expect(p.authState()).toMatchObject({ phase: 'failed', error: 'The authorization server answered 500.', hint: 'Try again later.', clientId: 'pre', hasClientSecret: true });
    await p.saveTokens({ access_token: 'at-123-secret', refresh_token: 'rt-456-secret', token_type: 'Bearer', expires_in: 60, scope: 'mcp' });
    expect(p.authState()).toMatchObject({ phase: 'signed-in', scope: 'mcp', hasRefreshToken: true, expiresAt: 1_000_000 + 60_000 });
    expect(p.authState().error).toBeUndefined();
    for (const view of [...changes, p.authState()]) expect(JSON.stringify(view)).not.toMatch(/secret"|at-123|rt-456|shh/);
  });

  it('the SDK\'s invalidateCredentials: tokens, client, all', async () => {
    const { p } = provider();
    await p.saveClientInformation!({ client_id: 'registered', client_secret: 'x', redirect_uris: ['http://127.0.0.1:7/oauth/callback'] });
    await p.saveTokens({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer' });
    await p.invalidateCredentials!('tokens');
    expect(await p.tokens()).toBeUndefined();
    expect((await p.clientInformation())?.client_id).toBe('registered');
    await p.invalidateCredentials!('client');
    // Back to the pre-registered client of the settings.
    expect((await p.clientInformation())?.client_id).toBe('pre');
  });

  it('a refusal of an old refresh token (another request rotated it) leaves the new tokens', async () => {
    const { p } = provider();
    await p.saveTokens({ access_token: 'a1', refresh_token: 'r1', token_type: 'Bearer' });
    const refused: FetchLike = async () => new Response('{"error":"invalid_grant"}', { status: 400 });
    await p.watchChallenges(refused)('https://as.example/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r0' }) });
    await p.invalidateCredentials!('tokens');
    expect((await p.tokens())?.access_token).toBe('a1');
    // The current one refused: dropped.
    await p.watchChallenges(refused)('https://as.example/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r1' }) });
    await p.invalidateCredentials!('tokens');
    expect(await p.tokens()).toBeUndefined();
  });
});
