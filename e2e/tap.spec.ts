// `mcp-loupe --tap --attach` (issue 13): a host's session, relayed by a tap, shows in a running
// Loupe's page: in the Servers panel named by the host's clientInfo, its frames in the History.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from './support/test.ts';
import { CLI } from './support/loupe.ts';
import { ROOT } from './support/processes.ts';
import { EVERYTHING } from './support/servers.ts';
import { HistoryPage } from './pages/history-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';

test.describe('a tapped host session', () => {
  test('shows in the Servers panel under the host’s name, with its frames in the History', async ({ launch, loupe, page }) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected', 20_000);

    // The host: an SDK client that starts the tap where its config would name the server.
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--tap', '--attach', app.url, '--', process.execPath, EVERYTHING, 'stdio'], cwd: ROOT, stderr: 'pipe' });
    transport.stderr?.on('data', () => undefined);
    const host = new Client({ name: 'e2e-host', version: '2.1.0' }, { capabilities: {} });
    try {
      await host.connect(transport);
      const echoed = await host.callTool({ name: 'echo', arguments: { message: 'through the tap' } });
      expect(JSON.stringify(echoed)).toContain('Echo: through the tap');

      const servers = new WorkspacePage(page);
      await servers.waitForServer('e2e-host 2.1.0', 'Connected', 15_000);
      await servers.select('e2e-host 2.1.0');
      const history = new HistoryPage(loupe);
      await history.open();
      await expect(history.row('initialize').first()).toBeVisible();
      await expect(history.row('tools/call').first()).toBeVisible();
      // The frames' exact text is there: a filter by the echoed words keeps the call and its answer.
      await history.search().fill('through the tap');
      await expect(history.row('tools/call')).toHaveCount(2);
    } finally {
      await host.close();
    }
    // The host's session ended with its server: the page says so.
    await new WorkspacePage(page).waitForServer('e2e-host 2.1.0', 'Disconnected', 15_000);
  });
});
