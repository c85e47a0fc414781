// The keyboard workbench (issue 26): the command palette (Ctrl+K) and the shortcuts, driven by
// keyboard alone (page.keyboard; locators only look). Every spec waits for the Connected status
// first: a key pressed before React hydrates reaches no listener.
import type { Locator, Page } from '@playwright/test';
import { HistoryPage } from './pages/history-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';
import { seriousAxeFindings } from './support/axe.ts';
import { expect, test } from './support/test.ts';
import { everythingEntry, workspaceFile } from './support/workspaces.ts';

const palette = (page: Page): Locator => page.getByRole('dialog', { name: 'Command palette' });
const command = (page: Page): Locator => palette(page).getByRole('combobox');
const activeOption = (page: Page): Locator => palette(page).locator('[role="option"][aria-selected="true"]');

/** Ctrl+K, type, Enter: what the first (best) result does. */
async function choose(page: Page, query: string, expected: RegExp): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(command(page)).toBeFocused();
  await page.keyboard.type(query);
  await expect(activeOption(page)).toContainText(expected);
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
}

/** The seq of the History's selected row. */
async function selectedSeq(page: Page): Promise<number> {
  const row = page.getByRole('table', { name: 'Frames' }).locator('[role="row"][aria-current="true"]');
  const label = await row.getByRole('button', { name: /^Show frame \d+$/ }).getAttribute('aria-label');
  return Number(label?.replace(/\D+/g, ''));
}

test.describe('keyboard workbench', () => {
  test('the palette opens a tool focused, Ctrl+Enter runs it, Ctrl+Shift+Enter runs it again, a frame opens in the History; j/k and / there', async ({ launch, loupe, page }) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(loupe.toolButton('echo')).toBeVisible();

    await page.keyboard.press('Control+k');
    await expect(palette(page)).toBeVisible();
    await expect(palette(page)).toHaveAttribute('aria-modal', 'true');
    await expect(palette(page).getByRole('group', { name: 'Actions' })).toContainText('Ctrl');
    await page.keyboard.type('echo');
    await expect(activeOption(page)).toContainText(/^echo/);
    await expect(activeOption(page).locator('mark')).toHaveText('echo');
    await page.keyboard.press('Enter');
    await expect(palette(page)).toBeHidden();
    await expect(loupe.tab('Tools')).toHaveAttribute('aria-selected', 'true');
    await expect(loupe.field('message')).toBeFocused();

    // A slash typed in the form's field is the field's (the filter's `/` is not taken there).
    await page.keyboard.type('hello / palette? [j]');
    await expect(loupe.field('message')).toHaveValue('hello / palette? [j]');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.keyboard.press('Control+Enter');
    await expect(loupe.result()).toContainText('Echo: hello / palette? [j]');
    await page.keyboard.press('Control+Shift+Enter');

    // The newest frame with the echo (its response) opens in the History, selected and focused.
    await choose(page, 'tools/call', /tools\/call/);
    await expect(loupe.tab('History')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('table', { name: 'Frames' })).toBeFocused();
    const chosen = await selectedSeq(page);
    expect(chosen).toBeGreaterThan(0);
    await page.keyboard.press('k');
    await expect.poll(() => selectedSeq(page)).toBeLessThan(chosen);
    await page.keyboard.press('j');
    await expect.poll(() => selectedSeq(page)).toBe(chosen);

    // `/` focuses the filter and is not typed into it; the re-run made a second echo.
    const history = new HistoryPage(loupe);
    await page.keyboard.press('/');
    await expect(history.search()).toBeFocused();
    await expect(history.search()).toHaveValue('');
    await page.keyboard.type('Echo: hello');
    await history.expectShown(2);
  });

  test('? lists the shortcuts and Escape gives focus back; \\ toggles the side column; the palette passes axe in both themes', async ({ launch, loupe, page }, testInfo) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');

    await choose(page, 'go to history', /Go to History/);
    await expect(loupe.tab('History')).toBeFocused();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toBeVisible();
    for (const what of ['Open the command palette', 'Run tool', 'Re-run last call', 'Next frame', 'Previous frame', 'Focus History filter', 'Next server', 'Previous server', 'Toggle side column', 'Show keyboard shortcuts']) {
      await expect(help.getByRole('row').filter({ hasText: what })).toHaveCount(1);
    }
    await page.screenshot({ path: testInfo.outputPath('shortcuts.png') });
    expect(await seriousAxeFindings(page), 'shortcuts open').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
    await expect(loupe.tab('History')).toBeFocused();

    const side = page.getByRole('complementary', { name: 'Side column' });
    await expect(side).toBeVisible();
    await page.keyboard.press('\\');
    await expect(side).toBeHidden();
    await page.keyboard.press('\\');
    await expect(side).toBeVisible();

    // The palette's Escape gives focus back too, and the palette has no serious axe finding, light or dark.
    await page.keyboard.press('Control+k');
    await expect(palette(page)).toBeVisible();
    await page.keyboard.type('e');
    await page.screenshot({ path: testInfo.outputPath('palette-light.png') });
    await page.keyboard.press('Backspace');
    expect(await seriousAxeFindings(page), 'palette open, light').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(palette(page)).toBeHidden();
    await expect(loupe.tab('History')).toBeFocused();
    await choose(page, 'dark theme', /Dark theme/);
    await expect(page.getByRole('button', { name: 'Light theme' })).toBeVisible();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('zz-nothing-qq');
    await expect(palette(page)).toContainText('Nothing matches');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('ech');
    await page.screenshot({ path: testInfo.outputPath('palette-dark.png') });
    expect(await seriousAxeFindings(page), 'palette open, dark').toEqual([]);
    await page.keyboard.press('Escape');
  });

  test('] and [ switch servers, and so does the palette\'s Switch server…', async ({ launch, loupe, page }) => {
    const file = workspaceFile({ one: everythingEntry('one'), two: everythingEntry('two') });
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    for (const name of ['one', 'two']) await ws.waitForServer(name, 'Connected', 30_000);
    await ws.select('one');
    await page.keyboard.press('Escape');

    await page.keyboard.press(']');
    await expect(ws.server('two')).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('[');
    await expect(ws.server('one')).toHaveAttribute('aria-current', 'true');

    await page.keyboard.press('Control+k');
    await page.keyboard.type('switch server');
    await expect(activeOption(page)).toContainText('Switch server');
    await page.keyboard.press('Enter');
    await expect(palette(page).getByRole('combobox', { name: 'Switch to server' })).toBeFocused();
    await page.keyboard.type('two');
    await expect(activeOption(page)).toContainText(/^two/);
    await page.keyboard.press('Enter');
    await expect(palette(page)).toBeHidden();
    await expect(ws.server('two')).toHaveAttribute('aria-current', 'true');
  });
});
