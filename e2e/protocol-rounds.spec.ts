// 2026-07-28 sessions from the page's side (issue 12): input requests embedded in a call's
// `input_required` result answered through the pending queue (elicitation, sampling), the History
// folding the rounds of one call into one group row, list cache hints honoured by Refresh, and a
// tools/call the server turns into a task (the tasks extension) followed to its result.
import { join } from 'node:path';
import { ClientSide } from './pages/client-side.ts';
import { HistoryPage } from './pages/history-page.ts';
import { freePort, spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { FIXTURES } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const MODERN = ['--protocol', '2026-07-28', 'node', 'e2e/fixtures/modern-server.mjs', '--stdio'];

test.describe('2026-07-28 rounds, cache hints and tasks in the page', () => {
  const running: Proc[] = [];
  test.afterEach(async () => {
    await Promise.all(running.splice(0).map((proc) => stopProc(proc, 'SIGTERM', 3_000)));
  });

  test('an elicitation asked inside a result is answered in the pending queue, and History folds the rounds', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch(MODERN)).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('confirm-delete', { path: '/tmp/old-notes.txt' });
    await client.expectPending(1);
    const request = client.elicitationRequest();
    await expect(request).toContainText('Asked inside the result of tools/call confirm-delete (round 1, key confirm)');
    await request.getByLabel(/^Delete it/).check();
    await request.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(loupe.result()).toContainText('Deleted /tmp/old-notes.txt');
    await client.expectPending(0);

    const history = new HistoryPage(loupe);
    await history.open();
    const group = history.row('tools/call confirm-delete');
    await expect(group).toHaveCount(1);
    await expect(group).toContainText('2 rounds · input_required → complete');
    // Folded: the input_required result and the re-sent request are inside the group row.
    await expect(history.row('round 1 result: input_required')).toHaveCount(0);
    await expect(history.row('round 2')).toHaveCount(0);

    await group.getByRole('button', { name: 'Show rounds', exact: true }).click();
    const asked = history.row('round 1 result: input_required');
    const resent = history.row(/round 2(?! result)/);
    await expect(asked).toHaveCount(1);
    await expect(resent).toHaveCount(1);
    await expect(resent).toContainText('tools/call');
    await expect(history.row('round 2 result: complete')).toHaveCount(1);
    // The input_required result comes before the re-sent request, each a frame of its own.
    const seqOf = async (row: typeof asked) => Number((await row.getByRole('button', { name: /^Show frame \d+$/ }).textContent()) ?? 'NaN');
    expect(await seqOf(asked)).toBeLessThan(await seqOf(resent));
    await resent.click();
    await expect(history.detail()).toContainText('"inputResponses"');

    // Filters still work on the frames inside the group.
    await history.search().fill('Deleted /tmp/old-notes.txt');
    await expect(history.row('round 2 result: complete')).toHaveCount(1);
    await history.search().fill('');
    await group.getByRole('button', { name: 'Hide rounds', exact: true }).click();
    await expect(history.row('round 2')).toHaveCount(0);
  });

  test('a sampling request asked inside a result is answered with the sampling reply', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch(MODERN)).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('ask-model', { question: 'What is six times seven?' });
    await client.expectPending(1);
    const request = client.samplingRequest();
    await expect(request).toContainText('Asked inside the result of tools/call ask-model (round 1, key answer)');
    await expect(request).toContainText('What is six times seven?');
    await client.reply('Forty-two', 'hand-model');
    await expect(loupe.result()).toContainText('The model said: Forty-two');
    await client.expectPending(0);

    const history = new HistoryPage(loupe);
    await history.open();
    await expect(history.row('tools/call ask-model')).toContainText('2 rounds · input_required → complete');
  });

  test('list cache hints are shown, Refresh serves the list within them, Fetch again asks anyway', async ({ launch, loupe, page }) => {
    await loupe.open((await launch(MODERN)).url);
    await loupe.waitForStatus('Connected');
    await loupe.openTab('Prompts');
    // The one shown (the Tools tab, kept mounted while hidden, has its own hint).
    const hint = page.getByText('Fresh for 30 s (public cache hint)', { exact: true }).filter({ visible: true });
    await expect(hint).toBeVisible();
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const served = page.getByRole('status').filter({ hasText: 'Served from cache' });
    await expect(served).toHaveText(/^Served from cache: the server said this list stays fresh for 30 s; \d+ s left/);

    const history = new HistoryPage(loupe);
    const listings = async () => {
      await history.open();
      await history.search().fill('prompts/list');
      await history.kind('request').click();
      await expect(history.shownCount()).toHaveText(/ of /);
      const count = await history.rows().count();
      await history.clearFilters();
      await loupe.openTab('Prompts');
      return count;
    };
    expect(await listings(), 'Refresh within the hint sends no prompts/list').toBe(1);
    await page.getByRole('button', { name: 'Fetch again', exact: true }).click();
    await expect(served).toHaveCount(0);
    await expect(hint).toBeVisible();
    expect(await listings(), 'Fetch again lists again').toBe(2);

    await loupe.openTab('Resources');
    await expect(page.getByText('Fresh for 30 s (public cache hint)', { exact: true }).filter({ visible: true }).first()).toBeVisible();
  });

  test('a tools/call the server makes a task is followed with tasks/get to its result', async ({ launch, loupe, page }) => {
    const port = await freePort();
    const proc = spawnProc(process.execPath, [join(FIXTURES, 'modern-raw.mjs'), '--port', String(port)]);
    running.push(proc);
    const [, url] = await waitForOutput(proc, proc.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 15_000, 'modern-raw');
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch(['--protocol', '2026-07-28', url])).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('long-job', { seconds: '1' });
    const run = client.taskRun();
    await expect(run.getByText('working', { exact: true })).toBeVisible();
    await expect(run).toContainText('The server answered with a task: Loupe polls tasks/get until it ends.');
    await expect(run.getByText('completed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(run.getByRole('region', { name: 'Task result' })).toContainText('Job done');
    // The tool's own Result shows what the task carried once it ended, not the task handle.
    await expect(loupe.result()).toContainText('Job done');

    await client.openTasksTab();
    const task = client.tasks().getByRole('region', { name: /^Task / }).first();
    await expect(task).toContainText('long-job');
    await expect(task.getByText('completed', { exact: true })).toBeVisible();
    await expect(task.getByRole('region', { name: 'Task result' })).toContainText('Job done');

    await loupe.openTab('History');
    await expect(loupe.historyRows('tasks/get').first()).toBeVisible();
    await expect(loupe.historyRows('tasks/result')).toHaveCount(0);
  });
});
