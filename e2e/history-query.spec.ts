// The History's query language (issue 26, item 3), by keyboard alone in the query: focus the
// searchbox by its name, type, pick from the completion list with ArrowDown + Enter, see only the
// matching rows; a bad query says why and keeps what was typed; a saved query survives a reload
// and is applied from `Saved queries`; the export takes what the filter shows; the workspace file
// keeps the query under `x-mcp-loupe.queries`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryPage } from './pages/history-page.ts';
import { WorkspaceFilePage } from './pages/workspace-file-page.ts';
import { seriousAxeFindings, expectNoSeriousAxeFindings } from './support/axe.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const QUERY = 'method:tools/call -status:error';

test.describe('History query', () => {
  test('typed and completed by keyboard, a bad query explained, saved, reloaded, applied and exported', async ({ launch, loupe, page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-query-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(config, `${JSON.stringify({ mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } } }, null, 2)}\n`);
    const app = await launch(['--config', config]);
    await loupe.open(app.url);
    const w = new WorkspaceFilePage(page);
    await w.servers.waitForServer('everything', 'Connected', 30_000);
    const history = new HistoryPage(loupe);
    await history.open();
    // Traffic: a call that works, and one the server refuses (an unknown tool).
    await history.compose({ jsonrpc: '2.0', id: 'q-ok', method: 'tools/call', params: { name: 'echo', arguments: { message: 'query-ok' } } });
    await expect(history.answer()).toContainText('Echo: query-ok');
    await history.compose({ jsonrpc: '2.0', id: 'q-bad', method: 'tools/call', params: { name: 'no-such-tool', arguments: {} } });
    await expect(history.answer()).toContainText(/no-such-tool|not found|Unknown/i);
    const total = await history.total();

    // Keyboard: focus by name, type `meth`, take `method:` from the list with ArrowDown + Enter.
    const search = page.getByRole('searchbox', { name: 'Filter history' });
    await search.focus();
    await page.keyboard.type('meth');
    const list = page.getByRole('listbox', { name: 'Query completions' });
    await expect(list.getByRole('option')).toHaveText([/^method:/]);
    expect(await seriousAxeFindings(page), 'the completion list open').toEqual([]);
    await page.keyboard.press('ArrowDown');
    await expect(search).toHaveAttribute('aria-activedescendant', (await list.getByRole('option').first().getAttribute('id')) ?? 'none');
    await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(search).toHaveValue('method:');
    // The values present come next: the methods of this trace.
    await expect(list.getByRole('option', { name: /^method:tools\/call/ })).toBeVisible();
    await page.keyboard.type('tools/call -status:error');
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(search).toHaveValue(QUERY);
    await history.expectShown(2, total);
    for (const text of await history.rows().allTextContents()) {
      expect(text).toContain('tools/call');
      expect(text).toContain('"q-ok"');
    }

    // A bad query: the sentence under the box names the field; what was typed stays.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('colour:red');
    await expect(search).toHaveValue('colour:red');
    await expect(search).toHaveAttribute('aria-invalid', 'true');
    await expect(search).toHaveAccessibleDescription(/^Unknown field "colour" at character 1: the fields are method, status, duration, server, dir, size, kind, tool, id, text\./);
    await expectNoSeriousAxeFindings(page, 'History with a bad query');
    await search.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(QUERY);
    await page.keyboard.press('Escape');
    await expect(search).not.toHaveAttribute('aria-invalid', 'true');
    await history.expectShown(2, total);

    // Save it under a name, by keyboard.
    await page.getByRole('button', { name: 'Save query', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('textbox', { name: 'Query name' })).toBeFocused();
    await page.keyboard.type('ok calls');
    await page.keyboard.press('Enter');
    const saved = page.getByRole('combobox', { name: 'Saved queries' });
    await expect(saved).toHaveValue('ok calls');

    // Reload: the filter starts empty; the saved query is the workspace's, applied from the list.
    await page.reload();
    await w.servers.waitForServer('everything', 'Connected', 30_000);
    await history.open();
    await expect(search).toHaveValue('');
    await saved.focus();
    await page.keyboard.press('ArrowDown');
    await expect(search).toHaveValue(QUERY);
    // (The page's own frames since the reload add to the total.)
    await history.expectShown(2);

    // Export what the filter shows: the header says the query, the file holds the two frames.
    await history.button('Export…').click();
    const form = page.getByRole('region', { name: 'Export trace' });
    const shown = form.getByRole('radio', { name: /^The rows the filter shows \(2\)/ });
    await shown.check();
    await expect(shown).toHaveAccessibleDescription(`Only what the filter shows: ${QUERY}`);
    const [file] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download JSONL' }).click()]);
    const [header, ...events] = (await readFile(await file.path(), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(header).toMatchObject({ filter: { query: QUERY }, stats: { exported: 2 } });
    expect(events.map((e) => [e.dir, e.kind])).toEqual([['out', 'frame'], ['in', 'frame']]);
    expect(events.map((e) => JSON.parse(e.raw as string).id)).toEqual(['q-ok', 'q-ok']);

    // The workspace file keeps the saved query under Loupe's own key.
    await w.save();
    await w.expectSaved(config);
    expect(JSON.parse(readFileSync(config, 'utf8'))['x-mcp-loupe'].queries).toEqual([{ name: 'ok calls', query: QUERY }]);
  });

  test('two queries saved at once are both kept: the second builds on the first, not on the list still shown', async ({ launch, loupe, page }) => {
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    await page.getByRole('searchbox', { name: 'Filter history' }).fill('method:tools/list');
    await expect(page.getByRole('button', { name: 'Save query', exact: true })).toBeEnabled();
    // Both saved in one task of the page (React renders in microtasks between the steps), so no
    // message from the proxy can come between them: the first is not shown back yet.
    await page.evaluate(async () => {
      const rendered = async () => {
        for (let i = 0; i < 5; i++) await null;
      };
      const save = async (name: string) => {
        [...document.querySelectorAll('button')].find((b) => b.textContent === 'Save query')!.click();
        await rendered();
        const input = document.querySelector<HTMLInputElement>('input[aria-label="Query name"]')!;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, name);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await rendered();
        input.form!.requestSubmit();
        await rendered();
      };
      await save('first');
      await save('second');
    });
    await expect(page.getByRole('combobox', { name: 'Saved queries' }).getByRole('option')).toHaveText(['Saved queries…', 'first', 'second']);
  });
});
