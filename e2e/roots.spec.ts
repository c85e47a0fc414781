// Roots: an editable list of file:// roots; each change reaches the server as
// notifications/roots/list_changed, and the server's roots/list is answered from the list.
import { ClientSide } from './pages/client-side.ts';
import { expect, test } from './support/test.ts';

test.describe('roots', () => {
  test('edited roots reach the server, and survive a reconnect', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('get-roots-list');
    await expect(loupe.result()).toContainText('no roots are currently configured');

    await client.addRoot('/tmp/loupe-e2e/project a', 'Project A');
    await expect(client.roots()).toContainText('file:///tmp/loupe-e2e/project%20a');
    // The server asks again after list_changed; the tool shows what it last heard.
    await expect(async () => {
      await loupe.runTool();
      await expect(loupe.result()).toContainText('1. Project A', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(loupe.result()).toContainText('URI: file:///tmp/loupe-e2e/project%20a');

    await client.addRoot('file:///tmp/loupe-e2e/b', 'Project B');
    await client.roots().getByRole('button', { name: 'Remove root file:///tmp/loupe-e2e/project%20a' }).click();
    await expect(client.roots()).not.toContainText('Project A');
    // Removed at once after the add: the add is not undone.
    await expect(client.roots()).toContainText('Project B');
    await expect(async () => {
      await loupe.runTool();
      await expect(loupe.result()).toContainText('Current MCP Roots (1 total)', { timeout: 1_000 });
      await expect(loupe.result()).toContainText('1. Project B', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    await loupe.openTab('History');
    await expect(loupe.historyRows('notifications/roots/list_changed').first()).toBeVisible();
    await expect(loupe.historyRows('roots/list').first()).toBeVisible();

    // A reconnect starts a new server process: it asks for roots, and gets the edited list.
    await loupe.disconnect();
    await loupe.waitForStatus('Disconnected');
    await loupe.connect();
    await loupe.waitForStatus('Connected');
    await client.runTool('get-roots-list');
    await expect(loupe.result()).toContainText('1. Project B');
    await expect(client.roots()).toContainText('Project B');
  });

  test('a root that is not a file:// URI or path is refused or warned about', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.addRoot('relative/dir', 'Nope');
    await expect(client.roots()).toContainText('Not a URI or absolute path');
    await expect(client.roots().getByRole('list', { name: 'Root list' })).toHaveCount(0);

    await client.addRoot('https://example.com/repo', 'Remote');
    await expect(client.roots()).toContainText('The spec allows only file:// roots for now');
    await expect(client.roots().getByRole('list', { name: 'Root list' })).toContainText('https://example.com/repo');
  });
});
