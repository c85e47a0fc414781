/**
 * Cross-app access in the browser (issue 29; Enterprise-Managed Authorization, SEP-990), against the
 * cross-app fixture (e2e/fixtures/cross-app-server.mjs: an enterprise IdP, an authorization server
 * that takes only the jwt-bearer grant, a protected MCP server, real HTTP servers on 127.0.0.1).
 * A plain connect is refused with the reason and where to go; the OAuth tab's settings choose
 * cross-app access with the IdP's settings and a pasted ID token; the session connects and a tool
 * runs; the guided flow follows the cross-app path, each exchange shown masked; a wrong audience is
 * named in words, on connect and in the guided flow; no ID token, assertion, access token or secret
 * reaches the page, its storage, the History or an export.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './support/test.ts';
import { expectNoSeriousAxeFindings } from './support/axe.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { FIXTURES } from './support/servers.ts';
import { OAuthPage } from './pages/oauth-page.ts';

const LINE = /cross-app fixture listening: (\S+) \(authorization server (\S+), idp (\S+)\)/;
const fixtures: Proc[] = [];

interface Fixture {
  mcpUrl: string;
  idpUrl: string;
  idToken(): Promise<string>;
  secrets(): Promise<string[]>;
}

async function startFixture(variant = 'good'): Promise<Fixture> {
  const proc = spawnProc(process.execPath, [join(FIXTURES, 'cross-app-server.mjs'), '--variant', variant]);
  fixtures.push(proc);
  const [, mcpUrl, , idpUrl] = await waitForOutput(proc, proc.stdout, LINE, 20_000, 'cross-app fixture');
  return {
    mcpUrl,
    idpUrl,
    idToken: async () => (await fetch(`${idpUrl}/debug/id-token`)).text(),
    secrets: async () => Object.values((await (await fetch(`${idpUrl}/debug/secrets`)).json()) as Record<string, string[]>).flat(),
  };
}

test.afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((proc) => stopProc(proc)));
});

async function settingsFor(fixture: Fixture) {
  return { clientId: 'loupe-xaa-client', clientSecret: 'loupe-xaa-secret', idpTokenEndpoint: `${fixture.idpUrl}/token`, idpClientId: 'loupe-idp-client', idToken: await fixture.idToken() };
}

/** Everything the page holds: its DOM, localStorage, sessionStorage and IndexedDB's databases. */
async function pageContents(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const storage = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    const databases = 'databases' in indexedDB ? JSON.stringify(await indexedDB.databases()) : '';
    return document.documentElement.outerHTML + storage + databases;
  });
}

test('connects through cross-app access and calls a tool; no token or secret reaches the page, its storage or the History', async ({ launch, loupe, page }) => {
  const fixture = await startFixture();
  const app = await launch([fixture.mcpUrl]);
  await loupe.open(app.url);
  // The authorization server takes only identity assertions: a plain connect says so, and where to go.
  await loupe.waitForStatus('Failed');
  await expect(page.getByRole('region', { name: 'Connection' })).toContainText('Signing in failed: Authorization code grant not offered.');
  await expect(page.getByRole('region', { name: 'Connection' })).toContainText('Choose Cross-app access (enterprise IdP) in the OAuth settings');

  const oauth = new OAuthPage(page);
  await oauth.open();
  const settings = await settingsFor(fixture);
  await oauth.useCrossApp(settings);
  await expect(oauth.signIn()).toContainText(`${fixture.idpUrl}/token (ID token set, kept by Loupe)`);
  await loupe.connect();
  await loupe.waitForStatus('Connected');
  await expect(page.getByText(/Signed in with OAuth as client loupe-xaa-client · scope mcp/)).toBeVisible();
  await loupe.selectTool('whoami');
  await loupe.runTool();
  await expect(loupe.result()).toContainText('client loupe-xaa-client with scopes mcp');

  const secrets = [...(await fixture.secrets()), settings.idToken];
  expect(secrets.length).toBeGreaterThan(3);
  const seen = await pageContents(page);
  for (const secret of secrets) expect(seen, 'no ID token, assertion, token or secret in the page or its storage').not.toContain(secret);
  await page.getByRole('tab', { name: 'History' }).click();
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText(`${fixture.idpUrl}/token`);
  const text = await history.innerText();
  for (const secret of secrets) expect(text, 'no secret in the History').not.toContain(secret);
  await page.getByRole('button', { name: 'Export…', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('region', { name: 'Export trace' }).getByRole('button', { name: 'Download JSONL' }).click()]);
  const exported = await readFile(await download.path(), 'utf8');
  expect(exported).toContain('"step":"token-exchange"');
  for (const secret of secrets) expect(exported, 'no secret in an export').not.toContain(secret);
});

