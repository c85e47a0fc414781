// The pending queue of server→client requests: visible from any tab with a count and an age,
// kept across a reload and in other tabs, answered with an error by Loupe when nobody answers in
// time, and never blocking other calls.
import { ClientSide } from './pages/client-side.ts';
import { LoupePage } from './pages/loupe-page.ts';
import { expect, test } from './support/test.ts';

test.describe('pending server requests', () => {
  test('survive a reload, show in another tab, and leave when answered there', async ({ launch, loupe, page, context }) => {
    const client = new ClientSide(page, loupe);
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-sampling-request', { prompt: 'still there?' });
    await client.expectPending(1);
    // Visible from every tab.
    await loupe.openTab('History');
    await expect(client.samplingRequest()).toContainText('still there?');

    await page.reload();
    await loupe.waitForStatus('Connected');
    await client.expectPending(1);
    await expect(client.samplingRequest()).toContainText('still there?');
    // The age counts from when the server asked, not from the reload.
    await expect(client.samplingRequest().getByTestId('request-age')).not.toHaveText('0 s', { timeout: 20_000 });

    const other = await context.newPage();
    const otherClient = new ClientSide(other, new LoupePage(other));
    await other.goto(app.url);
    await otherClient.expectPending(1);
    await otherClient.reply('answered from the second tab');

    await otherClient.expectPending(0);
    await client.expectPending(0);
    await expect(await client.recentlyFinished()).toContainText('answered in another tab');
    await expect(await otherClient.recentlyFinished()).toContainText(/answered after \d+ s/);
    await other.close();
  });

  test('two calls run while an elicitation waits', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-elicitation-request');
    await client.expectPending(1);

    // Two more calls while the first one waits for the user: one slow, one quick.
    await client.runTool('trigger-long-running-operation', { duration: '3', steps: '3' });
    await client.runTool('echo', { message: 'not blocked' });
    await expect(loupe.result()).toContainText('Echo: not blocked');
    await loupe.selectTool('trigger-long-running-operation');
    await expect(loupe.result()).toContainText(/Long running operation completed/i, { timeout: 30_000 });
    await client.expectPending(1);

    await client.elicitationRequest().getByRole('button', { name: 'Decline' }).click();
    await client.expectPending(0);
    await loupe.selectTool('trigger-elicitation-request');
    await expect(loupe.result()).toContainText('User declined to provide the requested information.');
  });

  test('nobody answers in time: Loupe answers with an error and says so', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.openCapabilities();
    await page.getByLabel('Answer timeout (seconds)').fill('5');
    await loupe.connect();
    await loupe.waitForStatus('Connected');
    await expect(client.declared()).toContainText('Unanswered server requests get an error after 5 s.');

    await client.runTool('trigger-sampling-request', { prompt: 'too slow' });
    await client.expectPending(1);
    await expect(client.samplingRequest()).toContainText(/Loupe answers with an error in \d s/);
    // Long enough to be seen pending on a loaded machine, short enough for a test.
    await client.expectPending(0);
    await expect(client.pending()).toContainText('nobody answered within 5 s: Loupe answered the server with an error');
    await expect(loupe.result()).toContainText('Nobody answered in Loupe within 5 s');
  });
});
