// The Tests tab (issue 27), in real Chromium: a collection built from History rows with Save as test
// and from a tool's Result, run green against server-everything, then the same collection run red on
// a server that changed one answer (e2e/fixtures/changed-echo.mjs) with the failed path, the
// expected and the actual value shown, and Show in History on that server's frame; a --record file
// turned into a collection. Screenshots of the tab (tests-tab.png, tests-tab-dark.png) are kept
// with the test's results, and axe finds nothing serious on the tab or the dialog.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryPage } from './pages/history-page.ts';
import { TestsPage } from './pages/tests-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';
import { WorkspaceFilePage } from './pages/workspace-file-page.ts';
import { expectNoSeriousAxeFindings, seriousAxeFindings } from './support/axe.ts';
import { EVERYTHING, FIXTURES } from './support/servers.ts';
import { expect, test } from './support/test.ts';
import { workspaceFile } from './support/workspaces.ts';

const CONNECT_MS = 30_000;

test.describe('Tests tab: collections and Save as test', () => {
  test('a collection made with Save as test runs green on server-everything, red on a changed answer, and links its frames', async ({ launch, loupe, page }, testInfo) => {
    test.setTimeout(120_000);
    const file = workspaceFile({ everything: { command: 'node', args: [EVERYTHING, 'stdio'] }, changed: { command: 'node', args: [join(FIXTURES, 'changed-echo.mjs')] } });
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    await ws.waitForServer('everything', 'Connected', CONNECT_MS);
    await ws.waitForServer('changed', 'Connected', CONNECT_MS);
    await ws.select('everything');
    const tests = new TestsPage(page);
    const history = new HistoryPage(loupe);

    // Two calls in the Tools tab; the first saved from its Result, the second from its History row.
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'hi');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: hi');
    const fromResult = await tests.saveAsTest('smoke');
    expect(fromResult).toContain('$.content[0].text equals "Echo: hi"');
    await expect(loupe.result().getByRole('status')).toContainText('Saved as echo in smoke');

    await loupe.selectTool('get-sum');
    await loupe.fillField('a', '2');
    await loupe.fillField('b', '3');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('The sum of 2 and 3 is 5.');
    await history.open();
    await history.row(/tools\/call.*get-sum/).first().click();
    await expect(history.detail()).toContainText('"get-sum"');
    const fromRow = await tests.saveAsTest('smoke', 'sum');
    expect(fromRow).toContain('$.content[0].text equals "The sum of 2 and 3 is 5."');

    // Green on the server it was made from.
    await tests.open();
    await expect(tests.call('smoke', 'echo')).toContainText('tools/call');
    await expect(tests.call('smoke', 'sum')).toContainText('{"a":2,"b":3}');
    await tests.runCollection('smoke');
    await tests.expectStatus('smoke', 'echo', 'passed');
    await tests.expectStatus('smoke', 'sum', 'passed');
    await expect(tests.summary('smoke')).toContainText('2 passed on everything');

    // The same collection on the server whose echo changed: red, with the path, expected and actual.
    // Chosen and run at once: the run takes the server just chosen, not the one still shown.
    await tests.runOnThenRunAll('smoke', 'changed');
    await tests.expectStatus('smoke', 'echo', 'failed');
    await tests.expectStatus('smoke', 'sum', 'passed');
    const failed = tests.resultRow('smoke', 'echo');
    await expect(failed).toContainText('$.content[0].text');
    await expect(failed).toContainText('expected"Echo: hi"');
    await expect(failed).toContainText('actual"Echo: hi!"');
    await expect(tests.summary('smoke')).toContainText('1 passed, 1 failed on changed');

    const shot = testInfo.outputPath('tests-tab.png');
    await page.screenshot({ path: shot, fullPage: true });
    await testInfo.attach('tests-tab', { path: shot, contentType: 'image/png' });
    await expectNoSeriousAxeFindings(page, 'Tests tab with a red run');
    const dark = testInfo.outputPath('tests-tab-dark.png');
    await page.screenshot({ path: dark, fullPage: true });
    await testInfo.attach('tests-tab-dark', { path: dark, contentType: 'image/png' });

    // Show in History: the changed server shown, its History on the echo request.
    await tests.showInHistory('smoke', 'echo');
    await expect(ws.server('changed')).toHaveAttribute('aria-current', 'true');
    await expect(loupe.tab('History')).toHaveAttribute('aria-selected', 'true');
    await expect(history.detail()).toContainText('tools/call');
    await expect(history.detail()).toContainText('"message": "hi"');
    await expect(history.detail().getByRole('button', { name: /^Go to response #\d+$/ })).toBeVisible();

    // The file keeps the collection once saved.
    const workspaceFilePage = new WorkspaceFilePage(page);
    await workspaceFilePage.save();
    await workspaceFilePage.expectSaved(file);
    await expect.poll(() => JSON.parse(readFileSync(file, 'utf8'))['x-mcp-loupe']?.collections?.[0]?.name).toBe('smoke');
    const saved = JSON.parse(readFileSync(file, 'utf8'))['x-mcp-loupe'].collections[0];
    expect(saved).toMatchObject({ name: 'smoke', server: 'changed', calls: [{ name: 'echo', kind: 'tool', target: 'echo', arguments: { message: 'hi' } }, { name: 'sum', target: 'get-sum' }] });
  });

  test('a --record file becomes a collection that runs green; the dialog and the editor are axe-clean', async ({ launch, loupe, page }) => {
    test.setTimeout(90_000);
    const record = join(mkdtempSync(join(tmpdir(), 'loupe-tests-tab-')), 'session.jsonl');
    const app = await launch(['--record', record, 'node', EVERYTHING, 'stdio']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected', CONNECT_MS);
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'recorded');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: recorded');
    await expect.poll(() => readFileSync(record, 'utf8')).toContain('Echo: recorded');

    const tests = new TestsPage(page);
    await tests.open();
    await tests.openRecording(record);
    await expect(tests.recordingNote()).toContainText('Turned session.jsonl into the collection session');
    await expect(tests.recordingNote().getByRole('list', { name: 'Notes on the recording' })).toContainText('initialize');
    await expect(tests.call('session', 'echo')).toContainText('{"message":"recorded"}');
    // Run from the command palette, anywhere: the Tests tab comes forward with the results.
    await loupe.openTab('Tools');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Run collection session');
    await page.keyboard.press('Enter');
    await expect(tests.tab()).toHaveAttribute('aria-selected', 'true');
    await tests.expectStatus('session', 'echo', 'passed');

    // The call's editor: a check changed to one that fails, saved, run red.
    await tests.call('session', 'echo').getByRole('button', { name: 'Edit call echo', exact: true }).click();
    const editor = page.getByRole('group', { name: 'Editing call echo' });
    await editor.getByRole('button', { name: 'Add assertion', exact: true }).click();
    const rows = await editor.getByRole('combobox', { name: /^Check of assertion \d+$/ }).count();
    await editor.getByRole('combobox', { name: `Check of assertion ${rows}`, exact: true }).selectOption('textContains');
    await editor.getByRole('textbox', { name: `Text of assertion ${rows}`, exact: true }).fill('never said');
    await expectNoSeriousAxeFindings(page, 'the call editor');
    await editor.getByRole('button', { name: 'Save changes', exact: true }).click();
    await expect(tests.call('session', 'echo')).toContainText('a text content contains "never said"');
    await tests.runCall('session', 'echo');
    await tests.expectStatus('session', 'echo', 'failed');
    await expect(tests.resultRow('session', 'echo')).toContainText('never said');

    // The Save as test dialog, opened from the Result, in the dark theme (left on by the check above) and the light.
    await loupe.openTab('Tools');
    for (const theme of ['dark', 'light']) {
      await tests.saveAsTestButton().click();
      await expect(tests.dialog()).toBeVisible();
      expect(await seriousAxeFindings(page), `the Save as test dialog, ${theme} theme`).toEqual([]);
      await tests.dialog().getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(tests.dialog()).toHaveCount(0);
      await page.getByRole('button', { name: /(Dark|Light) theme/ }).click();
    }
  });
});