test('the guided flow follows the cross-app path: each exchange shown with its tokens masked', async ({ launch, loupe, page }) => {
  const fixture = await startFixture();
  const app = await launch([fixture.mcpUrl]);
  await loupe.open(app.url);
  const oauth = new OAuthPage(page);
  await oauth.open();
  const settings = await settingsFor(fixture);
  await oauth.useCrossApp(settings);
  await expect(oauth.guided()).toContainText('Path: cross-app access (enterprise IdP)');
  await oauth.startGuided();
  for (let n = 2; n <= 7; n++) await oauth.continueStep(n);
  for (let n = 1; n <= 7; n++) await expect(oauth.step(n).getByRole('status')).toHaveText('Passed');
  await expect(oauth.step(5)).toHaveAccessibleName('Step 5: Token exchange at the IdP');
  await expect(oauth.step(6)).toHaveAccessibleName('Step 6: JWT bearer grant');
  await expect(oauth.guided().getByRole('status', { name: 'Guided flow result' })).toHaveText('Every step passed.');
  const exchange = await oauth.exchange(5);
  await expect(exchange.request).toContainText(/subject_token=•••• \(\d+ chars, secret\)/);
  await expect(exchange.request).toContainText('requested_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aid-jag');
  await expect(exchange.response).toContainText(/"access_token": ?"•••• \(\d+ chars, secret\)"/);
  const grant = await oauth.exchange(6);
  await expect(grant.request).toContainText(/authorization: Basic ••••/);
  await expect(grant.request).toContainText(/assertion=•••• \(\d+ chars, secret\)/);
  const seen = await pageContents(page);
  for (const secret of [...(await fixture.secrets()), settings.idToken]) expect(seen).not.toContain(secret);
});

test('a wrong audience is named in words, on connect and in the guided flow', async ({ launch, loupe, page }) => {
  const fixture = await startFixture('wrong-audience');
  const app = await launch([fixture.mcpUrl]);
  await loupe.open(app.url);
  await loupe.waitForStatus('Failed');
  const oauth = new OAuthPage(page);
  await oauth.open();
  await oauth.useCrossApp(await settingsFor(fixture));
  await loupe.connect();
  await loupe.waitForStatus('Failed');
  const connection = page.getByRole('region', { name: 'Connection' });
  await expect(connection).toContainText('Signing in failed: Wrong audience.');
  await expect(connection).toContainText('its audience is https://other-as.example.com/');
  await expect(oauth.signIn().getByRole('alert')).toContainText('Wrong audience.');

  await oauth.startGuided();
  for (let n = 2; n <= 6; n++) await oauth.continueStep(n);
  await expect(oauth.step(5)).toContainText('The authorization server is likely to refuse it: its audience is https://other-as.example.com/');
  const failed = oauth.step(6);
  await expect(failed.getByRole('status')).toHaveText('Failed');
  await expect(failed.getByRole('alert')).toContainText('Wrong audience');
  await expect(oauth.guided().getByRole('status', { name: 'Guided flow result' })).toHaveText('Stopped at a failed step.');
  // The cross-app settings, a failed card and an exchange open: nothing serious for axe, light and dark.
  await oauth.exchange(6);
  await expectNoSeriousAxeFindings(page, 'the OAuth tab with cross-app access');
});
