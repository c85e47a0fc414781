// The Notifications tab: categories, level colours, the level selector (logging/setLevel), links
// to frames; and a flood of notifications that freezes nothing and loses nothing.
import type { Locator } from '@playwright/test';
import { HistoryPage } from './pages/history-page.ts';
import { expect, test } from './support/test.ts';

const FLOOD = ['node', 'e2e/fixtures/flood.mjs'];

function category(list: Locator, name: string): Locator {
  return list.page().getByRole('group', { name: 'Categories' }).getByRole('button', { name: new RegExp(`^${name.replace('/', '\\/')} \\(\\d+\\)$`) });
}

test.describe('Notifications', () => {
  test('by category, with levels; the level selector sends logging/setLevel; each links to its frame', async ({ launch, loupe, page }) => {
    const app = await launch(FLOOD);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    await history.compose({ jsonrpc: '2.0', id: 'each', method: 'tools/call', params: { name: 'each-kind', arguments: {}, _meta: { progressToken: 'p-1' } } });
    await expect(history.answer()).toContainText('sent one of each');

    await loupe.openTab('Notifications');
    const list = page.getByRole('list', { name: 'Notifications' });
    for (const [name, count] of [['logging', 8], ['progress', 1], ['list_changed', 1], ['resource updates', 1], ['cancellations', 1]] as const) {
      await expect(category(list, name)).toHaveText(`${name} (${count})`);
    }
    await category(list, 'logging').click();
    await expect(list.getByRole('listitem')).toHaveCount(8);
    const emergency = list.getByRole('listitem').filter({ hasText: 'a emergency message' });
    await expect(emergency).toContainText('[each-kind] a emergency message');
    // Level colours: each level has its own.
    const colour = async (level: string) => list.getByRole('listitem').filter({ hasText: `a ${level} message` }).getByText(level, { exact: true }).evaluate((el) => getComputedStyle(el.closest('span') ?? el).backgroundColor);
    const colours = new Set(await Promise.all(['debug', 'info', 'warning', 'error', 'emergency'].map(colour)));
    expect(colours.size).toBe(5);

    await category(list, 'progress').click();
    await expect(list.getByRole('listitem')).toContainText('1 / 2 (50%) halfway · token p-1');
    await category(list, 'resource updates').click();
    await expect(list.getByRole('listitem')).toContainText('file:///tmp/each-kind.txt');
    await category(list, 'cancellations').click();
    await expect(list.getByRole('listitem')).toContainText('request something-else: each-kind');

    // Logging level: sends logging/setLevel and says how it went.
    await page.getByRole('combobox', { name: 'Logging level' }).selectOption('warning');
    await expect(page.getByRole('status', { name: 'Logging level result' })).toHaveText('Level set to warning');

    // Each notification links to its frame.
    await category(list, 'list_changed').click();
    await list.getByRole('button', { name: /^Show frame \d+ in History$/ }).click();
    await expect(loupe.tab('History')).toHaveAttribute('aria-selected', 'true');
    await expect(history.detail()).toContainText('notifications/tools/list_changed');
    await expect(history.rows().and(page.locator('[aria-current="true"]'))).toContainText('notifications/tools/list_changed');
    await history.method().selectOption('logging/setLevel');
    await expect(history.row('logging/setLevel').first()).toBeVisible();
    await history.row('logging/setLevel').first().click();
    await expect(history.detail().getByText('"level": "warning"')).toBeVisible();
  });

  test('a flood of 10,000 notifications a second: the page answers, nothing is lost, what the proxy drops is counted', async ({ launch, loupe, page }) => {
    const app = await launch(['--trace-limit', '5000', ...FLOOD]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    await history.compose({ jsonrpc: '2.0', id: 'flood', method: 'tools/call', params: { name: 'flood', arguments: { count: 20_000, perSecond: 10_000 } } });
    // While it pours in, the page still does what it is asked (not timed here: bench/trace-ui.mjs measures it).
    for (const tab of ['Notifications', 'History', 'Tools', 'History'] as const) await loupe.openTab(tab);
    await history.search().fill('flood 12345 of');
    await expect(history.row('notifications/message')).toHaveCount(1);
    await history.search().fill('');
    await expect(history.answer()).toContainText('sent 20000 notifications', { timeout: 30_000 });

    await loupe.openTab('Notifications');
    await expect(category(page.getByRole('list', { name: 'Notifications' }), 'logging')).toHaveText('logging (20000)');

    // After a reload the proxy's snapshot has only what its buffer kept: the rest is counted.
    await page.reload();
    await loupe.waitForStatus('Connected');
    await history.open();
    await expect(loupe.history().locator('..').getByText(/older events were dropped: [\d,]+ by Loupe's trace buffer/)).toBeVisible();
    // The 5,000 the buffer kept (and whatever was recorded since the snapshot). The snapshot holds
    // the tail only; the rest comes with the trace-reset that answers the page's subscribe.
    await expect.poll(() => history.total()).toBeGreaterThanOrEqual(5000);
    expect(await history.total()).toBeLessThan(5050);
  });
});
