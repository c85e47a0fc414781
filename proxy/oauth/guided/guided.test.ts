/**
 * The guided OAuth flow against the OAuth fixture (e2e/fixtures/oauth-server.mjs) as a real
 * process: the good server passes every step; each broken variant fails at the step where the
 * field failure shows, with its named explanation; no token, code, verifier or secret the fixture
 * handed out appears anywhere in what the page would be sent; stop and refusals behave.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../../testing/oauth-fixture.ts';
import type { GuidedFlow, GuidedStepId, OAuthSettings } from '../../../lib/wire/oauth.ts';
import { callbackResult } from '../../faces/web/oauth.ts';
import { sseAnswer } from './mcp.ts';
import { GuidedOAuth, type CallbackResult, type GuidedContext } from './guided.ts';

const REDIRECT_URL = 'http://127.0.0.1:6999/oauth/callback';

type Fixture = OAuthFixture;
const startFixture = (args: string[] = []): Promise<Fixture> => startOAuthFixture(args);

interface Harness {
  guided: GuidedOAuth;
  events: { step: string; status: string; message: string }[];
  changes: GuidedFlow[];
  cancelled: string[];
}

/**
 * The callback as the fixture's auto-approve gives it: the authorization URL the flow showed,
 * asked with auto=1, redirects to the redirect URI with the code (what a browser would follow).
 */
function harness(serverUrl: string, settings: OAuthSettings = {}, callback?: (state: string) => Promise<CallbackResult>, fetchFn?: GuidedContext['fetch']): Harness {
  const events: Harness['events'] = [];
  const changes: GuidedFlow[] = [];
  const cancelled: string[] = [];
  const ctx: GuidedContext = {
    serverUrl,
    settings,
    redirectUrl: REDIRECT_URL,
    fetch: fetchFn,
    awaitCallback:
      callback ??
      (async (state) => {
        const url = new URL(guided.flow.steps.find((s) => s.id === 'authorization-request')!.authorizationUrl!);
        url.searchParams.set('auto', '1');
        const response = await fetch(url, { redirect: 'manual' });
        const back = new URL(response.headers.get('location')!);
        if (back.searchParams.get('state') !== state) return { ok: false, error: 'state differs' };
        const error = back.searchParams.get('error');
        return error ? { ok: false, error: `answered ${error}`, oauthError: error } : { ok: true, code: back.searchParams.get('code')! };
      }),
    cancelCallback: (state) => void cancelled.push(state),
    record: (event) => void events.push(event),
  };
  // The callback above reads the flow's authorization URL; it is only called once the flow runs.
  const guided: GuidedOAuth = new GuidedOAuth('s1', ctx, (flow) => changes.push(flow));
  return { guided, events, changes, cancelled };
}

async function runAll(guided: GuidedOAuth): Promise<GuidedFlow> {
  while (!guided.flow.done) {
    const result = await guided.continue();
    if (!result.ok) throw new Error(result.reason);
  }
  return guided.flow;
}

async function secretsHandedOut(mcpUrl: string): Promise<string[]> {
  const stats = (await (await fetch(new URL('/debug/secrets', mcpUrl))).json()) as Record<string, string[]>;
  return Object.values(stats).flat();
}

const statusOf = (flow: GuidedFlow) => Object.fromEntries(flow.steps.map((s) => [s.id, s.status]));

