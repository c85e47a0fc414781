// What Loupe declares in `initialize` is the user's choice: it is shown in the connection info,
// decides which of server-everything's conditional tools exist, and a server that asks for what was
// not declared gets a JSON-RPC error (and is marked in the trace).
import { ClientSide } from './pages/client-side.ts';
import { expect, test } from './support/test.ts';

test.describe('declared client capabilities', () => {
  test('default to everything, and follow the user\'s choice on the next connect', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');
    for (const name of ['sampling', 'sampling.tools', 'elicitation.form', 'elicitation.url', 'roots', 'roots.listChanged', 'tasks']) {
      await expect(client.declared().getByText(name, { exact: true })).toBeVisible();
    }
    await expect(loupe.toolButton('trigger-sampling-request')).toBeVisible();

    await client.openCapabilities();
    await client.capability('Sampling').uncheck();
    await expect(client.capability('Sampling with tools')).not.toBeChecked();
    await client.capability('Elicitation: form').uncheck();
    await client.capability('Elicitation: URL').uncheck();
    await client.capability('Roots').uncheck();
    await loupe.connect();
    await loupe.waitForStatus('Connected');

    await expect(client.declared().getByText('tasks', { exact: true })).toBeVisible();
    await expect(client.declared().getByText('sampling', { exact: true })).toHaveCount(0);
    await expect(client.declared().getByText('roots', { exact: true })).toHaveCount(0);
    await expect(loupe.toolButton('echo')).toBeVisible();
    for (const tool of ['trigger-sampling-request', 'trigger-elicitation-request', 'trigger-url-elicitation', 'get-roots-list']) {
      await expect(loupe.toolButton(tool), `${tool} exists only when its capability is declared`).toHaveCount(0);
    }
    await expect(client.roots()).toContainText('Loupe did not declare roots');

    // The session remembers its choice: a reload shows it in the form and the connection info.
    await page.reload();
    await loupe.waitForStatus('Connected');
    await client.openCapabilities();
    await expect(client.capability('Sampling')).not.toBeChecked();
    await expect(client.capability('Tasks')).toBeChecked();
    await expect(client.declared().getByText('sampling', { exact: true })).toHaveCount(0);
  });

  test('a request for an undeclared capability is answered with an error and marked as a server bug', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch(['node', 'e2e/fixtures/client-requests.mjs'])).url);
    await loupe.waitForStatus('Connected');

    await client.openCapabilities();
    await client.capability('Sampling').uncheck();
    await loupe.connect();
    await loupe.waitForStatus('Connected');
    await expect(client.declared().getByText('sampling', { exact: true })).toHaveCount(0);

    await client.runTool('sample-anyway');
    await expect(loupe.result()).toContainText(/client error: .*-32601/);
    await expect(client.pending()).toHaveCount(0);
    await loupe.openTab('History');
    await expect(loupe.historyRows('sampling/createMessage').filter({ hasText: /undeclared capability/i }).first()).toBeVisible();
  });
});
