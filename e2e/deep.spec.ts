// Deep JSON (issue 8): a tool result nested 20,000 levels deep and a raw-composer request nested
// 9,000 deep, which used to take the whole proxy down (JSON.stringify's stack). The page shows
// them collapsed, opens one level per click, and the session goes on.
import { HistoryPage } from './pages/history-page.ts';
import { ready, runAndWait } from './pages/primitives.ts';
import { expect, test } from './support/test.ts';

const HOSTILE_FRAMES = ['node', 'e2e/fixtures/hostile-frames.mjs'];
const NOTE = 'Nested deeper than 100 levels; shown collapsed.';
const deepText = (depth: number) => '{"a":'.repeat(depth) + '"bottom"' + '}'.repeat(depth);

test.describe('deep JSON', () => {
  test('a result nested 20,000 deep shows collapsed, opens a level per click, and the proxy lives on', async ({ launch, loupe, page }) => {
    const app = await launch(HOSTILE_FRAMES);
    await ready(loupe, app.url, 'deep');
    await loupe.selectTool('deep');
    await runAndWait(loupe);
    const result = loupe.result();
    await expect(result.getByText(NOTE).first()).toBeVisible();
    const tree = result.getByRole('list', { name: 'structuredContent tree' });
    // Two levels open at first, the third closed; a click opens exactly one more.
    await expect(tree.locator('button[aria-expanded="true"]')).toHaveCount(2);
    await expect(tree.locator('button[aria-expanded="false"]')).toHaveCount(1);
    await tree.locator('button[aria-expanded="false"]').click();
    await expect(tree.locator('button[aria-expanded="true"]')).toHaveCount(3);
    await expect(tree.locator('button[aria-expanded="false"]')).toHaveCount(1);
    // The text block holding 20,000-deep JSON is shown as its text.
    await expect(result.getByText(/^\{"a":\{"a":\{"a":/).first()).toBeVisible();

    // The History row exists and its frame shows collapsed too.
    await loupe.openTab('History');
    const history = new HistoryPage(loupe);
    const rows = history.row('tools/call');
    await expect(rows.first()).toBeVisible();
    await rows.last().click();
    await expect(history.detail().getByText(NOTE).first()).toBeVisible();

    // The proxy is alive: another call works.
    await loupe.openTab('Tools');
    await loupe.selectTool('echo');
    await loupe.fillField('text', 'still here');
    await runAndWait(loupe);
    await expect(loupe.result()).toContainText('echo: still here');
    await expect(page.getByText(/could not handle/i)).toHaveCount(0);
  });

  test('the raw composer sends a request nested 9,000 deep and shows the answer; the session goes on', async ({ launch, loupe }) => {
    const app = await launch(HOSTILE_FRAMES);
    await ready(loupe, app.url, 'deep');
    const history = new HistoryPage(loupe);
    await history.open();
    await history.compose(`{"jsonrpc":"2.0","id":"deep-composer","method":"tools/call","params":{"name":"echo","arguments":{"text":"deep composer"},"deep":${deepText(9_000)}}}`);
    await expect(history.answer()).toContainText('echo: deep composer', { timeout: 30_000 });
    await expect(history.row('"deep-composer"').filter({ hasText: 'composed' })).toHaveCount(1);
    await history.ping();
    await expect(history.pingResult()).toContainText(/^pong in [\d.]+ ms$/);
  });
});