describe('the guided flow against the good fixture', () => {
  it('passes every step, records each exchange, and never shows a secret', async () => {
    const fixture = await startFixture(['--variant', 'good']);
    const { guided, events, changes } = harness(fixture.mcpUrl);
    const flow = await runAll(guided);
    expect(flow.steps.map((s) => [s.id, s.status, s.problem])).toEqual(flow.steps.map((s) => [s.id, 'passed', undefined]));
    expect(flow.next).toBe(9);
    const step = (id: GuidedStepId) => flow.steps.find((s) => s.id === id)!;
    expect(step('unauthenticated-request').exchanges[0]).toMatchObject({ method: 'POST', url: fixture.mcpUrl, status: 401 });
    expect(step('challenge').verdict).toContain('/.well-known/oauth-protected-resource/mcp');
    expect(step('resource-metadata').verdict).toContain("the server's own URL");
    expect(step('authorization-server-metadata').verdict).toMatch(/issuer matches, PKCE S256/);
    expect(step('registration').exchanges[0].responseBody).toContain('client_id');
    const authUrl = new URL(step('authorization-request').authorizationUrl!);
    expect(Object.fromEntries(authUrl.searchParams)).toMatchObject({ code_challenge_method: 'S256', resource: fixture.mcpUrl, scope: 'mcp', redirect_uri: REDIRECT_URL });
    // The check of the URL found the fixture's consent page.
    expect(step('authorization-request').exchanges[0].status).toBe(200);
    const token = step('token-request').exchanges[0];
    expect(token.requestBody).toMatch(/code=•••• \(\d+ chars, secret\)/);
    expect(token.requestBody).toMatch(/code_verifier=•••• \(43 chars, secret\)/);
    expect(token.responseBody).toMatch(/"access_token":"•••• \(\d+ chars, secret\)"/);
    expect(step('token-request').verdict).toContain('scope “mcp”');
    expect(step('authenticated-request').exchanges[0].requestHeaders.authorization).toMatch(/^Bearer •••• \(\d+ chars, secret\)$/);
    expect(step('authenticated-request').verdict).toContain('answered initialize');
    // One auth trace row per step, and the page was told of every start and end.
    expect(events.map((e) => [e.step, e.status])).toEqual(flow.steps.map((s) => [s.id, 'passed']));
    expect(changes.filter((c) => c.steps.some((s) => s.status === 'running'))).toHaveLength(9);
    const everything = JSON.stringify({ flow, events, changes });
    const secrets = await secretsHandedOut(fixture.mcpUrl);
    expect(secrets.length).toBeGreaterThan(2);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it('skips registration for a pre-registered client and masks its secret in the Basic header', async () => {
    const fixture = await startFixture(['--variant', 'good']);
    const { guided, changes } = harness(fixture.mcpUrl, { clientId: 'loupe-test-client', clientSecret: 'loupe-test-secret' });
    const flow = await runAll(guided);
    const registration = flow.steps.find((s) => s.id === 'registration')!;
    expect(registration).toMatchObject({ status: 'skipped', exchanges: [] });
    expect(registration.verdict).toContain('loupe-test-client');
    expect(flow.steps.filter((s) => s.status !== 'skipped').every((s) => s.status === 'passed')).toBe(true);
    const token = flow.steps.find((s) => s.id === 'token-request')!.exchanges[0];
    expect(token.requestHeaders.authorization).toMatch(/^Basic •••• \(\d+ chars, secret\)$/);
    const everything = JSON.stringify(changes);
    expect(everything).not.toContain('loupe-test-secret');
    expect(everything).not.toContain(Buffer.from('loupe-test-client:loupe-test-secret').toString('base64'));
  });
});

const BROKEN: [variant: string, step: GuidedStepId, name: string][] = [
  ['prm-404', 'resource-metadata', 'Protected resource metadata not found (PRM 404)'],
  ['metadata-wrong-origin', 'authorization-server-metadata', 'Metadata served from the wrong origin (issuer mismatch)'],
  ['resource-mismatch', 'resource-metadata', '`resource` mismatch'],
  ['no-pkce-methods', 'authorization-server-metadata', 'Missing code_challenge_methods_supported'],
  ['bad-redirect', 'authorization-request', 'Redirect URI not allowed'],
  ['wrong-audience', 'authenticated-request', 'Token audience wrong'],
  ['scope-refused', 'token-request', 'Scopes refused (invalid_scope)'],
];

describe('the guided flow against each broken fixture', () => {
  it.each(BROKEN)('%s fails at %s: %s', async (variant, failing, name) => {
    const fixture = await startFixture(['--variant', variant]);
    const { guided, events } = harness(fixture.mcpUrl);
    const flow = await runAll(guided);
    const index = flow.steps.findIndex((s) => s.id === failing);
    expect(statusOf(flow)).toEqual(Object.fromEntries(flow.steps.map((s, i) => [s.id, i < index ? 'passed' : i === index ? 'failed' : 'pending'])));
    expect(flow.steps[index].problem?.name).toBe(name);
    expect(flow.steps[index].problem?.hint.length).toBeGreaterThan(40);
    expect(flow).toMatchObject({ done: true, next: index + 1 });
    expect(events.at(-1)).toMatchObject({ step: failing, status: 'failed' });
    expect(events.at(-1)!.message).toContain(name);
    const secrets = await secretsHandedOut(fixture.mcpUrl);
    for (const secret of secrets) expect(JSON.stringify(flow)).not.toContain(secret);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('registration by client ID metadata document', () => {
  const DOC_URL = 'https://client.loupe.test/oauth/client.json';
  /** The document's host does not exist: this fetch serves it, and passes everything else on. */
  const serving = (doc: object): GuidedContext['fetch'] => async (input, init) =>
    String(input) === DOC_URL ? new Response(JSON.stringify(doc), { headers: { 'content-type': 'application/json' } }) : fetch(input, init);

  async function untilRegistration(guided: GuidedOAuth): Promise<GuidedFlow> {
    for (let i = 0; i < 5; i++) await guided.continue();
    return guided.flow;
  }

  it('uses the document URL as the client ID where the server supports it', async () => {
    const fixture = await startFixture(['--variant', 'good']);
    const { guided } = harness(fixture.mcpUrl, { clientMetadataUrl: DOC_URL }, undefined, serving({ client_id: DOC_URL, redirect_uris: [REDIRECT_URL] }));
    const registration = (await untilRegistration(guided)).steps[4];
    expect(registration).toMatchObject({ status: 'passed', exchanges: [{ method: 'GET', url: DOC_URL, status: 200 }] });
    expect(registration.verdict).toContain(`client ID is ${DOC_URL}`);
    // The fixture's authorization server fetches the document itself, and that host does not exist
    // for it: it refuses the client, and the refused URL stays on the card.
    await guided.continue();
    expect(guided.flow.steps[5]).toMatchObject({ status: 'failed', problem: { name: 'Authorization refused (invalid_client)' } });
    expect(new URL(guided.flow.steps[5].authorizationUrl!).searchParams.get('client_id')).toBe(DOC_URL);
  });

  it('names a document that does not list the redirect URI, and a URL that is not HTTPS', async () => {
    const fixture = await startFixture(['--variant', 'good']);
    const wrong = harness(fixture.mcpUrl, { clientMetadataUrl: DOC_URL }, undefined, serving({ client_id: DOC_URL, redirect_uris: ['https://elsewhere/cb'] }));
    const failed = (await untilRegistration(wrong.guided)).steps[4];
    expect(failed).toMatchObject({ status: 'failed', problem: { name: 'Client ID metadata document unusable' } });
    expect(failed.problem!.hint).toContain(`redirect_uris do not include ${REDIRECT_URL}`);
    const plain = harness(fixture.mcpUrl, { clientMetadataUrl: 'http://127.0.0.1:9/client.json' });
    expect((await untilRegistration(plain.guided)).steps[4].problem!.hint).toContain('HTTPS URL with a path');
  });
});

describe('the guided flow machine', () => {
  it('names a server that cannot be reached', async () => {
    const { guided } = harness(`http://127.0.0.1:${await closedPort()}/mcp`);
    const flow = await runAll(guided);
    expect(flow.steps[0]).toMatchObject({ status: 'failed', problem: { name: 'Cannot reach the server' } });
    expect(flow.steps[0].exchanges[0].error).toBe('connection refused');
  });

  it('names metadata that is not JSON (a login page where the document should be)', async () => {
    const server = createHttpServer((req, res) => {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      if (req.url === '/mcp') res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/prm"` }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><form>Log in</form></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { guided } = harness(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`);
      const flow = await runAll(guided);
      expect(flow.steps[2]).toMatchObject({ status: 'failed', problem: { name: 'Not JSON' } });
      expect(flow.steps[2].problem!.hint).toContain('text/html');
      expect(flow.steps[2].exchanges[0].responseBody).toBe('<html><form>Log in</form></html>');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a second Continue while a step runs, and any after the end', async () => {
    const fixture = await startFixture(['--variant', 'good']);
    const { guided } = harness(fixture.mcpUrl);
    const first = guided.continue();
    expect(await guided.continue()).toEqual({ ok: false, reason: expect.stringContaining('still running') });
    await first;
    guided.stop();
    expect(await guided.continue()).toEqual({ ok: false, reason: expect.stringContaining('has ended') });
  });

  it('stops while waiting for the callback: the wait is given up and the step says so', async () => {
    const fixture = await startFixture(['--variant', 'good']);
    let waiting!: () => void;
    const reached = new Promise<void>((resolve) => (waiting = resolve));
    const { guided, cancelled, events } = harness(fixture.mcpUrl, {}, () => {
      waiting();
      return new Promise<CallbackResult>(() => {});
    });
    for (let i = 0; i < 6; i++) await guided.continue();
    expect(guided.flow.steps[5].authorizationUrl).toBeDefined();
    const callback = guided.continue();
    await reached;
    expect(guided.flow.steps[6].status).toBe('running');
    guided.stop();
    expect(guided.flow.steps[6]).toMatchObject({ status: 'failed', verdict: 'Stopped before it finished.' });
    expect(guided.flow.done).toBe(true);
    expect(cancelled).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ status: 'info' });
    // The abandoned step ends quietly: nothing it does later changes the flow.
    void callback;
  });

  it('names a refusal at the callback by its OAuth error code', async () => {
    const fixture = await startFixture(['--variant', 'good']);
    const { guided } = harness(fixture.mcpUrl, {}, async () => callbackResult({ ok: false, error: 'The authorization server answered access_denied: The user said no.' }));
    const flow = await runAll(guided);
    expect(flow.steps[6]).toMatchObject({ status: 'failed', problem: { name: 'Sign-in refused (access_denied)' } });
    expect(flow.steps[6].problem!.hint).toContain('The user said no');
  });
});

describe('callbackResult', () => {
  it('reads the OAuth error code and description back from the callback route’s sentence', () => {
    expect(callbackResult({ ok: false, error: 'The authorization server answered invalid_scope: Scope admin is not allowed.' })).toEqual({
      ok: false,
      error: 'The authorization server answered invalid_scope: Scope admin is not allowed.',
      oauthError: 'invalid_scope',
      description: 'Scope admin is not allowed',
    });
    expect(callbackResult({ ok: false, error: 'Nobody finished signing in at http://as within 10 minutes.' })).toMatchObject({ oauthError: undefined });
    expect(callbackResult({ ok: true, code: 'c' })).toEqual({ ok: true, code: 'c' });
  });
});

describe('sseAnswer', () => {
  it('finds the initialize answer in a complete event only', () => {
    const event = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}\n\n';
    expect(sseAnswer(event)).toMatchObject({ id: 1 });
    expect(sseAnswer(event.slice(0, -2))).toBeUndefined();
    expect(sseAnswer('data: {"jsonrpc":"2.0","method":"notifications/message"}\n\n' + event)).toMatchObject({ id: 1 });
  });
});
