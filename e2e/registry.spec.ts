// Registry entries (issue 25, item 4): `Open server.json` takes an MCP Registry entry, checks it
// against Loupe's schema of the format with errors by JSON path, launches a package (a secret
// environment variable held by the proxy, never in the page's storage nor the History) or a
// remote, and lists where the live server differs from what the entry claims.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { EVERYTHING, FIXTURES } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const ENTRIES = join(FIXTURES, 'registry');
const SECRET = 'registry-secret-7f3a91';

async function openDialog(page: Page) {
  // Enabled only once the page is live (hydrated and synced): the click waits for it.
  await page.getByRole('button', { name: 'Open server.json', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Registry entry' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('registry entries (server.json)', () => {
  test('an invalid file shows its errors by JSON path, and is still read', async ({ launch, loupe, page }) => {
    const app = await launch([]);
    await loupe.open(app.url);
    const dialog = await openDialog(page);
    await dialog.getByLabel('server.json file').setInputFiles(join(ENTRIES, 'invalid.server.json'));
    const errors = dialog.getByRole('list', { name: 'Schema errors' });
    await expect(errors).toContainText('/name: must match the pattern');
    await expect(errors).toContainText('/packages/0/transport/type: must be one of stdio, streamable-http, sse');
    await expect(errors).toContainText('/packages/0/version: must not be "latest"');
    await expect(errors).toContainText('/packages/0/packageArguments/0: must have valueHint or value');
    await expect(dialog.getByRole('radio', { name: /Package 1: npm broken-mcp@latest/ })).toBeVisible();
  });

  test('a package with a secret env var launches and connects; the secret stays out of the page; the entry is compared', async ({ launch, loupe, page }) => {
    const app = await launch([]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const dialog = await openDialog(page);
    await dialog.getByLabel('server.json file').setInputFiles(join(ENTRIES, 'everything-package.server.json'));
    await expect(dialog.getByRole('region', { name: 'Schema check' })).toContainText('Valid against the server.json schema 2025-12-11');
    await dialog.getByRole('radio', { name: /Package 1: npm @modelcontextprotocol\/server-everything@2026\.8\.31/ }).check();

    const add = dialog.getByRole('button', { name: 'Add and connect', exact: true });
    await expect(add).toBeDisabled();
    await expect(dialog).toContainText('Fill in first: server_script, EVERYTHING_API_TOKEN.');
    await dialog.getByRole('textbox', { name: 'server_script (runtime argument)' }).fill(EVERYTHING);
    const secret = dialog.getByLabel('EVERYTHING_API_TOKEN (environment variable)');
    await expect(secret).toHaveAttribute('type', 'password');
    await secret.fill(SECRET);
    await expect(dialog.getByRole('combobox', { name: 'EVERYTHING_REGION (environment variable)' })).toHaveValue('eu');
    await expect(dialog).toContainText('runtimeHint "node" is not the runner Loupe knows for npm packages');
    await add.click();

    await expect(page.getByRole('region', { name: 'Servers' }).getByRole('button', { name: /^Everything from the registry/ })).toHaveAttribute('aria-current', 'true');
    await loupe.waitForStatus('Connected');
    const compared = dialog.getByRole('list', { name: 'Differences from the entry' });
    await expect(compared).toContainText('version: the entry says "9.9.9-registry", the server says');
    await expect(compared).toContainText('name: the entry says "io.github.modelcontextprotocol/everything", the server says "mcp-servers/everything"');
    await expect(compared).toContainText('transport: matches ("stdio")');

    // The secret: not in storage, not in the page, not in the History.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(SECRET);
    expect(await page.content()).not.toContain(SECRET);
    await loupe.openTab('History');
    await expect(loupe.history()).toContainText('initialize');
    await expect(loupe.history()).not.toContainText(SECRET);
  });

  test('a remote at a Streamable HTTP server, its URL variable filled, connects over HTTP', async ({ launch, loupe, page, servers }) => {
    const http = await servers.everything('streamableHttp');
    const app = await launch([]);
    await loupe.open(app.url);
    const dialog = await openDialog(page);
    await dialog.getByLabel('server.json file').setInputFiles(join(ENTRIES, 'everything-remote.server.json'));
    await expect(dialog.getByRole('region', { name: 'Schema check' })).toContainText('Valid');
    await dialog.getByRole('textbox', { name: 'port (URL variable)' }).fill(String(http.port));
    await dialog.getByRole('button', { name: 'Add and connect', exact: true }).click();
    await loupe.waitForStatus('Connected');
    const compared = dialog.getByRole('list', { name: 'Differences from the entry' });
    await expect(compared).toContainText('transport: matches ("http")');
    await expect(compared).toContainText('version: the entry says "1.0.0"');
  });
});
