/**
 * The guided OAuth flow in the browser (issue 11, "Guided mode"): against the OAuth fixture
 * (e2e/fixtures/oauth-server.mjs), the good server passes every step — the sign-in page opens in
 * a new window on Continue and its Approve button is clicked there — and each broken variant
 * fails at the step where that field failure shows, with its named explanation. No token, code or
 * secret the fixture handed out is ever in the page.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './support/test.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { FIXTURES } from './support/servers.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const LINE = /oauth fixture listening: (\S+) \(authorization server (\S+)\)/;
/** The callback step: its Continue opens the sign-in page. */
const CALLBACK_STEP = 7;

const fixtures: Proc[] = [];

async function startFixture(variant: string): Promise<{ url: string; proc: Proc }> {
  const proc = spawnProc(process.execPath, [join(FIXTURES, 'oauth-server.mjs'), '--variant', variant]);
  fixtures.push(proc);
  const match = await waitForOutput(proc, proc.stdout, LINE, 20_000, `OAuth fixture ${variant}`);
  return { url: match[1], proc };
}

test.afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((proc) => stopProc(proc)));
});

function guided(page: Page): Locator {
  return page.getByRole('region', { name: 'OAuth' }).getByRole('region', { name: 'Guided flow' });
}

function step(page: Page, n: number): Locator {
  return guided(page).getByRole('list', { name: 'Guided steps' }).getByRole('region', { name: new RegExp(`^Step ${n}: `) });
}

async function expectSettled(page: Page, n: number): Promise<void> {
  await expect(step(page, n).getByRole('status'), `step ${n} should end`).toHaveText(/^(Passed|Failed|Skipped)$/, { timeout: 20_000 });
}

/** Continue on step `n`; on the callback step, approve in the window it opens. */
async function continueStep(page: Page, n: number): Promise<void> {
  const button = step(page, n).getByRole('button', { name: 'Continue', exact: true });
  if (n !== CALLBACK_STEP) {
    await button.click();
  } else {
    const opened = page.context().waitForEvent('page');
    await button.click();
    const popup = await opened;
    await popup.getByRole('button', { name: 'Approve', exact: true }).click();
    // Loupe's own callback page says so once it has the code.
    await expect(popup.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    await popup.close();
  }
  await expectSettled(page, n);
}

async function openGuided(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('tab', { name: 'OAuth', exact: true }).click();
  await guided(page).getByRole('button', { name: 'Start guided flow' }).click();
  await expectSettled(page, 1);
}

async function secretsHandedOut(fixtureUrl: string): Promise<string[]> {
  const response = await fetch(new URL('/debug/secrets', fixtureUrl));
  return Object.values((await response.json()) as Record<string, string[]>).flat();
}

test('the good server passes every step of the guided flow, the sign-in approved in its own window', async ({ launch, page }) => {
  const fixture = await startFixture('good');
  const loupe = await launch([fixture.url]);
  await openGuided(page, loupe.url);
  for (let n = 2; n <= 9; n++) await continueStep(page, n);
  for (let n = 1; n <= 9; n++) await expect(step(page, n).getByRole('status')).toHaveText('Passed');
  await expect(guided(page).getByRole('status', { name: 'Guided flow result' })).toHaveText('Every step passed.');
  // The authorization URL is shown on its step; the exchanges are there, masked.
  await expect(step(page, 6)).toContainText('code_challenge_method=S256');
  const tokenStep = step(page, 8);
  await tokenStep.locator('summary').first().click();
  await expect(tokenStep.getByRole('group', { name: 'Request' })).toContainText(/code_verifier=•••• \(43 chars, secret\)/);
  await expect(tokenStep.getByRole('group', { name: 'Response' })).toContainText(/"access_token":"•••• \(\d+ chars, secret\)"/);
  const html = await page.content();
  const secrets = await secretsHandedOut(fixture.url);
  expect(secrets.length).toBeGreaterThan(2);
  for (const secret of secrets) expect(html, 'no token, code or secret in the page').not.toContain(secret);
});

const BROKEN: [variant: string, failing: number, name: string][] = [
  ['prm-404', 3, 'Protected resource metadata not found (PRM 404)'],
  ['resource-mismatch', 3, '`resource` mismatch'],
  ['metadata-wrong-origin', 4, 'Metadata served from the wrong origin (issuer mismatch)'],
  ['no-pkce-methods', 4, 'Missing code_challenge_methods_supported'],
  ['bad-redirect', 6, 'Redirect URI not allowed'],
  ['scope-refused', 8, 'Scopes refused (invalid_scope)'],
  ['wrong-audience', 9, 'Token audience wrong'],
];

for (const [variant, failing, name] of BROKEN) {
  test(`the ${variant} server fails the guided flow at step ${failing}: ${name}`, async ({ launch, page }) => {
    const fixture = await startFixture(variant);
    const loupe = await launch([fixture.url]);
    await openGuided(page, loupe.url);
    for (let n = 2; n <= failing; n++) await continueStep(page, n);
    for (let n = 1; n < failing; n++) await expect(step(page, n).getByRole('status')).toHaveText('Passed');
    const failed = step(page, failing);
    await expect(failed.getByRole('status')).toHaveText('Failed');
    await expect(failed.getByRole('alert')).toContainText(name);
    // A failure stops the flow: nothing further to continue, the later steps never ran.
    await expect(guided(page).getByRole('button', { name: 'Continue', exact: true })).toHaveCount(0);
    if (failing < 9) await expect(step(page, failing + 1).getByRole('status')).toHaveText('Pending');
    await expect(guided(page).getByRole('status', { name: 'Guided flow result' })).toHaveText('Stopped at a failed step.');
  });
}

test.describe('accessibility of the OAuth tab (axe-core)', () => {
  // As in a11y.spec.ts: axe is injected as an inline script, which Loupe's CSP forbids; only this browser context ignores it.
  test.use({ bypassCSP: true });

  test('no serious or critical violation with passed and failed cards and an exchange open, light and dark', async ({ launch, page }) => {
    const fixture = await startFixture('wrong-audience');
    const loupe = await launch([fixture.url]);
    await openGuided(page, loupe.url);
    for (let n = 2; n <= 9; n++) await continueStep(page, n);
    await step(page, 8).locator('summary').first().click();
    await page.addScriptTag({ path: AXE });
    const toggle = page.getByRole('button', { name: /(Dark|Light) theme/ });
    for (const dark of [false, true]) {
      // The toggle names what it does: `Light theme` while the theme is dark.
      if ((await toggle.textContent())?.includes(dark ? 'Dark theme' : 'Light theme')) await toggle.click();
      await expect(toggle).toHaveAccessibleName(dark ? 'Light theme' : 'Dark theme');
      const findings = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
        const { violations } = await axe.run();
        return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
      });
      expect(findings, `${dark ? 'dark' : 'light'} theme`).toEqual([]);
    }
  });
});
