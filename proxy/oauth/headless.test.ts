/**
 * Signing in without a person (headless.ts). followRedirect against small real HTTP servers
 * (relative Locations, cookies between hops, an error redirect, a state that does not match, a
 * login page, an error page, a loop) and against the OAuth fixture (its consent page, its refused
 * redirect URI); authorizeOnDemand with requests that fail together (one sign-in for all, and
 * rotating refresh tokens that must not cost the fresh tokens).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { authorizeOnDemand, followingRedirects, followRedirect, HEADLESS_REDIRECT_URL, PERSON_NEEDED } from './headless.ts';
import { createOAuthProvider, type AuthStep } from './provider/provider.ts';
import { startOAuthFixture } from '../testing/oauth-fixture.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real HTTP server answering with `handle`; its origin. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, url: URL) => void): Promise<string> {
  const server: Server = createServer((req, res) => handle(req, res, new URL(req.url ?? '/', 'http://x')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const REDIRECT = 'http://127.0.0.1:9/oauth/callback';
const authorize = (origin: string, state = 'st-1') => new URL(`${origin}/authorize?client_id=c&state=${state}`);

describe('followRedirect', () => {
  it('follows relative and absolute Locations, carries cookies between hops, and reads the code without fetching the redirect URI', async () => {
    const seen: string[] = [];
    const origin = await serve((req, res, url) => {
      seen.push(`${url.pathname} cookie=${req.headers.cookie ?? ''}`);
      if (url.pathname === '/authorize') return res.writeHead(302, { location: `login?next=1&state=${url.searchParams.get('state')}`, 'set-cookie': 'sid=abc; Path=/; HttpOnly' }).end();
      if (url.pathname === '/login') return res.writeHead(303, { location: `/consent?state=${url.searchParams.get('state')}` }).end();
      if (url.pathname === '/consent' && req.headers.cookie === 'sid=abc') return res.writeHead(302, { location: `${REDIRECT}?code=the-code&state=${url.searchParams.get('state')}&iss=x` }).end();
      res.writeHead(403).end('no session');
    });
    expect(await followRedirect(authorize(origin), REDIRECT)).toEqual({ code: 'the-code' });
    expect(seen).toEqual(['/authorize cookie=', '/login cookie=sid=abc', '/consent cookie=sid=abc']);
  });

  it('a redirect back with a different state is refused (RFC 6749 §10.12)', async () => {
    const origin = await serve((_req, res) => res.writeHead(302, { location: `${REDIRECT}?code=c&state=forged` }).end());
    const outcome = await followRedirect(authorize(origin), REDIRECT);
    expect(outcome).toEqual({ error: expect.stringMatching(/different state than Loupe sent/) });
  });

  it('an error redirect is the authorization server refusing, in its words', async () => {
    const origin = await serve((_req, res) => res.writeHead(302, { location: `${REDIRECT}?error=access_denied&error_description=User%20said%20no&state=st-1` }).end());
    expect(await followRedirect(authorize(origin), REDIRECT)).toEqual({ error: 'The authorization server refused the sign-in: access_denied (User said no).' });
  });

  it('a page instead of a redirect means a person must sign in', async () => {
    const origin = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<form>Password</form>'));
    const outcome = await followRedirect(authorize(origin), REDIRECT);
    expect('error' in outcome && outcome.error).toContain(PERSON_NEEDED);
  });

  it('an error status is reported with the OAuth error of its body', async () => {
    const origin = await serve((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_request","error_description":"Unregistered redirect_uri"}'));
    expect(await followRedirect(authorize(origin), REDIRECT)).toEqual({ error: 'The authorization server answered the authorization request with HTTP 400 (invalid_request: Unregistered redirect_uri) instead of redirecting back to Loupe.' });
  });

  it('stops a redirect loop, and does not follow a scheme it cannot fetch', async () => {
    const loop = await serve((_req, res) => res.writeHead(302, { location: '/authorize?again=1' }).end());
    expect(await followRedirect(authorize(loop), REDIRECT)).toEqual({ error: expect.stringMatching(/redirected more than 10 times/) });
    const app = await serve((_req, res) => res.writeHead(302, { location: 'com.example.app:/cb?code=x' }).end());
    expect(await followRedirect(authorize(app), REDIRECT)).toEqual({ error: expect.stringMatching(/redirected to com\.example\.app:/) });
  });

  it('says when the authorization server cannot be reached', async () => {
    const origin = await serve(() => undefined);
    cleanups.splice(0).forEach((c) => void c());
    await new Promise((r) => setTimeout(r, 50));
    expect(await followRedirect(authorize(origin), REDIRECT)).toEqual({ error: expect.stringMatching(/could not reach the authorization server at http:\/\/127\.0\.0\.1/) });
  });
});

const startFixture = (...args: string[]) => startOAuthFixture(args);

function session(mcpUrl: string, fetchFn: FetchLike = fetch) {
  const steps: AuthStep[] = [];
  const provider = createOAuthProvider({}, { redirectUrl: HEADLESS_REDIRECT_URL, onAuthorizationUrl: () => {}, onChange: () => {}, onStep: (s) => steps.push(s) });
  const transport = authorizeOnDemand(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: provider.watchChallenges(fetchFn) }), provider, followingRedirects(provider, fetchFn));
  const client = new Client({ name: 'oauth-headless-test', version: '1.0.0' });
  cleanups.push(() => client.close());
  return { client, provider, steps, open: () => client.connect(transport) };
}

describe('against the OAuth fixture', () => {
  it('its consent page (no auto-approve) needs a person: the connect fails saying so', async () => {
    const fixture = await startFixture();
    const s = session(fixture.mcpUrl);
    await expect(s.open()).rejects.toThrow(PERSON_NEEDED);
    expect(s.provider.authState()).toMatchObject({ phase: 'failed', error: expect.stringContaining(PERSON_NEEDED) });
  });

  it('a redirect URI the authorization server refuses is named', async () => {
    const fixture = await startFixture('--auto-approve', '--variant', 'bad-redirect');
    const s = session(fixture.mcpUrl);
    await expect(s.open()).rejects.toThrow(/HTTP 400 \(invalid_request: Unregistered redirect_uri\)/);
  });

  it('requests that fail together share one sign-in', async () => {
    const fixture = await startFixture('--auto-approve');
    const s = session(fixture.mcpUrl);
    await s.open();
    await s.provider.forget();
    const results = await Promise.all([1, 2, 3].map(() => s.client.callTool({ name: 'whoami', arguments: {} })));
    expect(results.every((r) => r.isError !== true)).toBe(true);
    // One sign-in at connect, one after forget for the three requests.
    expect((await fixture.stats()).authorizations.requested).toBe(2);
    expect(s.provider.authState().phase).toBe('signed-in');
  });

  it('requests that find the token expired together refresh without a new sign-in', async () => {
    const fixture = await startFixture('--auto-approve', '--token-ttl', '1');
    const s = session(fixture.mcpUrl);
    await s.open();
    await new Promise((r) => setTimeout(r, 2100));
    const results = await Promise.all([1, 2, 3].map(() => s.client.callTool({ name: 'whoami', arguments: {} })));
    expect(results.every((r) => r.isError !== true)).toBe(true);
    const stats = await fixture.stats();
    expect(stats.grants.refresh_token).toBeGreaterThanOrEqual(1);
    expect(stats.authorizations.requested).toBe(1);
  });

  it('a refresh refused because another one rotated the token first does not cost the fresh tokens', async () => {
    const fixture = await startFixture('--auto-approve', '--token-ttl', '1');
    // The fixture forgives reuse of a refresh token for 2 s; refreshes after the first of a round are held past that.
    let fast = 1;
    const slowRefreshes: FetchLike = async (input, init) => {
      if (init?.body instanceof URLSearchParams && init.body.get('grant_type') === 'refresh_token' && fast-- <= 0) await new Promise((r) => setTimeout(r, 2300));
      return fetch(input, init);
    };
    const s = session(fixture.mcpUrl, slowRefreshes);
    await s.open();
    // Two calls that find the token expired at once. On a busy machine they may share one refresh,
    // and then no second one is refused: the race is run again (a token lives 1 s).
    for (let round = 0; round < 4 && ((await fixture.stats()).refused.invalid_grant ?? 0) === 0; round++) {
      fast = 1;
      await new Promise((r) => setTimeout(r, 2100));
      const results = await Promise.all([1, 2].map(() => s.client.callTool({ name: 'whoami', arguments: {} })));
      expect(results.every((r) => r.isError !== true)).toBe(true);
    }
    const stats = await fixture.stats();
    expect(stats.refused.invalid_grant).toBeGreaterThanOrEqual(1);
    expect(stats.authorizations.requested).toBe(1);
    expect(s.provider.authState().phase).toBe('signed-in');
  }, 90_000);
});
