/**
 * The headers a user gives for an MCP server (`--header`, a config's `headers`) go to that server's
 * origin only (issue 21, item 1): the OAuth fixture with its authorization server on an origin of
 * its own (two ports on 127.0.0.1 are two origins) logs every header each origin received. The
 * sign-in runs for real in the headless path (the engine the CLI drives), the page path (a Loupe
 * launched with a wire client, signing in through its /oauth/callback) and the guided OAuth flow.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture, type ReceivedRequest } from '../../testing/oauth-fixture.ts';
import { openFaceSession } from '../../faces/cli/face-session.ts';
import { LoupeHarness } from '../../testing/harness.ts';
import { GuidedOAuth, type CallbackResult } from '../../oauth/guided/guided.ts';
import { withUserHeaders } from './user-headers.ts';

const KEY = 'goog-key-4f1d9c2b7a0e5d3c8b6a';
const TOKEN = 'user-bearer-7c2e90ab41d85f36';
const headers = { 'X-Goog-Api-Key': KEY };

const carries = (request: ReceivedRequest, value: string) => Object.values(request.headers).some((v) => String(v).includes(value));

/** What each origin got: the authorization server was used, never saw the key; the MCP server did. */
async function expectKeyOnlyAtTheServer(fixture: OAuthFixture, value = KEY): Promise<void> {
  const requests = await fixture.requests();
  const atAs = requests.filter((r) => r.server === 'authorization');
  expect(atAs.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /.well-known/oauth-authorization-server', 'POST /register', 'POST /token']));
  expect(atAs.filter((r) => carries(r, value)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  const atServer = requests.filter((r) => r.server === 'resource' && r.path === '/mcp');
  expect(atServer.filter((r) => carries(r, value)).length).toBeGreaterThan(0);
}

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

describe('user headers and a separate authorization server', () => {
  it('headless: the sign-in never carries the key to the authorization server; the MCP requests do', async () => {
    const fixture = await startOAuthFixture(['--variant', 'separate-as', '--auto-approve']);
    const opened = await openFaceSession({ kind: 'http', url: fixture.mcpUrl, transport: 'auto', headers });
    try {
      expect(opened.ok).toBe(true);
      const listed = await opened.session.request('r1', 'tools/list', {});
      expect(listed.ok).toBe(true);
    } finally {
      await opened.close();
    }
    await expectKeyOnlyAtTheServer(fixture);
  });

  it('page: signing in through /oauth/callback, the key stays with the MCP server', async () => {
    const fixture = await startOAuthFixture(['--variant', 'separate-as']);
    const { client } = await harness.start({ config: { kind: 'http', url: fixture.mcpUrl, transport: 'auto', headers } });
    const waiting = await client.until(() => [...client.sessions.values()].find((s) => s.auth?.authorizationUrl), 15_000, 'the authorization URL');
    const authorize = new URL(waiting.auth!.authorizationUrl!);
    authorize.searchParams.set('auto', '1');
    const approved = await fetch(authorize, { redirect: 'manual' });
    expect((await fetch(approved.headers.get('location')!)).status).toBe(200);
    await client.waitForStatus(waiting.id, ['connected']);
    await expectKeyOnlyAtTheServer(fixture);
  });

  it('guided flow: discovery, registration and the token request go without the key', async () => {
    const fixture = await startOAuthFixture(['--variant', 'separate-as']);
    const guided: GuidedOAuth = new GuidedOAuth('s1', {
      serverUrl: fixture.mcpUrl,
      headers,
      settings: {},
      redirectUrl: 'http://127.0.0.1:6999/oauth/callback',
      awaitCallback: async (): Promise<CallbackResult> => {
        const url = new URL(guided.flow.steps.find((s) => s.id === 'authorization-request')!.authorizationUrl!);
        url.searchParams.set('auto', '1');
        const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
        return { ok: true, code: back.searchParams.get('code')! };
      },
      cancelCallback: () => undefined,
      record: () => undefined,
    }, () => undefined);
    while (!guided.flow.done) expect((await guided.continue()).ok).toBe(true);
    expect(guided.flow.steps.every((s) => s.status === 'passed')).toBe(true);
    await expectKeyOnlyAtTheServer(fixture);
  });
});

describe('withUserHeaders', () => {
  const seen: { url: string; headers: Headers }[] = [];
  const base = async (input: string | URL, init?: RequestInit) => {
    seen.push({ url: String(input), headers: new Headers(init?.headers) });
    return new Response('{}');
  };
  const fetchFn = withUserHeaders(base, 'https://mcp.example.com/mcp', { 'X-Goog-Api-Key': KEY, Authorization: `Bearer ${TOKEN}` }, (url) => url.startsWith('https://mcp.example.com/mcp'));
  afterEach(() => void seen.splice(0));

  it('adds them all to the MCP endpoint, over what the SDK set', async () => {
    await fetchFn('https://mcp.example.com/mcp', { method: 'POST', headers: { authorization: 'Bearer from-the-sdk', accept: 'application/json' } });
    expect(Object.fromEntries(seen[0].headers)).toEqual({ 'x-goog-api-key': KEY, authorization: `Bearer ${TOKEN}`, accept: 'application/json' });
  });

  it('adds all but Authorization elsewhere on the same origin, without replacing what the SDK set', async () => {
    await fetchFn('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    await fetchFn('https://mcp.example.com/token', { method: 'POST', headers: { authorization: 'Basic Y2xpZW50OnNlY3JldA==' } });
    expect(Object.fromEntries(seen[0].headers)).toEqual({ 'x-goog-api-key': KEY });
    expect(Object.fromEntries(seen[1].headers)).toEqual({ 'x-goog-api-key': KEY, authorization: 'Basic Y2xpZW50OnNlY3JldA==' });
  });

  it('adds none to another origin (another host, port or scheme)', async () => {
    for (const url of ['https://auth.example.com/token', 'https://mcp.example.com:8443/mcp', 'http://mcp.example.com/mcp']) await fetchFn(url, { method: 'POST' });
    expect(seen.map((s) => [...s.headers.keys()])).toEqual([[], [], []]);
  });
});
