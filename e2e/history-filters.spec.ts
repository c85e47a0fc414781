// The History tab's filters on real traffic (the bundled demo server, driven from the raw
// composer): each filter alone, combined, folding, and the trace surviving a page reload.
import { HistoryPage } from './pages/history-page.ts';
import { expect, test } from './support/test.ts';

async function connectedHistory(loupe: import('./pages/loupe-page.ts').LoupePage, url: string): Promise<HistoryPage> {
  await loupe.open(url);
  await loupe.waitForStatus('Connected');
  const history = new HistoryPage(loupe);
  await history.open();
  // Traffic of our own: a tool call with a needle in it, and a method the server does not know.
  await history.compose({ jsonrpc: '2.0', id: 'needle-call', method: 'tools/call', params: { name: 'echo', arguments: { message: 'needle-4711' } } });
  await expect(history.answer()).toContainText('Echo: needle-4711');
  await history.compose({ jsonrpc: '2.0', id: 'bad-call', method: 'no/such/method' });
  await expect(history.answer()).toContainText('-32601');
  return history;
}

async function everyRow(history: HistoryPage, check: (text: string) => boolean, what: string): Promise<void> {
  const texts = await history.rows().allTextContents();
  expect(texts.length, `some rows should be shown (${what})`).toBeGreaterThan(0);
  for (const text of texts) expect(check(text), `row "${text}" should be ${what}`).toBe(true);
}

test.describe('History filters', () => {
  test('text, kind, method, direction, errors only: each alone and combined', async ({ launch, loupe }) => {
    const app = await launch();
    const history = await connectedHistory(loupe, app.url);
    const total = await history.total();
    expect(total).toBeGreaterThanOrEqual(8);

    // Text anywhere in the raw JSON, case-insensitively: the request and its response.
    await history.search().fill('NEEDLE-4711');
    await history.expectShown(2);
    await everyRow(history, (t) => t.includes('tools/call') && t.includes('"needle-call"'), 'the needle call');
    // Combined with a direction: only the response.
    await history.direction().selectOption('in');
    await history.expectShown(1);
    await everyRow(history, (t) => t.includes('← in') && t.includes('response'), 'an incoming response');
    await history.clearFilters();
    await history.expectShown(total, new RegExp(`${total}|[\\d,]+`));

    // Kind: only errors (the unknown method's answer).
    await history.kind('error').click();
    await expect(history.kind('error')).toHaveAttribute('aria-pressed', 'true');
    await everyRow(history, (t) => t.includes('error'), 'an error');
    await expect(history.row('no/such/method')).toHaveCount(1);
    // A second kind widens the choice.
    await history.kind('request').click();
    await everyRow(history, (t) => t.includes('error') || t.includes('request'), 'an error or a request');
    await history.clearFilters();

    // Method: picked from the methods seen; a response counts for its request's method.
    await history.method().selectOption('tools/call');
    await everyRow(history, (t) => t.includes('tools/call'), 'a tools/call frame');
    await expect(history.rows()).toHaveCount(2);
    await history.clearFilters();

    // Direction alone.
    await history.direction().selectOption('out');
    await everyRow(history, (t) => t.includes('→ out'), 'outgoing');
    await history.direction().selectOption('in');
    await everyRow(history, (t) => t.includes('← in') || !/→ out/.test(t), 'incoming');
    await history.clearFilters();

    // Errors only: the error response (and nothing that went well).
    await history.errorsOnly().check();
    await everyRow(history, (t) => t.includes('error'), 'an error');
    // Combined with a method that has no errors: nothing.
    await history.method().selectOption('tools/call');
    await history.expectShown(0);
    await expect(loupe.history().getByText('No rows match the filter.')).toBeVisible();
  });

  test('folding shows a request and its response as one row; selecting shows the frame with copy buttons', async ({ launch, loupe, page }) => {
    const app = await launch();
    const history = await connectedHistory(loupe, app.url);
    await history.search().fill('needle-4711');
    await history.expectShown(2);
    await history.fold().check();
    await history.expectShown(1);
    const folded = history.row('tools/call');
    await expect(folded).toContainText('request ⇄ response');
    await expect(folded).toContainText(/\d+(\.\d+)? ?ms/);

    await folded.click();
    const detail = history.detail();
    await expect(detail.getByText('"message": "needle-4711"')).toBeVisible();
    await expect(detail.getByRole('button', { name: /^Go to response #\d+$/ })).toBeVisible();
    // Collapsible nodes.
    await detail.getByRole('button', { name: 'Collapse params' }).click();
    await expect(detail.getByText('"message": "needle-4711"')).toHaveCount(0);
    await detail.getByRole('button', { name: 'Expand params' }).click();
    await expect(detail.getByText('"message": "needle-4711"')).toBeVisible();
    // Copy buttons put the frame, the message, or its params on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await detail.getByRole('button', { name: 'Copy params' }).click();
    await expect(detail.getByText('Copied: params')).toBeVisible();
    const params = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(params).toEqual({ name: 'echo', arguments: { message: 'needle-4711' } });
    await detail.getByRole('button', { name: 'Copy frame' }).click();
    const frame = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(frame)).toMatchObject({ jsonrpc: '2.0', id: 'needle-call', method: 'tools/call' });
    expect(frame).not.toContain('\n');
    await detail.getByRole('button', { name: 'Copy as JSON-RPC' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('\n  "method": "tools/call"');

    // Following the pair: to the response.
    await detail.getByRole('button', { name: /^Go to response #\d+$/ }).click();
    await expect(detail.getByText('"text": "Echo: needle-4711"')).toBeVisible();
  });

  test('a page reload shows the same history (the proxy keeps the trace)', async ({ launch, loupe, page }) => {
    const app = await launch();
    const history = await connectedHistory(loupe, app.url);
    const before = await history.total();
    await page.reload();
    await loupe.waitForStatus('Connected');
    await history.open();
    await expect.poll(() => history.total()).toBeGreaterThanOrEqual(before);
    await history.search().fill('needle-4711');
    await history.expectShown(2);
  });
});
