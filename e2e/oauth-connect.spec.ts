/**
 * Connecting to a server behind OAuth in the browser (issue 11): the URL of a protected server is
 * all it takes. Loupe discovers and registers by itself, the page offers the sign-in link, the
 * fixture's consent page is approved in its own tab, Loupe's /oauth/callback takes the code and
 * the session connects; the tools then run. Also: a refresh after the token expires, a step-up on
 * 403 insufficient_scope, Forget credentials, and no token, code or secret anywhere in the page,
 * its storage, the trace or an export.
 */
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { test, expect } from './support/test.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { FIXTURES } from './support/servers.ts';

const LINE = /oauth fixture listening: (\S+) \(authorization server (\S+)\)/;
const fixtures: Proc[] = [];

async function startFixture(...args: string[]): Promise<string> {
  const proc = spawnProc(process.execPath, [join(FIXTURES, 'oauth-server.mjs'), ...args]);
  fixtures.push(proc);
  return (await waitForOutput(proc, proc.stdout, LINE, 20_000, 'OAuth fixture'))[1];
}

test.afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((proc) => stopProc(proc)));
});

async function stats(fixtureUrl: string): Promise<{ grants: Record<string, number> }> {
  return (await (await fetch(new URL('/debug/stats', fixtureUrl))).json()) as { grants: Record<string, number> };
}

async function secretsHandedOut(fixtureUrl: string): Promise<string[]> {
  const response = await fetch(new URL('/debug/secrets', fixtureUrl));
  return Object.values((await response.json()) as Record<string, string[]>).flat();
}

/** The sign-in link opens the consent page in a new tab; Approve; Loupe's callback page says so. */
async function signIn(page: Page): Promise<void> {
  const region = page.getByRole('region', { name: 'Sign in' });
  await expect(region).toContainText('needs you to sign in at 127.0.0.1');
  const opened = page.context().waitForEvent('page');
  await region.getByRole('link', { name: 'Open sign-in page' }).click();
  const consent = await opened;
  await consent.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(consent.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  await consent.close();
}

async function runTool(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${name}\\b`) }).first().click();
  await page.getByRole('button', { name: 'Run tool' }).click();
}

test('a protected server connects with one sign-in, and its tools run', async ({ launch, loupe, page }) => {
  const fixtureUrl = await startFixture();
  const app = await launch([fixtureUrl]);
  await loupe.open(app.url);
  await signIn(page);
  await loupe.waitForStatus('Connected');
  await expect(page.getByText(/Signed in with OAuth as client \S+ · scope mcp/)).toBeVisible();
  await runTool(page, 'whoami');
  await expect(loupe.result()).toContainText('with scopes mcp');

  // Step-up: the server wants scope admin (403 insufficient_scope); one more sign-in, then the call goes through.
  await runTool(page, 'admin_action');
  await signIn(page);
  await expect(loupe.result()).toContainText('admin done', { timeout: 20_000 });
  expect((await stats(fixtureUrl)).grants.authorization_code).toBe(2);

  // Nothing secret reached the page: DOM, storage, IndexedDB, the trace, an export.
  const secrets = await secretsHandedOut(fixtureUrl);
  expect(secrets.length).toBeGreaterThan(3);
  const seen = await page.evaluate(async () => {
    const storage = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    const databases = 'databases' in indexedDB ? JSON.stringify(await indexedDB.databases()) : '';
    return document.documentElement.outerHTML + storage + databases;
  });
  for (const secret of secrets) expect(seen, 'no token, code or secret in the page').not.toContain(secret);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('region', { name: 'History' })).toContainText('OAuth callback');
  const history = await page.getByRole('region', { name: 'History' }).innerText();
  for (const secret of secrets) expect(history).not.toContain(secret);
  await page.getByRole('button', { name: 'Export…', exact: true }).click();
  const exportRegion = page.getByRole('region', { name: 'Export trace' });
  const [download] = await Promise.all([page.waitForEvent('download'), exportRegion.getByRole('button', { name: 'Download JSONL' }).click()]);
  const file = await download.path();
  const exported = await readFile(file, 'utf8');
  expect(exported).toContain('"kind":"auth"');
  for (const secret of secrets) expect(exported, 'no token, code or secret in an export').not.toContain(secret);
});

test('an expired access token is refreshed without a new sign-in', async ({ launch, loupe, page }) => {
  const fixtureUrl = await startFixture('--token-ttl', '2');
  const app = await launch([fixtureUrl]);
  await loupe.open(app.url);
  await signIn(page);
  await loupe.waitForStatus('Connected');
  await page.waitForTimeout(2_500);
  await runTool(page, 'whoami');
  await expect(loupe.result()).toContainText('with scopes mcp', { timeout: 20_000 });
  const { grants } = await stats(fixtureUrl);
  expect(grants.refresh_token).toBeGreaterThanOrEqual(1);
  expect(grants.authorization_code).toBe(1);
  await expect(page.getByRole('region', { name: 'Sign in' })).toHaveCount(0);

  // Forget credentials: the next connect needs a new sign-in.
  await page.getByRole('tab', { name: 'OAuth', exact: true }).click();
  await page.getByRole('button', { name: 'Forget credentials' }).click();
  await loupe.disconnect();
  await loupe.connect();
  await expect(page.getByRole('region', { name: 'Sign in' })).toContainText('needs you to sign in');
  await signIn(page);
  await loupe.waitForStatus('Connected');
  expect((await stats(fixtureUrl)).grants.authorization_code).toBe(2);
});
