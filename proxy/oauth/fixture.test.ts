/**
 * The OAuth fixture (e2e/fixtures/oauth-server.mjs) as a real process, driven by the SDK's own client
 * auth: everyone else's OAuth tests (unit, e2e, CLI, guided mode) stand on it, so this checks that the
 * good server lets a well-behaved client in (authorization code + PKCE + resource, refresh, step-up,
 * client_credentials with a secret or a signed JWT) and that each broken variant fails the way the
 * same misconfiguration fails in the field, at the request where it does.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../testing/oauth-fixture.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

const REDIRECT_URL = 'http://127.0.0.1:1/oauth/callback';

type Fixture = OAuthFixture;
const startFixture = (args: string[] = []): Promise<Fixture> => startOAuthFixture(args);

/** An OAuthClientProvider for the authorization code flow that "clicks" through the fixture's auto-approving /authorize. */
class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  pendingCode?: string;
  /** What /authorize answered, for tests of failures there. */
  lastAuthorization?: { url: URL; status: number; location: string | null; body: string };
  /** A scope a 403 insufficient_scope asked for that the tokens lack (see fetch below). */
  stepUpScope?: string;
  readonly forbidden: string[] = [];

  constructor(private readonly metadata: Partial<OAuthClientMetadata> = {}) {}

  get redirectUrl(): string {
    return REDIRECT_URL;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'oauth-fixture test',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.metadata,
    };
  }
  state(): string {
    return randomBytes(16).toString('base64url');
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    // The SDK's step-up calls auth(), which refreshes first when it can; a refresh cannot widen the
    // scope (RFC 6749 §6), so while a wider scope is wanted the refresh token is kept out of sight
    // and auth() goes to the authorization endpoint instead.
    if (this.saved && this.stepUpScope && !this.stepUpScope.split(' ').every((s) => this.saved!.scope?.split(' ').includes(s))) {
      return { ...this.saved, refresh_token: undefined };
    }
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
    this.stepUpScope = undefined;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier!;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    this.lastAuthorization = { url, status: response.status, location, body: await response.text() };
    const code = location ? new URL(location).searchParams.get('code') : null;
    this.pendingCode = code ?? undefined;
  }
  /** The transport's fetch: notes a 403's scope challenge (what Loupe's provider has to do too). */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (response.status === 403) {
      const header = response.headers.get('www-authenticate') ?? '';
      this.forbidden.push(header);
      const scope = /scope="([^"]*)"/.exec(header)?.[1];
      if (/error="insufficient_scope"/.test(header) && scope) this.stepUpScope = scope;
    }
    return response;
  };
}

function transportFor(fixture: Fixture, provider: OAuthClientProvider & { fetch?: TestProvider['fetch'] }): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(fixture.mcpUrl), { authProvider: provider, fetch: provider.fetch });
}

/** Connects the way an MCP client does: 401 → authorize → code → finishAuth → connect again. */
async function connect(fixture: Fixture, provider: TestProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const first = transportFor(fixture, provider);
  const client = new Client({ name: 'oauth-fixture-test', version: '1.0.0' });
  try {
    await client.connect(first);
    return { client, transport: first };
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !provider.pendingCode) throw error;
    await first.finishAuth(provider.pendingCode);
    provider.pendingCode = undefined;
    await first.close();
  }
  const transport = transportFor(fixture, provider);
  const again = new Client({ name: 'oauth-fixture-test', version: '1.0.0' });
  await again.connect(transport);
  return { client: again, transport };
}

async function whoami(client: Client): Promise<{ clientId: string; scopes: string[]; resource?: string }> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  return result.structuredContent as { clientId: string; scopes: string[]; resource?: string };
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: response.status, body, headers: response.headers };
}

const stats = async (fixture: Fixture) => (await json(`${fixture.asUrl}/debug/stats`)).body as {
  grants: Record<string, number>;
  refused: Record<string, number>;
  mcp: Record<string, number>;
};

