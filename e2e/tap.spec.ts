// `mcp-loupe --tap --attach` (issue 13): a host's session, relayed by a tap, shows in a running
// Loupe's page: in the Servers panel named by the host's clientInfo, its frames in the History.
// The tap takes Loupe's address on its command line and the token from Loupe's state file or from
// MCP_LOUPE_TOKEN, never from argv (issue 21); each way is driven here end to end.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from './support/test.ts';
import { CLI } from './support/loupe.ts';
import { ROOT } from './support/processes.ts';
import { EVERYTHING } from './support/servers.ts';
import { HistoryPage } from './pages/history-page.ts';
import type { LoupePage } from './pages/loupe-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';

/** A runtime directory of the test's own: the state file there is this test's Loupe's, whatever else runs on the machine. */
const privateRuntime = () => mkdtempSync(join(tmpdir(), 'loupe-e2e-runtime-'));

/** The host: an SDK client that starts the tap where its config would name the server; it calls echo, and the page shows it all. */
async function tapShowsInPage(page: Page, loupe: LoupePage, attach: string, env: Record<string, string>): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--tap', '--attach', attach, '--', process.execPath, EVERYTHING, 'stdio'],
    cwd: ROOT,
    stderr: 'pipe',
    env: { ...getDefaultEnvironment(), ...env },
  });
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
}

test.describe('a tapped host session', () => {
  test('attached by port, the token from Loupe’s state file: shows under the host’s name, with its frames in the History', async ({ launch, loupe, page }) => {
    const runtime = privateRuntime();
    const app = await launch([], { env: { ...process.env, XDG_RUNTIME_DIR: runtime } });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await tapShowsInPage(page, loupe, String(app.port), { XDG_RUNTIME_DIR: runtime });
  });

  test('attached by address, the token from MCP_LOUPE_TOKEN (no state file to read): shows the same', async ({ launch, loupe, page }) => {
    const app = await launch([], { env: { ...process.env, XDG_RUNTIME_DIR: privateRuntime() } });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await tapShowsInPage(page, loupe, `${app.origin}/`, { XDG_RUNTIME_DIR: privateRuntime(), MCP_LOUPE_TOKEN: app.token });
  });
});
