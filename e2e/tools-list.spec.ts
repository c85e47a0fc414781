// The tool list: filter and count, pagination followed to the end, a burst of list_changed
// coalesced, and listing that stops (and says why) when a server repeats a cursor or never ends.
import { expect, test } from './support/test.ts';
import { HARD, HOSTILE, ready, runAndWait } from './pages/primitives.ts';

test.describe('the tool list', () => {
  test('filter and count (server-everything)', async ({ launch, loupe, page }) => {
    const app = await launch();
    await ready(loupe, app.url, 'echo');
    const count = page.getByText(/^\d+ tools$/);
    await expect(count).toBeVisible();
    const total = Number((await count.textContent())?.split(' ')[0]);
    expect(total).toBeGreaterThan(5);
    await page.getByRole('searchbox', { name: 'Filter tools' }).fill('get-resource');
    await expect(page.getByText(new RegExp(`^2 of ${total} tools$`))).toBeVisible();
    await expect(loupe.toolButton('get-resource-links')).toBeVisible();
    await expect(loupe.toolButton('echo')).toHaveCount(0);
    // Descriptions match too.
    await page.getByRole('searchbox', { name: 'Filter tools' }).fill('long running');
    await expect(loupe.toolButton('trigger-long-running-operation')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter tools' }).fill('no such tool');
    await expect(page.getByText('No tool matches the filter.')).toBeVisible();
  });

  test('pagination is followed to the end', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'change_tools');
    await expect(page.getByText('16 tools', { exact: true })).toBeVisible();
    await expect(page.getByText('3 pages', { exact: true })).toBeVisible();
    await expect(loupe.toolButton('refs_and_recursion')).toBeVisible();
  });

  test('a re-list that moves the selected tool keeps what the user is typing', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'change_tools');
    await loupe.selectTool('change_tools');
    await loupe.fillField('Notifications', '2');
    await loupe.fillField('Delay', '1500');
    await runAndWait(loupe);
    await expect(loupe.result()).toContainText('tools/list_changed in 1500 ms');
    // Typing, not yet run: the re-list puts appeared_later first and moves change_tools down.
    await loupe.fillField('Notifications', '7');
    await expect(loupe.toolButton('appeared_later')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^2 list_changed notifications/)).toBeVisible();
    await expect(loupe.field('Notifications')).toHaveValue('7');
  });

  test('a burst of tools/list_changed is coalesced into one re-listing', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'change_tools');
    await loupe.selectTool('change_tools');
    await loupe.fillField('Notifications', '40');
    await runAndWait(loupe);
    await expect(loupe.toolButton('appeared_later')).toBeVisible();
    await expect(page.getByText(/^40 list_changed notifications, listed [23] times$/)).toBeVisible();
    // Each listing is 3 pages: the initial one and at most two more.
    await loupe.openTab('History');
    const requests = loupe.history().locator('[role=row], tr').filter({ hasText: 'tools/list' }).filter({ hasNotText: 'list_changed' });
    await expect.poll(() => requests.count()).toBeGreaterThanOrEqual(6);
    expect(await requests.count()).toBeLessThanOrEqual(18);
  });

  test('a repeated cursor and a list that never ends stop, and say so', async ({ launch, loupe, page }) => {
    const app = await launch(HOSTILE);
    await ready(loupe, app.url, 'dup');
    await loupe.openTab('Resources');
    await expect(page.getByText('Stopped: the server sent cursor "again" twice')).toBeVisible();
    await expect(page.getByText('Stopped after 50 pages; the server still had a nextCursor')).toBeVisible();
  });
});