const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** A whole authorization request by hand (public pre-registered client); resolves to /authorize's answer. */
async function authorizeByHand(fixture: Fixture, overrides: Record<string, string | undefined> = {}) {
  const { verifier, challenge } = pkce();
  const url = new URL(`${fixture.asUrl}/authorize`);
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: 'loupe-public-client',
    redirect_uri: 'http://127.0.0.1:4567/oauth/callback',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'mcp',
    state: 'st-1',
    resource: fixture.mcpUrl,
    ...overrides,
  };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  return { response, location: location ? new URL(location) : undefined, verifier, body: await response.text() };
}

async function codeExchange(fixture: Fixture, code: string, verifier: string, extra: Record<string, string> = {}) {
  return json(
    `${fixture.asUrl}/token`,
    form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'loupe-public-client', redirect_uri: 'http://127.0.0.1:4567/oauth/callback', resource: fixture.mcpUrl, ...extra }),
  );
}

const privateKey = (alg: 'es256' | 'rs256') => execFileSync(process.execPath, ['e2e/fixtures/oauth/keys.mjs', alg], { encoding: 'utf8' });

describe('OAuth fixture, good variant', () => {
  it('prints one URL line, serves the metadata a client discovers, and stops on SIGTERM', async () => {
    const fixture = await startFixture();
    expect(fixture.asUrl).toBe(new URL(fixture.mcpUrl).origin);
    const challenge = await fetch(fixture.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(challenge.status).toBe(401);
    const prmUrl = `${fixture.asUrl}/.well-known/oauth-protected-resource/mcp`;
    expect(challenge.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer error="invalid_token", .*scope="mcp", resource_metadata="${prmUrl}"$`));
    for (const url of [prmUrl, `${fixture.asUrl}/.well-known/oauth-protected-resource`]) {
      const prm = await json(url);
      expect(prm.status).toBe(200);
      expect(prm.body).toMatchObject({ resource: fixture.mcpUrl, authorization_servers: [`${fixture.asUrl}/`], scopes_supported: ['mcp', 'admin'] });
    }
    const as = await json(`${fixture.asUrl}/.well-known/oauth-authorization-server`);
    expect(as.body).toMatchObject({
      issuer: `${fixture.asUrl}/`,
      authorization_endpoint: `${fixture.asUrl}/authorize`,
      token_endpoint: `${fixture.asUrl}/token`,
      registration_endpoint: `${fixture.asUrl}/register`,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['mcp', 'admin'],
      client_id_metadata_document_supported: true,
    });
    expect(as.body.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']));
    expect(as.body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
    expect(await fixture.stop()).toEqual({ code: 0, signal: null });
    expect(fixture.stdout()).toMatch(/^oauth fixture listening: [^\n]+\n$/);
  });

  it('listens on the port it is given', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const fixture = await startFixture(['--port', String(port)]);
    expect(fixture.mcpUrl).toBe(`http://127.0.0.1:${port}/mcp`);
  });

  it('lets the SDK client in: registration, authorization code with PKCE and resource, whoami', async () => {
    const fixture = await startFixture(['--auto-approve']);
    const provider = new TestProvider();
    const { client } = await connect(fixture, provider);
    const authorization = provider.lastAuthorization!;
    expect(authorization.url.searchParams.get('resource')).toBe(fixture.mcpUrl);
    expect(authorization.url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.status).toBe(302);
    const callback = new URL(authorization.location!);
    expect(callback.searchParams.get('state')).toBe(authorization.url.searchParams.get('state'));
    expect(callback.searchParams.get('iss')).toBe(`${fixture.asUrl}/`);
    const me = await whoami(client);
    expect(me.clientId).toBe(provider.client!.client_id);
    expect(me.scopes).toEqual(['mcp']);
    expect(me.resource).toBe(fixture.mcpUrl);
    const text = await client.callTool({ name: 'whoami', arguments: {} });
    expect((text.content as Array<{ text: string }>)[0].text).toBe(`client ${me.clientId} with scopes mcp`);
    expect((await stats(fixture)).grants.authorization_code).toBe(1);
    await client.close();
  });

  it('shows a consent page whose Approve redirects with a code and whose Deny answers access_denied', async () => {
    const fixture = await startFixture();
    const page = await authorizeByHand(fixture);
    expect(page.response.status).toBe(200);
    expect(page.body).toContain('<button type="submit" name="decision" value="approve">Approve</button>');
    expect(page.body).toContain('<button type="submit" name="decision" value="deny">Deny</button>');
    const consent = /name="consent" value="([^"]+)"/.exec(page.body)![1];
    const approved = await fetch(`${fixture.asUrl}/consent`, { ...form({ consent, decision: 'approve' }), redirect: 'manual' });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('http://127.0.0.1:4567/oauth/callback');
    expect(back.searchParams.get('state')).toBe('st-1');
    const tokens = await codeExchange(fixture, back.searchParams.get('code')!, page.verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'mcp', expires_in: 3600 });
    // A consent answers once.
    expect((await fetch(`${fixture.asUrl}/consent`, { ...form({ consent, decision: 'approve' }), redirect: 'manual' })).status).toBe(400);

    const second = await authorizeByHand(fixture, { state: 'st-2' });
    const denyId = /name="consent" value="([^"]+)"/.exec(second.body)![1];
    const denied = await fetch(`${fixture.asUrl}/consent`, { ...form({ consent: denyId, decision: 'deny' }), redirect: 'manual' });
    const deniedBack = new URL(denied.headers.get('location')!);
    expect(deniedBack.searchParams.get('error')).toBe('access_denied');
    expect(deniedBack.searchParams.get('state')).toBe('st-2');
    expect(deniedBack.searchParams.get('code')).toBeNull();
    // auto=1 on the authorization URL skips the page.
    const auto = await authorizeByHand(fixture, { auto: '1' });
    expect(auto.response.status).toBe(302);
    expect(auto.location!.searchParams.get('code')).toMatch(/^lac_/);
  });

  it('checks what a real authorization server checks at /authorize and /token', async () => {
    const fixture = await startFixture(['--auto-approve']);
    const wrongResource = await authorizeByHand(fixture, { resource: 'http://127.0.0.1:1/elsewhere' });
    expect(wrongResource.location!.searchParams.get('error')).toBe('invalid_target');
    expect((await authorizeByHand(fixture, { resource: undefined })).location!.searchParams.get('error')).toBe('invalid_target');
    expect((await authorizeByHand(fixture, { code_challenge_method: 'plain' })).location!.searchParams.get('error')).toBe('invalid_request');
    expect((await authorizeByHand(fixture, { scope: 'mcp root' })).location!.searchParams.get('error')).toBe('invalid_scope');
    // An unregistered redirect URI is never redirected to.
    const foreign = await authorizeByHand(fixture, { redirect_uri: 'https://evil.example/cb' });
    expect(foreign.response.status).toBe(400);
    expect(foreign.location).toBeUndefined();
    expect(JSON.parse(foreign.body)).toMatchObject({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
    // PKCE: a wrong verifier is refused, the right one works once.
    const good = await authorizeByHand(fixture);
    const code = good.location!.searchParams.get('code')!;
    expect((await codeExchange(fixture, code, pkce().verifier)).body.error).toBe('invalid_grant');
    expect((await codeExchange(fixture, code, good.verifier, { resource: 'http://127.0.0.1:1/other' })).body.error).toBe('invalid_target');
    const tokens = await codeExchange(fixture, code, good.verifier);
    expect(tokens.status).toBe(200);
    expect((await codeExchange(fixture, code, good.verifier)).body.error).toBe('invalid_grant');
    // Reusing the code revoked what it had bought.
    const revoked = await fetch(fixture.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${tokens.body.access_token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(revoked.status).toBe(401);
  });

  it('accepts a client ID metadata document URL as client_id (fetched from loopback here)', async () => {
    const fixture = await startFixture(['--auto-approve']);
    const documents = createHttpServer((req, res) => {
      const self = `http://127.0.0.1:${(documents.address() as { port: number }).port}${req.url}`;
      const clientId = req.url === '/liar.json' ? 'https://someone-else.example/client.json' : self;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ client_id: clientId, client_name: 'CIMD test', redirect_uris: ['http://127.0.0.1:4567/oauth/callback'], token_endpoint_auth_method: 'none' }),
      );
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    try {
      const clientId = `http://127.0.0.1:${(documents.address() as { port: number }).port}/client.json`;
      const flow = await authorizeByHand(fixture, { client_id: clientId });
      expect(flow.response.status).toBe(302);
      const tokens = await codeExchange(fixture, flow.location!.searchParams.get('code')!, flow.verifier, { client_id: clientId });
      expect(tokens.status).toBe(200);
      // A document that does not name itself is no client.
      const liar = await authorizeByHand(fixture, { client_id: clientId.replace('client.json', 'liar.json') });
      expect(liar.response.status).toBe(400);
      expect(JSON.parse(liar.body).error).toBe('invalid_client');
    } finally {
      documents.closeAllConnections();
      await new Promise((resolve) => documents.close(resolve));
    }
  });

  it('refreshes an expired access token (--token-ttl 1) and rotates the refresh token', async () => {
    const fixture = await startFixture(['--auto-approve', '--token-ttl', '1']);
    const provider = new TestProvider();
    const { client } = await connect(fixture, provider);
    expect((await whoami(client)).scopes).toEqual(['mcp']);
    const firstAccess = provider.saved!.access_token;
    const firstRefresh = provider.saved!.refresh_token!;
    expect(firstRefresh).toMatch(/^lrt_/);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await whoami(client)).clientId).toBe(provider.client!.client_id);
    expect(provider.saved!.access_token).not.toBe(firstAccess);
    expect(provider.saved!.refresh_token).not.toBe(firstRefresh);
    const counted = await stats(fixture);
    expect(counted.grants.refresh_token).toBeGreaterThanOrEqual(1);
    expect(counted.mcp.unauthorized).toBeGreaterThanOrEqual(2);
    // The rotated-out refresh token is dead once the grace for concurrent refreshes (2 s) is over.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const reuse = await json(`${fixture.asUrl}/token`, form({ grant_type: 'refresh_token', refresh_token: firstRefresh, client_id: provider.client!.client_id }));
    expect(reuse.body.error).toBe('invalid_grant');
    await client.close();
  });

  it('answers admin_action 403 insufficient_scope until the client re-authorizes with admin', async () => {
    const fixture = await startFixture(['--auto-approve']);
    const provider = new TestProvider();
    const { client, transport } = await connect(fixture, provider);
    await expect(client.callTool({ name: 'admin_action', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    const prmUrl = `${fixture.asUrl}/.well-known/oauth-protected-resource/mcp`;
    expect(provider.forbidden[0]).toMatch(new RegExp(`^Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="${prmUrl}"`));
    expect(provider.lastAuthorization!.url.searchParams.get('scope')).toBe('mcp admin');
    await transport.finishAuth(provider.pendingCode!);
    const done = await client.callTool({ name: 'admin_action', arguments: {} });
    expect(done.content).toEqual([{ type: 'text', text: 'admin done' }]);
    expect((await whoami(client)).scopes).toEqual(['mcp', 'admin']);
    expect((await stats(fixture)).mcp.forbidden).toBe(1);
    await client.close();
  });

  it('gives client_credentials tokens to the pre-registered client (basic and post), not for a wrong secret', async () => {
    const fixture = await startFixture();
    const provider = new ClientCredentialsProvider({ clientId: 'loupe-test-client', clientSecret: 'loupe-test-secret', expectedIssuer: `${fixture.asUrl}/` });
    const client = new Client({ name: 'oauth-fixture-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(fixture.mcpUrl), { authProvider: provider }));
    expect(await whoami(client)).toMatchObject({ clientId: 'loupe-test-client', scopes: ['mcp'] });
    await client.close();
    expect((await stats(fixture)).grants.client_credentials).toBe(1);

    const post = await json(`${fixture.asUrl}/token`, form({ grant_type: 'client_credentials', client_id: 'loupe-test-client', client_secret: 'loupe-test-secret', scope: 'mcp admin', resource: fixture.mcpUrl }));
    expect(post.body).toMatchObject({ token_type: 'Bearer', scope: 'mcp admin' });
    expect(post.body.refresh_token).toBeUndefined();
    const wrong = await json(`${fixture.asUrl}/token`, form({ grant_type: 'client_credentials', resource: fixture.mcpUrl }, basic('loupe-test-client', 'nope')));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    const publicClient = await json(`${fixture.asUrl}/token`, form({ grant_type: 'client_credentials', client_id: 'loupe-public-client', resource: fixture.mcpUrl }));
    expect(publicClient.body.error).toBe('unauthorized_client');
  });

  it('gives client_credentials tokens for a private_key_jwt assertion (ES256 and RS256), once per assertion', async () => {
    const fixture = await startFixture();
    for (const [clientId, alg] of [
      ['loupe-jwt-client', 'es256'],
      ['loupe-jwt-rs256-client', 'rs256'],
    ] as const) {
      const provider = new PrivateKeyJwtProvider({ clientId, privateKey: privateKey(alg), algorithm: alg.toUpperCase(), expectedIssuer: `${fixture.asUrl}/` });
      const client = new Client({ name: 'oauth-fixture-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(fixture.mcpUrl), { authProvider: provider }));
      expect((await whoami(client)).clientId).toBe(clientId);
      await client.close();
    }
    // The ES256 key does not sign for the RS256 client, and an assertion is good once.
    const { createPrivateKeyJwtAuth } = await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
    const sign = async (clientId: string, alg: 'es256' | 'rs256') => {
      const params = new URLSearchParams({ grant_type: 'client_credentials', resource: fixture.mcpUrl });
      await createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey: privateKey(alg), alg: alg.toUpperCase(), audience: `${fixture.asUrl}/` })(new Headers(), params, `${fixture.asUrl}/token`);
      return params;
    };
    const wrongKey = await json(`${fixture.asUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: (await sign('loupe-jwt-rs256-client', 'es256')).toString() });
    expect(wrongKey.body.error).toBe('invalid_client');
    const once = (await sign('loupe-jwt-client', 'es256')).toString();
    const post = (body: string) => json(`${fixture.asUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect((await post(once)).status).toBe(200);
    expect((await post(once)).body.error).toBe('invalid_client');
    expect((await stats(fixture)).grants.client_credentials).toBe(3);
  });
});

describe('OAuth fixture, broken variants', () => {
  it('prm-404: both metadata URLs 404 while the 401 points at one; the client cannot find the authorization server', async () => {
    const fixture = await startFixture(['--variant', 'prm-404', '--auto-approve']);
    expect(fixture.asUrl).not.toBe(new URL(fixture.mcpUrl).origin);
    const origin = new URL(fixture.mcpUrl).origin;
    const challenge = await fetch(fixture.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(challenge.headers.get('www-authenticate')).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
    expect((await fetch(`${origin}/.well-known/oauth-authorization-server`)).status).toBe(404);
    // The authorization server itself works, on the port only the metadata would have named.
    expect((await json(`${fixture.asUrl}/.well-known/oauth-authorization-server`)).body.issuer).toBe(`${fixture.asUrl}/`);
    const provider = new TestProvider();
    await expect(connect(fixture, provider)).rejects.toThrow(/HTTP 404/);
    expect(provider.lastAuthorization).toBeUndefined();
  });

  it('metadata-wrong-origin: the AS metadata names another origin as issuer, whose endpoints answer 404', async () => {
    const fixture = await startFixture(['--variant', 'metadata-wrong-origin', '--auto-approve']);
    const prm = await json(`${fixture.asUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(prm.body.authorization_servers).toEqual([`${fixture.asUrl}/`]);
    const as = await json(`${fixture.asUrl}/.well-known/oauth-authorization-server`);
    const issuer = new URL(String(as.body.issuer));
    expect(issuer.origin).not.toBe(fixture.asUrl);
    expect(new URL(String(as.body.registration_endpoint)).origin).toBe(issuer.origin);
    expect((await fetch(String(as.body.registration_endpoint), { method: 'POST' })).status).toBe(404);
    await expect(connect(fixture, new TestProvider())).rejects.toThrow(/HTTP 404/);
  });

  it('resource-mismatch: the resource metadata names another resource, and the SDK client refuses it', async () => {
    const fixture = await startFixture(['--variant', 'resource-mismatch', '--auto-approve']);
    expect((await json(`${fixture.asUrl}/.well-known/oauth-protected-resource/mcp`)).body.resource).toBe('https://mcp.example.com/mcp');
    const provider = new TestProvider();
    await expect(connect(fixture, provider)).rejects.toThrow(`Protected resource https://mcp.example.com/mcp does not match expected ${fixture.mcpUrl}`);
    expect(provider.lastAuthorization).toBeUndefined();
  });

  it('no-pkce-methods: the AS metadata has no code_challenge_methods_supported and the server ignores the verifier', async () => {
    const fixture = await startFixture(['--variant', 'no-pkce-methods', '--auto-approve']);
    const as = await json(`${fixture.asUrl}/.well-known/oauth-authorization-server`);
    expect(as.status).toBe(200);
    expect(as.body).not.toHaveProperty('code_challenge_methods_supported');
    const flow = await authorizeByHand(fixture);
    const tokens = await codeExchange(fixture, flow.location!.searchParams.get('code')!, pkce().verifier);
    expect(tokens.status).toBe(200);
  });

  it('bad-redirect: /authorize refuses the redirect URI the client registered, without redirecting', async () => {
    const fixture = await startFixture(['--variant', 'bad-redirect', '--auto-approve']);
    const provider = new TestProvider();
    await expect(connect(fixture, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    // Registration kept the other loopback name, so the URI the client sends is not registered.
    expect((provider.client as { redirect_uris?: string[] }).redirect_uris).toEqual([REDIRECT_URL.replace('127.0.0.1', 'localhost')]);
    expect(provider.lastAuthorization).toMatchObject({ status: 400, location: null });
    expect(JSON.parse(provider.lastAuthorization!.body)).toEqual({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
    expect((await authorizeByHand(fixture)).response.status).toBe(400);
  });

  it('wrong-audience: tokens are issued for another resource and the MCP server answers 401 invalid_token', async () => {
    const fixture = await startFixture(['--variant', 'wrong-audience', '--auto-approve']);
    const provider = new TestProvider();
    await expect(connect(fixture, provider)).rejects.toThrow('Server returned 401 after successful authentication');
    const flow = await authorizeByHand(fixture);
    const tokens = await codeExchange(fixture, flow.location!.searchParams.get('code')!, flow.verifier);
    expect(tokens.status).toBe(200);
    const refused = await fetch(fixture.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${tokens.body.access_token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="Token was not issued for this resource"/);
  });

  it('scope-refused: the token endpoint answers invalid_scope to every grant', async () => {
    const fixture = await startFixture(['--variant', 'scope-refused', '--auto-approve']);
    const provider = new TestProvider();
    await expect(connect(fixture, provider)).rejects.toMatchObject({ name: 'InvalidScopeError' });
    expect(provider.lastAuthorization!.status).toBe(302);
    const machine = await json(`${fixture.asUrl}/token`, form({ grant_type: 'client_credentials', resource: fixture.mcpUrl }, basic('loupe-test-client', 'loupe-test-secret')));
    expect(machine.status).toBe(400);
    expect(machine.body.error).toBe('invalid_scope');
    expect((await stats(fixture)).refused.invalid_scope).toBe(2);
  });
});
