// Room to work (issue 26, item 4): one row of tabs at 1,024 and 1,440 px, the connection folded to a
// line once connected, a side column that hides, list and detail panes resized by keyboard and kept
// across a reload, and a page that still fits an 800 px window. Against the bundled server-everything.
// The screenshots (room-1024.png, room-1440.png) are kept with the test's results.
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
];

function mainTabs(page: Page) {
  return page.getByRole('tablist', { name: 'Main', exact: true }).getByRole('tab');
}

/** The top offset of every main tab: one row means one offset (±2 px). */
async function expectOneRow(page: Page): Promise<void> {
  const tops = await mainTabs(page).evaluateAll((tabs) => tabs.map((t) => t.getBoundingClientRect().top));
  expect(tops.length, 'the main tabs').toBeGreaterThanOrEqual(10);
  expect(Math.max(...tops) - Math.min(...tops), `tab tops ${tops.join(', ')}`).toBeLessThanOrEqual(2);
}

async function expectNoPageScroll(page: Page): Promise<void> {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(scroll, 'the page does not scroll sideways').toBeLessThanOrEqual(inner);
}

test.describe('room: tabs, the folded connection, the side column, resizable panes', () => {
  for (const size of SIZES) {
    test(`at ${size.width} × ${size.height}: one row of tabs and the connection folded to one line`, async ({ launch, loupe, page }, testInfo) => {
      await page.setViewportSize(size);
      const app = await launch();
      await loupe.open(app.url);
      await loupe.waitForStatus('Connected');
      await expect(loupe.tab('Tools')).toHaveAttribute('aria-selected', 'true');
      await loupe.selectTool('echo');
      await expect(page.getByRole('button', { name: 'Run tool', exact: true })).toBeVisible();

      // Folded: status, server, transport, Edit and Disconnect; the form's fields are not shown.
      const connection = page.getByRole('region', { name: 'Connection', exact: true });
      await expect(loupe.status()).toContainText('Connected');
      await expect(loupe.status()).toContainText('stdio');
      await expect(loupe.editConnectionButton()).toBeVisible();
      await expect(loupe.disconnectButton()).toBeVisible();
      await expect(loupe.command()).toHaveCount(0);
      await expect(loupe.connectButton()).toHaveCount(0);
      const summary = await loupe.editConnectionButton().boundingBox();
      const status = await loupe.status().boundingBox();
      expect(Math.abs((summary?.y ?? 0) + (summary?.height ?? 0) / 2 - ((status?.y ?? 0) + (status?.height ?? 0) / 2)), 'status and Edit on one line').toBeLessThanOrEqual(4);
      await expect(connection).toBeVisible();

      await expectOneRow(page);
      await expectNoPageScroll(page);
      const shot = testInfo.outputPath(`room-${size.width}.png`);
      await page.screenshot({ path: shot });
      await testInfo.attach(`room-${size.width}`, { path: shot, contentType: 'image/png' });
      // The same in the dark theme.
      await page.getByRole('button', { name: /(Dark|Light) theme/ }).click();
      await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      const dark = testInfo.outputPath(`room-${size.width}-dark.png`);
      await page.screenshot({ path: dark });
      await testInfo.attach(`room-${size.width}-dark`, { path: dark, contentType: 'image/png' });

      // Every tab is reachable by its name, wherever the row has put it.
      for (const name of ['Playground', 'Doctor', 'History'] as const) {
        await page.getByRole('tab', { name, exact: true }).click();
        await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
        await expectOneRow(page);
      }
    });
  }

  test('Edit opens the form, Fold closes it, Disconnect unfolds it, a new connect folds it again', async ({ launch, loupe, page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.editConnectionButton().click();
    await expect(loupe.command()).toBeVisible();
    await expect(loupe.transport()).toBeFocused();
    await expect(loupe.connectButton()).toBeVisible();
    await page.getByRole('button', { name: 'Fold connection', exact: true }).click();
    await expect(loupe.command()).toHaveCount(0);
    await loupe.disconnect();
    await loupe.waitForStatus('Disconnected');
    await expect(loupe.command()).toBeVisible();
    await loupe.connect();
    await loupe.waitForStatus('Connected');
    await expect(loupe.editConnectionButton()).toBeVisible();
    await expect(loupe.command()).toHaveCount(0);
  });

  test('the side column hides and shows, and stays as left across a reload', async ({ launch, loupe, page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const servers = page.getByRole('region', { name: 'Servers', exact: true });
    const tablist = page.getByRole('tablist', { name: 'Main', exact: true });
    const narrow = (await tablist.boundingBox())?.width ?? 0;
    await page.getByRole('button', { name: 'Hide side column', exact: true }).click();
    await expect(servers).toBeHidden();
    // The rail still says the server's status; the main area takes the width.
    await expect(loupe.status()).toContainText('Connected');
    await expect.poll(async () => (await tablist.boundingBox())?.width ?? 0).toBeGreaterThan(narrow + 200);
    await expectOneRow(page);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Show side column', exact: true })).toBeVisible();
    await expect(servers).toBeHidden();
    await page.getByRole('button', { name: 'Show side column', exact: true }).click();
    await expect(servers).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hide side column', exact: true })).toBeVisible();
  });

  test('More lists the tabs the row cannot show and opens one', async ({ launch, loupe, page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const more = page.getByRole('button', { name: 'More tabs', exact: true });
    await more.click();
    const item = page.getByRole('menu', { name: 'More tabs' }).getByRole('menuitem', { name: 'Playground' });
    await item.click();
    await expect(page.getByRole('tab', { name: 'Playground', exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Playground', exact: true })).toBeInViewport();
    await expect(page.getByRole('menu')).toHaveCount(0);
  });

  test('a splitter moved by keyboard resizes its pane, and the size survives a reload', async ({ launch, loupe, page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const splitter = page.getByRole('separator', { name: 'Resize tool list', exact: true });
    const list = page.getByRole('heading', { name: 'Tools', exact: true }).locator('xpath=ancestor::section[1]');
    await expect(splitter).toHaveAttribute('aria-orientation', 'vertical');
    const before = Number(await splitter.getAttribute('aria-valuenow'));
    const width = (await list.boundingBox())?.width ?? 0;
    await splitter.focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 48));
    await expect.poll(async () => Math.round((await list.boundingBox())?.width ?? 0)).toBe(Math.round(width + 48));
    await page.reload();
    await loupe.waitForStatus('Connected');
    await expect(page.getByRole('separator', { name: 'Resize tool list', exact: true })).toHaveAttribute('aria-valuenow', String(before + 48));

    // The History's frame detail too (the pane after its splitter: the left arrow widens it).
    await loupe.openTab('History');
    const detail = page.getByRole('separator', { name: 'Resize frame detail', exact: true });
    const was = Number(await detail.getAttribute('aria-valuenow'));
    await detail.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(detail).toHaveAttribute('aria-valuenow', String(was + 16));
  });

  test('at 800 px wide the page does not scroll sideways, the tabs keep one row, the side column hides', async ({ launch, loupe, page }, testInfo) => {
    await page.setViewportSize({ width: 800, height: 700 });
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await expectOneRow(page);
    await expectNoPageScroll(page);
    for (const name of ['Resources', 'Prompts', 'History'] as const) {
      await loupe.openTab(name);
      await expectNoPageScroll(page);
    }
    await page.getByRole('button', { name: 'Hide side column', exact: true }).click();
    await loupe.openTab('Tools');
    await expectOneRow(page);
    await expectNoPageScroll(page);
    const shot = testInfo.outputPath('room-800.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('room-800', { path: shot, contentType: 'image/png' });
  });
});
