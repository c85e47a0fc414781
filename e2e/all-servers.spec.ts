// The `All servers` views (issue 9): one History of every server in time order with a Server
// column and a Server filter, and every server's tools as `server__tool`, searchable and run on
// their own server; names that clash once namespaced, or grow past 64 characters, are said so.
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { AllServersPage } from './pages/all-servers-page.ts';
import { HistoryPage } from './pages/history-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';
import { FIXTURES } from './support/servers.ts';
import { expect, test } from './support/test.ts';
import { threeServers, workspaceFile } from './support/workspaces.ts';

const TOOL_NAMES = join(FIXTURES, 'tool-names.mjs');
const CONNECT_MS = 30_000;
const FLOOD_CONNECT_MS = 90_000;

/** Select a namespaced tool, fill its fields, run it there, and wait for its result. */
async function run(all: AllServersPage, button: Locator, fields: Record<string, string> = {}): Promise<Locator> {
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  const form = all.toolForm();
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(new RegExp(`^\\s*${label}\\b`)).fill(value);
  await form.getByRole('button', { name: 'Run tool', exact: true }).click();
  return all.region().getByRole('region', { name: 'Result', exact: true });
}

test.describe('All servers', () => {
  test('three servers: server__tool runs on its own server, the merged History holds all three in time order, the Server filter narrows to one', async ({ launch, loupe, page, servers }) => {
    test.setTimeout(120_000);
    const http = await servers.everything('streamableHttp');
    const file = threeServers(http.base);
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    const all = new AllServersPage(page);
    for (const name of ['everything-stdio', 'memory', 'everything-http']) await ws.waitForServer(name, 'Connected', CONNECT_MS);

    await all.open();
    await all.openView('Tools');
    await expect(all.toolButton('memory__read_graph')).toBeVisible();
    await expect(all.toolButton('everything-http__echo')).toBeVisible();
    await all.search().fill('echo');
    await expect(all.toolButtons()).toHaveCount(2);
    await expect(all.tools().getByRole('status', { name: 'Tools shown' })).toHaveText(/^2 of \d+ tools$/);
    await all.search().fill('');

    // A call on each server, from the aggregated list; each answers as itself.
    await expect(await run(all, all.toolButton('everything-http__echo'), { message: 'hello over http' })).toContainText('Echo: hello over http');
    await expect(all.toolForm()).toHaveAccessibleName('Tool form of everything-http');
    await expect(await run(all, all.toolButton('everything-stdio__get-env'))).toContainText('the-stdio-everything');
    const httpEnv = await run(all, all.toolButton('everything-http__get-env'));
    await expect(httpEnv).toContainText('{');
    await expect(httpEnv).not.toContainText('the-stdio-everything');
    await expect(await run(all, all.toolButton('memory__read_graph'))).toContainText('entities');

    // The merged History: tools/call frames of all three, in time order, each with its server.
    await all.openView('History');
    await expect(all.table().getByRole('columnheader', { name: 'Server', exact: true })).toBeVisible();
    await all.history().getByRole('combobox', { name: 'Method' }).selectOption('tools/call');
    await expect.poll(async () => new Set(await all.column('Server')), { timeout: 30_000 }).toEqual(new Set(['everything-stdio', 'memory', 'everything-http']));
    const times = await all.column('Time');
    expect(times.length).toBeGreaterThanOrEqual(8);
    expect([...times].sort(), 'rows in time order').toEqual(times);
    const order = await all.column('Server');
    // The first tools/call was the http echo, the last memory's read_graph (requests and answers).
    expect(order[0]).toBe('everything-http');
    expect(order[order.length - 1]).toBe('memory');

    await all.serverFilter().selectOption({ label: 'memory' });
    await expect.poll(async () => [...new Set(await all.column('Server'))]).toEqual(['memory']);
    await all.serverFilter().selectOption({ label: 'All servers' });
    await expect.poll(async () => new Set(await all.column('Server')).size).toBe(3);

    // Selecting a row shows the frame, named after its server.
    await all.rows().filter({ hasText: 'everything-http' }).first().click();
    await expect(all.history().getByRole('heading', { name: /^Frame · everything-http$/ })).toBeVisible();

    // The http echo's frames are in everything-http's own History, not in everything-stdio's.
    const history = new HistoryPage(loupe);
    await ws.select('everything-http');
    await history.open();
    await history.search().fill('hello over http');
    await expect(history.rows().first()).toBeVisible();
    await ws.select('everything-stdio');
    await history.open();
    await history.search().fill('hello over http');
    await history.expectShown(0);
  });

  test('the merged History of two floods holds 100,000 rows and scrolls end to end', async ({ launch, page }) => {
    test.setTimeout(240_000);
    const FLOOD = join(FIXTURES, 'flood.mjs');
    // Each floods 60,000 notifications after initialize; the proxy keeps the last 50,000 of each.
    const file = workspaceFile({ 'flood-a': { command: 'node', args: [FLOOD, '--auto', '60000'] }, 'flood-b': { command: 'node', args: [FLOOD, '--auto', '60000'] } });
    const app = await launch(['--config', file]);
    // The floods start with Loupe and keep its one thread busy while the page loads: wait for the
    // navigation, not for every script's load event; the servers' status below is the ready signal.
    await page.goto(app.url, { waitUntil: 'commit' });
    const ws = new WorkspacePage(page);
    const all = new AllServersPage(page);
    // While 120,000 notifications go through the proxy, a second CI on the same two cores held the
    // page's first snapshot past 30 s: what is tested here is the History, so the bound only tells
    // a hang from a slow answer.
    await ws.waitForServer('flood-a', 'Connected', FLOOD_CONNECT_MS);
    await ws.waitForServer('flood-b', 'Connected', FLOOD_CONNECT_MS);
    await all.open();
    await all.openView('History');
    const shown = all.history().getByRole('status', { name: 'Rows shown' });
    // "120,016 rows", or with a filter "2 of 100,004 rows": the rows shown are the first number.
    const count = async () => Number((/[\d,]+/.exec((await shown.textContent()) ?? '')?.[0] ?? '').replace(/,/g, ''));
    await expect.poll(count, { timeout: 60_000 }).toBeGreaterThanOrEqual(100_000);
    // Both floods are over once the last notification of each has arrived: nothing more comes,
    // and the count stays. (A wait for that event, not for a quiet half second.)
    const search = all.history().getByRole('searchbox', { name: 'Filter history' });
    await search.fill('"flood 60000 of 60000"');
    await expect.poll(count, { timeout: 60_000 }).toBe(2);
    await search.fill('');
    await expect.poll(count).toBeGreaterThanOrEqual(100_000);
    // The table says as many rows as the status (plus its header row), once the last row is in.
    const rowcount = async () => Number(await all.table().getAttribute('aria-rowcount'));
    await expect.poll(async () => (await rowcount()) - (await count()), { timeout: 30_000 }).toBe(1);
    expect(await count()).toBeGreaterThanOrEqual(100_000);
    // End and Home select the last and the first of the 100,000 rows, each scrolled into view. (A
    // frame of the sessions' own may still come after the floods: the last row is the table's last.)
    const current = all.table().locator('[role="row"][aria-current="true"]');
    await all.table().focus();
    await page.keyboard.press('End');
    await expect.poll(async () => Number(await current.getAttribute('aria-rowindex')) === (await rowcount())).toBe(true);
    await expect(current).toBeInViewport();
    const bottom = await all.column('Time');
    await page.keyboard.press('Home');
    await expect(current).toHaveAttribute('aria-rowindex', '2');
    await expect(current).toBeInViewport();
    const top = await all.column('Time');
    expect(top[0] <= bottom[bottom.length - 1]).toBe(true);
    await all.serverFilter().selectOption({ label: 'flood-b' });
    await expect.poll(async () => [...new Set(await all.column('Server'))]).toEqual(['flood-b']);
  });

  test('names that clash once namespaced, or are over 64 characters, are pointed out; each clashing tool still runs on its own server; arrow keys move through the list', async ({ launch, page }) => {
    const long = 'a-tool-name-that-is-long-enough-to-pass-the-limit-with-its-server';
    const file = workspaceFile({
      alpha: { command: 'node', args: [TOOL_NAMES, 'alpha', 'beta__whoami', 'whoami', long] },
      alpha__beta: { command: 'node', args: [TOOL_NAMES, 'alpha__beta', 'whoami'] },
    });
    const app = await launch(['--config', file]);
    // The floods start with Loupe and keep its one thread busy while the page loads: wait for the
    // navigation, not for every script's load event; the servers' status below is the ready signal.
    await page.goto(app.url, { waitUntil: 'commit' });
    const ws = new WorkspacePage(page);
    const all = new AllServersPage(page);
    await ws.waitForServer('alpha', 'Connected', CONNECT_MS);
    await ws.waitForServer('alpha__beta', 'Connected', CONNECT_MS);
    await all.open();
    await expect(all.toolButtons()).toHaveCount(4);

    const problems = all.tools().getByRole('note', { name: 'Tool name problems' });
    await expect(problems).toContainText('3 names a host would refuse or confuse');
    await expect(problems).toContainText('alpha__beta__whoami: Same name as whoami on alpha__beta');
    await expect(problems).toContainText('alpha__beta__whoami: Same name as beta__whoami on alpha');
    await expect(problems).toContainText(`alpha__${long}: Longer than 64 characters`);
    const clashing = all.toolButton('alpha__beta__whoami');
    await expect(clashing).toHaveCount(2);
    await expect(clashing.first()).toHaveAccessibleName(/Same name as whoami on alpha__beta/);
    await expect(all.toolButton('alpha__whoami')).not.toHaveAccessibleName(/Same name|Longer/);

    await expect(await run(all, clashing.first())).toContainText('alpha ran beta__whoami');
    await expect(await run(all, clashing.nth(1))).toContainText('alpha__beta ran whoami');

    // Keyboard: one tab stop on the list; arrows move, Enter selects.
    await clashing.nth(1).focus();
    await page.keyboard.press('Home');
    await expect(all.toolButtons().first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(all.toolButtons().nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(all.toolButtons().nth(1)).toHaveAttribute('aria-pressed', 'true');
    await expect(all.tools().getByRole('list', { name: 'Tools of every server' }).locator('button[tabindex="0"]')).toHaveCount(1);
  });
});
