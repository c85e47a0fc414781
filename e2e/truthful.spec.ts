// What the page says is true, and found where the eye is (issue 26, item 5): the History names the
// tool, prompt or URI of a call and its columns are not cut at 1,024 and 1,440 px; a frame the
// filter hides is not shown as if it were; skip links and focus; the OAuth tab of a stdio server.
// Screenshots (history-1024.png, history-1440.png) are kept with the test's results.
import type { Locator, Page } from '@playwright/test';
import { ClientSide } from './pages/client-side.ts';
import { HistoryPage } from './pages/history-page.ts';
import { expect, test } from './support/test.ts';

/** The cells whose text overflows its box (cut by `truncate`), as `column: text`. */
async function cutCells(rows: Locator, columns: readonly number[]): Promise<string[]> {
  return rows.evaluateAll(
    (els, cols) =>
      els.flatMap((row) => {
        const cells = [...row.querySelectorAll('[role=cell]')] as HTMLElement[];
        return cols.flatMap((c) => {
          const cell = cells[c];
          if (!cell) return [];
          if (getComputedStyle(cell).display === 'none') return [];
          // The method cell holds the method, its target and notes: the method's own text must be whole.
          const box = c === 4 ? cell.querySelector<HTMLElement>('[data-method]') : cell;
          if (!box) return [];
          return box.scrollWidth > box.clientWidth + 1 ? [`${c}: ${cell.textContent ?? ''}`] : [];
        });
      }),
    columns,
  );
}

async function traffic(history: HistoryPage): Promise<void> {
  await history.compose({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 'echo', arguments: { message: 'hello' } } });
  await expect(history.answer()).toContainText('Echo: hello');
  await history.compose({ jsonrpc: '2.0', id: 'prompt-1', method: 'prompts/get', params: { name: 'simple-prompt' } });
  await expect(history.answer()).toContainText('messages');
  await history.compose({ jsonrpc: '2.0', id: 'read-1', method: 'resources/read', params: { uri: 'demo://resource/static/document/architecture.md' } });
  await expect(history.answer()).toContainText('contents');
  await history.compose({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
  await expect(history.row('notifications/roots/list_changed')).toHaveCount(1);
}

async function showHistory(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.waitForTimeout(200);
}

test.describe('the page says what is true', () => {
  test('History rows name the tool, prompt and URI; Size, Latency and methods are whole at 1,440 and 1,024 px', async ({ launch, loupe, page }, testInfo) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    await traffic(history);

    // Beside the method, what the call is about; the response answers for its request.
    await expect(history.row(/tools\/call\s*echo/)).toHaveCount(2);
    await expect(history.row(/prompts\/get\s*simple-prompt/)).toHaveCount(2);
    await expect(history.row(/resources\/read\s*demo:\/\/resource\/static\/document\/architecture\.md/)).toHaveCount(2);

    for (const [width, height] of [[1440, 900], [1024, 700]] as const) {
      await showHistory(page, width, height);
      await page.screenshot({ path: testInfo.outputPath(`history-${width}.png`) });
      // Size (6), Latency (7) and the method (4) are never cut; a long target may be.
      expect(await cutCells(history.rows(), [4, 6, 7]), `cut cells at ${width} px`).toEqual([]);
      if (width === 1440) {
        // And in view: Latency, the last column, needs no sideways scroll.
        const table = page.getByRole('table', { name: 'Frames' });
        const overflow = await table.evaluate((el) => { const box = el.parentElement as HTMLElement; return box.scrollWidth - box.clientWidth; });
        expect(overflow, 'sideways scroll of the frames table at 1,440 px').toBeLessThanOrEqual(1);
      }
    }
  });

  test('the frame detail says when the filter hides the selected frame', async ({ launch, loupe }) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    await traffic(history);
    await history.row(/prompts\/get/).first().click();
    await expect(history.detail()).toContainText('simple-prompt');
    await history.search().fill('architecture.md');
    await expect(history.detail()).toContainText(/Frame #\d+ is hidden by the filter/);
    await history.search().fill('');
    await expect(history.detail()).toContainText('simple-prompt');
    await expect(history.detail()).not.toContainText('hidden by the filter');
  });

  test('choosing a tool with Enter puts the focus in its first field; a refused form focuses its first invalid field', async ({ launch, loupe, page }) => {
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');
    await loupe.openTab('Tools');
    await loupe.toolButton('echo').focus();
    await page.keyboard.press('Enter');
    await expect(loupe.field('message')).toBeFocused();
    // Typed straight away: the keyboard never went back to the list.
    await page.keyboard.type('from the keyboard');
    await expect(loupe.field('message')).toHaveValue('from the keyboard');

    // A required field left empty: Run tool is refused and the focus is on that field, in view.
    await loupe.field('message').fill('');
    await loupe.runButton().click();
    await expect(page.getByRole('alert', { name: 'Arguments do not match the schema' })).toBeVisible();
    await expect(loupe.field('message')).toBeFocused();
    await expect(loupe.field('message')).toBeInViewport();
  });

  test('a refused elicitation focuses its first invalid field, in view', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');
    await client.runTool('trigger-elicitation-request');
    const form = client.elicitationRequest();
    await form.getByLabel(/^String with email format/).fill('not an email');
    await form.getByRole('button', { name: 'Accept' }).click();
    await expect(form).toContainText(/email/i);
    const focused = page.locator(':focus');
    await expect(focused).toHaveAttribute('id', /^root_/);
    await expect(focused).toBeInViewport();
    expect(await form.evaluate((el) => el.contains(document.activeElement)), 'the focus is in the elicitation form').toBe(true);
  });

  // Pending the mount in app/_containers/loupe-app.tsx (the layout engineer's file): `<SkipLinks />` first in Shell.
  test('the first Tab stop is Skip to tools, shown on focus; it reaches echo', async ({ launch, loupe, page }) => {
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to tools', exact: true });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(loupe.toolButton('echo')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content', exact: true })).toHaveCount(1);
  });

  // Pending the tab list in app/_containers/loupe-app.tsx: the OAuth tab shown for stdio servers too.
  test('the OAuth tab of a stdio server says why there is nothing to sign in to', async ({ launch, loupe, page }) => {
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');
    await page.getByRole('tablist', { name: 'Main' }).getByRole('tab', { name: 'OAuth', exact: true }).click();
    await expect(page.getByRole('region', { name: 'OAuth', exact: true })).toHaveText(/OAuth applies to remote \(HTTP\) servers; this one runs over stdio\./);
  });
});
