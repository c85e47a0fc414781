/**
 * Cross-app access (cross-app.ts) against the cross-app fixture (e2e/fixtures/cross-app-server.mjs,
 * real HTTP servers): the SDK's StreamableHTTPClientTransport with createOAuthProvider signs in
 * through the IdP's token exchange and the jwt-bearer grant, and `whoami` answers; each broken
 * variant fails with its failure named (wrong audience, expired assertion, IdP refusal, grant not
 * supported); an expired ID token is never sent; the page's view holds no secret.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HEADLESS_REDIRECT_URL } from '../headless.ts';
import { createOAuthProvider, type AuthStep, type LoupeAuthProvider, type OAuthOptions } from './provider.ts';
import { startCrossAppFixture, XAA, type CrossAppFixture } from '../../testing/cross-app-fixture.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function options(fixture: CrossAppFixture, extra: Partial<OAuthOptions> = {}): Promise<OAuthOptions> {
  return { grant: 'cross_app_access', clientId: XAA.clientId, clientSecret: XAA.clientSecret, idp: { tokenEndpoint: `${fixture.idpUrl}/token`, clientId: XAA.idpClientId, idToken: await fixture.idToken() }, ...extra };
}

/** Connects as the CLI does (the provider on the transport, its fetch watched); the error when it cannot, reported as a session does. */
async function connect(mcpUrl: string, settings: OAuthOptions): Promise<{ client: Client; provider: LoupeAuthProvider; steps: AuthStep[]; error?: string }> {
  const steps: AuthStep[] = [];
  const provider = createOAuthProvider(settings, { redirectUrl: HEADLESS_REDIRECT_URL, onAuthorizationUrl: () => {}, onChange: () => {}, onStep: (s) => steps.push(s) });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: provider.watchChallenges(fetch) });
  const client = new Client({ name: 'cross-app-test', version: '1.0.0' });
  cleanups.push(() => client.close());
  try {
    await client.connect(transport);
    return { client, provider, steps };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    provider.reportFailure(message);
    return { client, provider, steps, error: message };
  }
}

describe('cross-app access against the good fixture', () => {
  it('exchanges the ID token at the IdP, trades the assertion for a token, calls whoami; the page sees no secret', async () => {
    const fixture = await startCrossAppFixture();
    const settings = await options(fixture);
    const { client, provider, steps, error } = await connect(fixture.mcpUrl, settings);
    expect(error).toBeUndefined();
    const me = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as { clientId: string; scopes: string[] };
    expect(me).toMatchObject({ clientId: XAA.clientId, scopes: ['mcp'] });
    expect(steps.map((s) => `${s.step} ${s.status}`)).toEqual(['token-exchange passed', 'token-request passed']);
    expect(steps[0].message).toMatch(new RegExp(`for audience ${fixture.asUrl} and resource ${fixture.mcpUrl}, valid \\d+ s\\.$`));
    expect(await fixture.stats()).toMatchObject({ idp: { issued: 1 }, as: { issued: 1 } });
    const state = provider.authState();
    expect(state).toMatchObject({ phase: 'signed-in', clientId: XAA.clientId, hasClientSecret: true, scope: 'mcp' });
    const shown = JSON.stringify([state, steps]);
    const secrets = [...(await fixture.secrets()), settings.idp!.idToken!];
    expect(secrets.length).toBeGreaterThan(3);
    for (const secret of secrets) expect(shown).not.toContain(secret);
  });

  it('reads the ID token from its file at each sign-in, so a renewed token is used without a restart', async () => {
    const fixture = await startCrossAppFixture();
    const dir = mkdtempSync(join(tmpdir(), 'loupe-xaa-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'id-token');
    writeFileSync(file, `${await fixture.idToken(-60)}\n`, { mode: 0o600 });
    const settings = { ...(await options(fixture)), idp: { tokenEndpoint: `${fixture.idpUrl}/token`, clientId: XAA.idpClientId }, idTokenFile: file };
    const first = await connect(fixture.mcpUrl, settings);
    expect(first.provider.authState()).toMatchObject({ phase: 'failed', error: 'ID token expired.' });
    expect((await fixture.stats()).idp.requests).toBe(0);
    writeFileSync(file, `${await fixture.idToken()}\n`);
    const second = await connect(fixture.mcpUrl, settings);
    expect(second.error).toBeUndefined();
  });

  it('finds the IdP token endpoint from its issuer URL (--idp-url)', async () => {
    const fixture = await startCrossAppFixture();
    const settings = await options(fixture);
    const { error } = await connect(fixture.mcpUrl, { ...settings, idp: { ...settings.idp, tokenEndpoint: undefined, url: fixture.idpUrl } });
    expect(error).toBeUndefined();
  });
});

describe('cross-app access: each failure named', () => {
  it.each([
    ['wrong-audience', 'Wrong audience.', /its audience is https:\/\/other-as\.example\.com\/, and this authorization server's issuer is http:\/\/127\.0\.0\.1:\d+\//],
    ['expired-assertion', 'Expired assertion.', /refused the identity assertion as expired \(at \d{4}-/],
    ['idp-refuses', 'IdP refused the token exchange.', /answered 400 invalid_grant .*Sign in to the IdP again/],
    ['no-jwt-bearer', 'Grant not supported by the authorization server.', /does not accept the jwt-bearer grant \(RFC 7523\): it lists client_credentials/],
  ])('%s: %s', async (variant, name, hint) => {
    const fixture = await startCrossAppFixture(variant);
    const { provider, error } = await connect(fixture.mcpUrl, await options(fixture));
    expect(error).toBeDefined();
    const state = provider.authState();
    expect(state).toMatchObject({ phase: 'failed', error: name });
    expect(state.hint).toMatch(hint);
  });

  it('a wrong client secret is the authorization server refusing the client (invalid_client)', async () => {
    const fixture = await startCrossAppFixture();
    const { provider } = await connect(fixture.mcpUrl, await options(fixture, { clientSecret: 'not-the-secret' }));
    expect(provider.authState()).toMatchObject({ phase: 'failed', error: 'Client authentication failed (invalid_client).' });
  });
});
