// The server author's inner loop (issue 25): Loupe watches a server's source; saving it restarts
// the server, marks the History, says what changed in its surface, keeps what was typed where the
// new schema allows it, and fails the call in flight with a sentence. Restart in the page does the
// same on demand.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/test.ts';
import { ready } from './pages/primitives.ts';
import { writeWatchServer, WATCH_TOOLS_V2 } from './fixtures/watch-server.mjs';

const RESTART_MS = 20_000;
let dir: string;
let file: string;

test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-watch-e2e-'));
  file = join(dir, 'server.mjs');
  writeWatchServer(file);
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

test.describe('--watch', () => {
  test('a save restarts the server: a line across the History, what changed, and the form keeps what was typed', async ({ launch, loupe, page }) => {
    const app = await launch(['--watch', 'node', file]);
    await expect.poll(() => app.output()).toContain('a change restarts the server');
    await ready(loupe, app.url, 'echo');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'kept across the restart');

    // A call in flight when the file changes fails saying why.
    await loupe.selectTool('slow');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('running', { timeout: 5_000 });
    writeWatchServer(file, { version: '1.1.0', tools: WATCH_TOOLS_V2 });
    await expect(loupe.result()).toContainText('The server was restarted (server.mjs changed) before it answered.', { timeout: RESTART_MS });

    // The lists come again from the new process: one tool added.
    await expect(loupe.toolButton('add')).toBeVisible({ timeout: RESTART_MS });
    const changes = page.getByRole('region', { name: 'What changed' });
    await expect(changes).toContainText('restart (server.mjs changed)');
    await expect(changes).toContainText('1 added, 0 removed, 1 changed (1 breaking)');
    await expect(changes.getByRole('listitem').filter({ hasText: 'tool added:' })).toContainText('add');
    const echo = changes.getByRole('listitem').filter({ hasText: 'tool changed:' }).first();
    await expect(echo).toContainText('echo');
    await expect(echo).toContainText('required input property "prefix" added');
    await expect(echo).toContainText('breaking');

    // The echo form is drawn from the new schema (a prefix field) and keeps the message typed before.
    await loupe.selectTool('echo');
    await expect(loupe.field('prefix')).toBeVisible();
    await expect(loupe.field('message')).toHaveValue('kept across the restart');
    await loupe.fillField('prefix', '>>');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('kept across the restart');

    // The same session goes on in the History, with the restart as a line across it.
    await loupe.openTab('History');
    await loupe.filterHistory('Restarted');
    const marker = page.locator('[data-marker="restart"]');
    await expect(marker).toHaveCount(1);
    await expect(marker).toContainText('Restarted: server.mjs changed');
    await expect.poll(() => app.output()).toContain('server.mjs changed: restarting the server');
  });

  test('Restart in the page restarts it too, and From / To compare any two points', async ({ launch, loupe, page }) => {
    const app = await launch(['--watch', 'node', file]);
    await ready(loupe, app.url, 'echo');
    writeWatchServer(file, { version: '1.1.0', tools: WATCH_TOOLS_V2 });
    await expect(loupe.toolButton('add')).toBeVisible({ timeout: RESTART_MS });
    await page.getByRole('button', { name: /^Restart\b/ }).first().click();
    const changes = page.getByRole('region', { name: 'What changed' });
    await expect(changes).toContainText('restart (Restart in the page)', { timeout: RESTART_MS });
    await expect(changes).toContainText('nothing added, removed or changed');
    // Compare the first connect with the last: the change of the save shows again.
    await changes.getByLabel('From').selectOption({ index: 0 });
    await expect(changes).toContainText('1 added, 0 removed, 1 changed (1 breaking)');
    await loupe.openTab('History');
    await loupe.filterHistory('Restarted');
    await expect(page.locator('[data-marker="restart"]')).toHaveCount(2);
  });
});
