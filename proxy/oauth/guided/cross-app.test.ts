/**
 * The guided flow's cross-app access path (cross-app.ts) against the cross-app fixture
 * (e2e/fixtures/cross-app-server.mjs, real HTTP servers): the good server passes every step, each
 * exchange recorded with its tokens masked; each broken variant stops at the step where the failure
 * shows, named (IdP refusal, wrong audience, expired assertion, grant not supported); settings that
 * lack what the path needs are named before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import type { GuidedFlow, OAuthSettings } from '../../../lib/wire/oauth.ts';
import { startCrossAppFixture, XAA, type CrossAppFixture } from '../../testing/cross-app-fixture.ts';
import { GuidedOAuth, type GuidedContext } from './guided.ts';

function guidedFor(serverUrl: string, settings: GuidedContext['settings']): { guided: GuidedOAuth; events: { step: string; status: string; message: string }[] } {
  const events: { step: string; status: string; message: string }[] = [];
  const ctx: GuidedContext = {
    serverUrl,
    settings,
    redirectUrl: 'http://127.0.0.1:6999/oauth/callback',
    awaitCallback: () => Promise.reject(new Error('cross-app access has no callback')),
    cancelCallback: () => {},
    record: (event) => void events.push(event),
  };
  return { guided: new GuidedOAuth('s1', ctx, () => {}), events };
}

async function runAll(guided: GuidedOAuth): Promise<GuidedFlow> {
  while (!guided.flow.done) {
    const result = await guided.continue();
    if (!result.ok) throw new Error(result.reason);
  }
  return guided.flow;
}

async function settingsFor(fixture: CrossAppFixture): Promise<OAuthSettings> {
  return { grant: 'cross_app_access', clientId: XAA.clientId, clientSecret: XAA.clientSecret, idp: { tokenEndpoint: `${fixture.idpUrl}/token`, clientId: XAA.idpClientId, idToken: await fixture.idToken() } };
}

const statuses = (flow: GuidedFlow) => flow.steps.map((s) => `${s.id} ${s.status}`);

describe('the cross-app path against the good fixture', () => {
  it('passes every step: discovery, the token exchange, the jwt-bearer grant, the request with the token; no secret is shown', async () => {
    const fixture = await startCrossAppFixture();
    const settings = await settingsFor(fixture);
    const { guided, events } = guidedFor(fixture.mcpUrl, settings);
    expect(guided.flow.path).toBe('cross-app-access');
    const flow = await runAll(guided);
    expect(statuses(flow)).toEqual(['unauthenticated-request passed', 'challenge passed', 'resource-metadata passed', 'authorization-server-metadata passed', 'token-exchange passed', 'jwt-bearer-grant passed', 'authenticated-request passed']);
    const step = (id: string) => flow.steps.find((s) => s.id === id)!;
    expect(step('authorization-server-metadata').verdict).toMatch(/it offers the jwt-bearer grant; token http:\/\/127\.0\.0\.1:\d+\/token, client authentication client_secret_basic\./);
    expect(step('token-exchange').verdict).toMatch(new RegExp(`typ oauth-id-jag\\+jwt, audience ${fixture.asUrl}, resource ${fixture.mcpUrl}, client_id ${XAA.clientId}, expires in \\d+ s\\. It fits this authorization server`));
    const exchange = step('token-exchange').exchanges[0];
    expect(exchange.requestBody).toMatch(/grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange/);
    expect(exchange.requestBody).toMatch(/subject_token=•••• \(\d+ chars, secret\)/);
    expect(exchange.responseBody).toMatch(/"access_token": ?"•••• \(\d+ chars, secret\)"/);
    expect(step('jwt-bearer-grant').exchanges[0].requestHeaders.authorization).toMatch(/^Basic ••••/);
    expect(step('jwt-bearer-grant').exchanges[0].requestBody).toMatch(/grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=•••• /);
    expect(step('authenticated-request').verdict).toMatch(/^The server accepted the token: loupe-oauth-fixture/);
    const shown = JSON.stringify([flow, events]);
    const secrets = [...(await fixture.secrets()), settings.idp!.idToken!];
    expect(secrets.length).toBeGreaterThan(3);
    for (const secret of secrets) expect(shown).not.toContain(secret);
  });

  it('names the settings it lacks, and an expired ID token, before sending anything to the IdP', async () => {
    const fixture = await startCrossAppFixture();
    const lacking = await runAll(guidedFor(fixture.mcpUrl, { grant: 'cross_app_access', idp: { tokenEndpoint: `${fixture.idpUrl}/token` } }).guided);
    const failed = lacking.steps.find((s) => s.status === 'failed')!;
    expect(failed).toMatchObject({ id: 'token-exchange', exchanges: [], problem: { name: 'Cross-app access not configured', hint: expect.stringMatching(/needs the IdP client ID, the ID token, the client ID at the authorization server, its client secret/) } });
    const settings = await settingsFor(fixture);
    const expired = await runAll(guidedFor(fixture.mcpUrl, { ...settings, idp: { ...settings.idp, idToken: await fixture.idToken(-60) } }).guided);
    expect(expired.steps.find((s) => s.status === 'failed')).toMatchObject({ id: 'token-exchange', exchanges: [], problem: { name: 'ID token expired' } });
    expect((await fixture.stats()).idp.requests).toBe(0);
  });
});

describe('the cross-app path: each failure named at its step', () => {
  it.each([
    ['idp-refuses', 'token-exchange', 'IdP refused the token exchange'],
    ['wrong-audience', 'jwt-bearer-grant', 'Wrong audience'],
    ['expired-assertion', 'jwt-bearer-grant', 'Expired assertion'],
    ['no-jwt-bearer', 'authorization-server-metadata', 'Grant not supported by the authorization server'],
  ])('%s stops at %s: %s', async (variant, stepId, name) => {
    const fixture = await startCrossAppFixture(variant);
    const flow = await runAll(guidedFor(fixture.mcpUrl, await settingsFor(fixture)).guided);
    const failed = flow.steps.filter((s) => s.status === 'failed');
    expect(failed.map((s) => [s.id, s.problem?.name])).toEqual([[stepId, name]]);
    if (variant === 'wrong-audience') {
      // The step before already said why the server would refuse it.
      expect(flow.steps.find((s) => s.id === 'token-exchange')!.verdict).toMatch(/likely to refuse it: its audience is https:\/\/other-as\.example\.com\//);
    }
  });
});
