// Export the trace as JSON Lines (secrets masked), import it into a read-only view, and get the
// same frames back (README.md, "Trace files").
import { readFile, writeFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { HistoryPage } from './pages/history-page.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const SECRET = 'sk-live-e2e-0123456789';

async function download(page: Page, history: HistoryPage, scope: RegExp): Promise<{ text: string; file: Download }> {
  await history.button('Export…').click();
  const form = page.getByRole('region', { name: 'Export trace' });
  await form.getByRole('radio', { name: scope }).check();
  const [file] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download JSONL' }).click()]);
  await history.button('Export…').click();
  const path = await file.path();
  return { text: await readFile(path, 'utf8'), file };
}

const lines = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

test.describe('trace export and import', () => {
  test('export → import gives the same frames, read-only, with secrets masked', async ({ launch, loupe, page }, testInfo) => {
    const app = await launch(['-e', `API_KEY=${SECRET}`, '-e', 'REGION=eu-west', 'node', EVERYTHING, 'stdio']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    // The server prints its environment: the secret value is in a frame now.
    await history.compose({ jsonrpc: '2.0', id: 'env-1', method: 'tools/call', params: { name: 'get-env', arguments: {} } });
    await expect(history.answer()).toContainText(SECRET);

    // The form marks names that look secret; REGION stays readable.
    await history.button('Export…').click();
    const form = page.getByRole('region', { name: 'Export trace' });
    await expect(form.getByRole('checkbox', { name: 'Mask API_KEY' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Mask REGION' })).not.toBeChecked();
    await history.button('Export…').click();

    const exported = await download(page, history, /^The whole trace/);
    expect(exported.file.suggestedFilename()).toMatch(/^loupe-trace-.*\.jsonl$/);
    const [header, ...events] = lines(exported.text);
    expect(header).toMatchObject({ format: 'mcp-loupe-trace', version: 1, session: { serverInfo: { name: expect.any(String) }, config: { kind: 'stdio', env: { REGION: 'eu-west' } } } });
    expect(JSON.stringify(header)).toContain('•••• (22 chars, masked)');
    expect(exported.text, 'the secret is masked in the config and in every frame').not.toContain(SECRET);
    expect(events.length).toBeGreaterThan(5);
    for (const event of events) expect(event).toMatchObject({ seq: expect.any(Number), ts: expect.any(Number), kind: expect.any(String) });
    const call = events.find((e) => e.kind === 'frame' && e.id === 'env-1' && e.dir === 'out');
    expect(call).toMatchObject({ method: 'tools/call', meta: { partnerSeq: expect.any(Number), latencyMs: expect.any(Number) } });

    // Import it: a read-only view of the same frames.
    const file = testInfo.outputPath('trace.jsonl');
    await writeFile(file, exported.text);
    await page.getByLabel('Import trace').setInputFiles(file);
    await expect(page.getByRole('note', { name: 'Imported trace' })).toContainText(`${events.length} events`);
    await expect(page.getByRole('combobox', { name: 'Trace source' })).toHaveValue(/^import-/);
    await history.expectShown(events.length);
    await history.method().selectOption('tools/call');
    await expect(history.row('"env-1"')).toHaveCount(2);
    await history.row('"env-1"').first().click();
    await expect(history.detail().getByRole('button', { name: 'Edit and send' })).toBeDisabled();
    await expect(history.detail().getByRole('button', { name: 'Replay' })).toBeDisabled();
    await expect(history.button('Ping')).toBeDisabled();
    await expect(history.button('Send')).toBeDisabled();
    await history.clearFilters();

    // Exporting the imported view writes the same frames again.
    const again = await download(page, history, /^The whole trace/);
    expect(lines(again.text).slice(1)).toEqual(events);

    // Back to the live session.
    await page.getByRole('combobox', { name: 'Trace source' }).selectOption('live');
    await expect(page.getByRole('note', { name: 'Imported trace' })).toHaveCount(0);
    await expect(history.button('Ping')).toBeEnabled();
  });

  test('export only what the filter shows; a file that is not a trace is refused', async ({ launch, loupe, page }, testInfo) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    await history.ping();
    await expect(history.pingResult()).toContainText('pong');
    await history.method().selectOption('ping');
    await history.expectShown(2);
    const { text } = await download(page, history, /^The rows the filter shows \(2\)/);
    const [header, ...events] = lines(text);
    expect(header).toMatchObject({ filter: { methods: ['ping'] }, stats: { exported: 2 } });
    expect(events.map((e) => [e.dir, e.kind])).toEqual([['out', 'frame'], ['in', 'frame']]);

    const bad = testInfo.outputPath('not-a-trace.jsonl');
    await writeFile(bad, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    await page.getByLabel('Import trace').setInputFiles(bad);
    await expect(loupe.history().locator('..').getByText(/Could not import not-a-trace\.jsonl: The first line is not a Loupe trace header/)).toBeVisible();
  });
});
