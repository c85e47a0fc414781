// Several servers at once (issue 9): `--config` with no `--server` starts every server of the file;
// the Servers region lists them with their status; each server's tabs are its own, and switching
// keeps what was typed; servers are added, restarted and removed from the page, and a second tab
// sees the same set.
import { WorkspacePage } from './pages/workspace-page.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';
import { memoryEntry, threeServers, workspaceFile } from './support/workspaces.ts';

const CONNECT_MS = 30_000;

test.describe('workspace: several servers', () => {
  test('three servers from one file connect; each answers its own calls; switching keeps the tool and the typed arguments', async ({ launch, loupe, page, servers }) => {
    const http = await servers.everything('streamableHttp');
    const file = threeServers(http.base);
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    for (const name of ['everything-stdio', 'memory', 'everything-http']) await ws.waitForServer(name, 'Connected', CONNECT_MS);
    await expect(ws.server('everything-stdio')).toHaveAccessibleName(/· stdio ·/);
    await expect(ws.server('everything-http')).toHaveAccessibleName(/· http ·/);

    // The stdio server is the one with our env: its get-env says so.
    await ws.select('everything-stdio');
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('get-env');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('the-stdio-everything');

    // Type on the HTTP server without running, go elsewhere, come back: the tool and the text are kept.
    await ws.select('everything-http');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'typed on the http server');

    await ws.select('memory');
    await loupe.selectTool('create_entities');
    await loupe.runWithJson({ entities: [{ name: 'Loupe', entityType: 'tool', observations: ['seen by the memory server'] }] });
    await expect(loupe.result()).toContainText('seen by the memory server');

    await ws.select('everything-http');
    await expect(loupe.field('message')).toHaveValue('typed on the http server');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: typed on the http server');
    await loupe.selectTool('get-env');
    await loupe.runTool();
    await expect(loupe.result()).toBeVisible();
    await expect(loupe.result()).not.toContainText('the-stdio-everything');

    // The stdio server's result is still its own.
    await ws.select('everything-stdio');
    await expect(loupe.result()).toContainText('the-stdio-everything');
  });

  test('Add server adds a fourth, restart starts it anew, remove removes it; a second tab sees the same set', async ({ launch, loupe, page }) => {
    const file = workspaceFile({
      one: { command: 'node', args: [EVERYTHING, 'stdio'] },
      two: memoryEntry(),
      three: { command: 'node', args: [EVERYTHING, 'stdio'] },
    });
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    for (const name of ['one', 'two', 'three']) await ws.waitForServer(name, 'Connected', CONNECT_MS);

    await ws.addStdioServer('node', `${EVERYTHING} stdio`);
    await expect(ws.serverEntries()).toHaveCount(4);
    // The page selects the new server; its connection panel says Connected.
    await loupe.waitForStatus('Connected', CONNECT_MS);
    const added = (await ws.servers().locator('[aria-current="true"]').getAttribute('aria-label'))?.split(' · ')[0] ?? '';
    expect(added).not.toBe('');
    expect(['one', 'two', 'three']).not.toContain(added);
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'from the added server');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: from the added server');

    const other = await page.context().newPage();
    await other.goto(app.url);
    const second = new WorkspacePage(other);
    await expect(second.serverEntries()).toHaveCount(4);
    for (const name of ['one', 'two', 'three', added]) await second.waitForServer(name, 'Connected', CONNECT_MS);

    // Restart: a new process (another pid), Connected again.
    await ws.select('two');
    const pidOf = async () => (await loupe.status().textContent())?.match(/pid (\d+)/)?.[1];
    await expect.poll(pidOf).toBeDefined();
    const before = await pidOf();
    await ws.restart('two');
    await expect.poll(pidOf, { timeout: CONNECT_MS }).not.toBe(before);
    await ws.waitForServer('two', 'Connected', CONNECT_MS);

    await ws.remove(added);
    await expect(ws.server(added)).toHaveCount(0);
    await expect(ws.serverEntries()).toHaveCount(3);
    await expect(second.server(added)).toHaveCount(0);
    await expect(second.serverEntries()).toHaveCount(3);
  });

  test('arrow keys move between servers and Enter selects; All servers is an entry of its own', async ({ launch, loupe, page }) => {
    const file = workspaceFile({ alpha: { command: 'node', args: [EVERYTHING, 'stdio'] }, beta: { command: 'node', args: [EVERYTHING, 'stdio'] } });
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    await ws.waitForServer('alpha', 'Connected', CONNECT_MS);
    await ws.waitForServer('beta', 'Connected', CONNECT_MS);
    await expect(ws.server('alpha')).toHaveAttribute('aria-current', 'true');
    await ws.server('alpha').focus();
    await page.keyboard.press('ArrowDown');
    await expect(ws.server('beta')).toBeFocused();
    await expect(ws.server('alpha')).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Enter');
    await expect(ws.server('beta')).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(ws.allServers()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'All servers' })).toBeVisible();
  });
});
