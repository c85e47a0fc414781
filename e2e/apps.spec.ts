// MCP Apps (issue 24) on the apps fixture (e2e/fixtures/apps-server.mjs): a tool's view renders
// under its result in a sandbox on a second loopback origin, talks to the server through the host
// (its frames in the History as view→host / host→view), is refused a model-only tool, lists what
// it asks in words, goes fullscreen and back, hears the host context change, is replayed to, torn
// down and mounted again; the CSP breaker is blocked, listed, and reaches none of Loupe's page,
// token, storage or WebSocket.
import { readFile } from 'node:fs/promises';
import { AppsPage, APPS_SERVER } from './pages/apps-page.ts';
import { HistoryPage } from './pages/history-page.ts';
import { expectNoSeriousAxeFindings } from './support/axe.ts';
import { expect, test } from './support/test.ts';

test.describe('MCP Apps views', () => {
  test('the counter renders in a sandbox on another origin, calls a tool through the host, and is refused a model-only tool', async ({ launch, loupe }) => {
    const app = await launch(APPS_SERVER);
    const apps = new AppsPage(loupe);
    await apps.start(app.url);

    // The list marks the tools that have a view, in words a screen reader reads too.
    await expect(loupe.toolEntry('counter')).toContainText('view');
    await expect(loupe.toolButton('counter')).toHaveAccessibleDescription(/has an MCP Apps view, ui:\/\/apps\/counter/);
    await expect(loupe.toolButton('echo')).not.toHaveAccessibleDescription(/MCP Apps view/);
    await expect(loupe.toolEntry('not-ui-link')).toContainText('view link broken');

    await apps.run('counter', { start: '5' });
    await expect(loupe.result()).toContainText('Count is 5');
    await apps.waitReady('counter');

    const src = await apps.sandbox('counter').getAttribute('src');
    const sandboxOrigin = new URL(src ?? '').origin;
    expect(sandboxOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandboxOrigin).not.toBe(app.origin);
    await expect(apps.sandbox('counter')).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin');

    await expect(apps.output('counter', 'tool-input')).toHaveText('{"start":5}');
    await expect(apps.output('counter', 'tool-result')).toHaveText('Count is 5');

    await apps.viewButton('counter', 'Add one').click();
    await expect(apps.output('counter', 'count')).toHaveText('6');

    // The view's tools/call is a frame of its own (view→host), and Loupe's call to the server is marked as the view's.
    const history = new HistoryPage(loupe);
    await history.open();
    await history.search().fill('counter_add');
    await expect(history.row(/view→host/).filter({ hasText: 'tools/call' }).filter({ hasText: 'view v1' })).not.toHaveCount(0);
    await expect(history.row(/→ out/).filter({ hasText: 'tools/call' }).filter({ hasText: 'for view v1' })).not.toHaveCount(0);
    // Its answer goes back host→view, paired with the view's request.
    await history.search().fill('"count":6');
    await expect(history.row(/host→view/).filter({ hasText: 'response' })).not.toHaveCount(0);
    await expect(history.row(/← in/).filter({ hasText: 'response' })).not.toHaveCount(0);
    await history.search().fill('');

    await loupe.openTab('Tools');
    await apps.viewButton('counter', 'Call model-only tool').click();
    await expect(apps.output('counter', 'model-only-answer')).toContainText(/refused/);
    await expect(apps.ask('counter', /secret_model_tool.*not visible to apps/)).toContainText('refused');

    await apps.viewButton('counter', 'Read resource').click();
    await expect(apps.output('counter', 'resource')).toHaveText('count: 6');
    await expect(apps.view('counter').getByRole('alert')).toHaveCount(0);
  });

  test("messenger's message, model context, link and log are listed in words", async ({ launch, loupe, page }) => {
    const app = await launch(APPS_SERVER);
    const apps = new AppsPage(loupe);
    await apps.start(app.url);
    await apps.run('messenger');
    await apps.waitReady('messenger');
    await expect(apps.ask('messenger', 'Messenger view loaded')).toContainText('log');

    // A ui/message waits for the user: approved, the view hears it was sent; denied, it hears so.
    await apps.viewButton('messenger', 'Send message').click();
    const asked = apps.ask('messenger', 'Hello from the view');
    await expect(asked).toContainText('waiting for your answer');
    await expect(apps.output('messenger', 'message-answer')).toHaveText('waiting');
    await asked.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(apps.output('messenger', 'message-answer')).toHaveText('sent');
    await expect(asked).toContainText('approved');
    await apps.viewButton('messenger', 'Send message').click();
    await apps.asks('messenger').getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(apps.output('messenger', 'message-answer')).toHaveText(/^refused: .*denied/);
    await expect(apps.ask('messenger', 'Hello from the view').filter({ hasText: 'denied' })).toHaveCount(1);

    await apps.viewButton('messenger', 'Update model context').click();
    await expect(apps.output('messenger', 'context-answer')).toHaveText('updated');
    await expect(apps.modelContext('messenger')).toContainText('The user picked blue');
    await expect(apps.ask('messenger', 'The user picked blue')).toContainText('model context');

    await apps.viewButton('messenger', 'Open link').click();
    await expect(apps.output('messenger', 'link-answer')).toHaveText('opened');
    const link = apps.ask('messenger', 'https://example.com/docs').getByRole('link', { name: 'Open', exact: true });
    await expect(link).toHaveAttribute('href', 'https://example.com/docs');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expectNoSeriousAxeFindings(page, 'the messenger view and its lists');
  });

  test("messenger's download (ui/download-file, draft): listed, read from the server only once approved, each file saved; denied, the view hears so", async ({ launch, loupe, page }) => {
    const app = await launch(APPS_SERVER);
    const apps = new AppsPage(loupe);
    await apps.start(app.url);
    await apps.run('messenger');
    await apps.waitReady('messenger');

    await apps.viewButton('messenger', 'Download files').click();
    const asked = apps.ask('messenger', 'asks to download 2 files');
    await expect(asked).toContainText('report.csv (text/csv, 20 B)');
    await expect(asked).toContainText('counter.txt (text/plain, fixture://apps/counter-data, read from the server when saved)');
    await expect(apps.output('messenger', 'download-answer')).toHaveText('waiting');
    await asked.getByRole('button', { name: 'Download', exact: true }).click();
    await expect(apps.output('messenger', 'download-answer')).toHaveText('downloaded');
    await expect(asked).toContainText('approved');
    const saved: Record<string, string> = {};
    for (const name of ['report.csv', 'counter.txt']) {
      const [download] = await Promise.all([page.waitForEvent('download'), asked.getByRole('button', { name: `Save ${name}`, exact: true }).click()]);
      expect(download.suggestedFilename()).toBe(name);
      saved[name] = await readFile(await download.path(), 'utf8');
    }
    expect(saved).toEqual({ 'report.csv': 'colour,count\nblue,3\n', 'counter.txt': expect.stringMatching(/^count: \d+$/) });

    await apps.viewButton('messenger', 'Download files').click();
    await expect(apps.ask('messenger', 'asks to download 2 files').filter({ hasText: 'waiting for your answer' })).toHaveCount(1);
    await apps.asks('messenger').getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(apps.output('messenger', 'download-answer')).toHaveText('refused by the host');
    await expect(apps.ask('messenger', 'asks to download 2 files').filter({ hasText: 'denied' })).toHaveCount(1);
  });

  test("big-view's fullscreen request fills the window, and Exit fullscreen returns it inline", async ({ launch, loupe, page }) => {
    const app = await launch(APPS_SERVER);
    const apps = new AppsPage(loupe);
    await apps.start(app.url);
    await apps.run('big-view');
    await apps.waitReady('big-view');
    // The view declared inline and fullscreen only.
    await expect(apps.control('big-view', 'Display mode').locator('option', { hasText: 'picture-in-picture' })).toBeDisabled();

    await apps.viewButton('big-view', 'Go fullscreen').click();
    await expect(apps.output('big-view', 'mode-answer')).toHaveText('fullscreen');
    await expect(apps.output('big-view', 'display-mode')).toHaveText('fullscreen');
    await expect(apps.button('big-view', 'Exit fullscreen')).toBeVisible();
    const viewport = page.viewportSize()!;
    const full = (await apps.sandbox('big-view').boundingBox())!;
    expect(full.width).toBeGreaterThanOrEqual(viewport.width - 2);
    expect(full.height).toBeGreaterThanOrEqual(viewport.height * 0.8);
    await expect(apps.ask('big-view', 'The view asked for fullscreen.')).toContainText('display mode');

    await apps.button('big-view', 'Exit fullscreen').click();
    await expect(apps.output('big-view', 'display-mode')).toHaveText('inline');
    await expect(apps.button('big-view', 'Exit fullscreen')).toHaveCount(0);
    await expect(apps.control('big-view', 'Display mode')).toHaveValue('inline');
    const inline = (await apps.sandbox('big-view').boundingBox())!;
    expect(inline.height).toBeLessThan(viewport.height * 0.8);
  });

  test('host context changes reach the view', async ({ launch, loupe }) => {
    const app = await launch(APPS_SERVER);
    const apps = new AppsPage(loupe);
    await apps.start(app.url);
    await apps.run('big-view');
    await apps.waitReady('big-view');
    await expect(apps.output('big-view', 'theme')).toHaveText('light');

    await apps.control('big-view', 'Theme').selectOption('dark');
    await expect(apps.output('big-view', 'theme')).toHaveText('dark');
    await apps.setText('big-view', 'Locale', 'fr-FR');
    await expect(apps.output('big-view', 'locale')).toHaveText('fr-FR');
    await apps.setText('big-view', 'Time zone', 'Europe/Paris');
    await expect(apps.output('big-view', 'time-zone')).toHaveText('Europe/Paris');
    await apps.control('big-view', 'Platform').selectOption('mobile');
    await expect(apps.output('big-view', 'platform')).toHaveText('mobile');
    await expect(apps.output('big-view', 'context-changes')).toHaveText('4');

    // A container size the user sets is the frame's size.
    const size = async () => {
      const box = await apps.sandbox('big-view').boundingBox();
      return [Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)];
    };
    await apps.setText('big-view', 'Width', '480');
    await apps.setText('big-view', 'Height', '200');
    await expect.poll(size).toEqual([480, 200]);
    await expect(apps.output('big-view', 'context-changes')).toHaveText('6');
    // Both sent before the proxy has answered the first: the second does not undo it.
    await apps.commitTogether('big-view', { Width: '360', Height: '240' });
    await expect.poll(size).toEqual([360, 240]);
    await expect(apps.control('big-view', 'Width')).toHaveValue('360');
  });

  test('the CSP breaker is blocked, the block is listed, and it reaches neither Loupe\'s page, token, storage nor WebSocket', async ({ launch, loupe, page }) => {
    const app = await launch(APPS_SERVER);
    const apps = new AppsPage(loupe);
    await apps.start(app.url);
    await apps.run('csp-breaker', { target: app.wsUrl });
    await apps.waitReady('csp-breaker');

    await expect(apps.output('csp-breaker', 'fetch')).toHaveText(/^attempted; blocked/);
    await expect(apps.ask('csp-breaker', /connect-src.*blocked\.example/)).toContainText('CSP block');
    await expect(apps.output('csp-breaker', 'image')).toHaveText(/^attempted; blocked/);
    for (const probe of ['top-location', 'parent-document', 'local-storage', 'cookie']) {
      await expect(apps.output('csp-breaker', probe), probe).toHaveText(/^attempted; blocked/);
    }
    await expect(apps.output('csp-breaker', 'websocket')).toHaveText(/^attempted ws:\/\/127\.0\.0\.1:\d+\/ws\?token=\S+; (failed|blocked)/);
    await expect(apps.output('csp-breaker', 'websocket')).not.toContainText('opened');

    // The policy is shown as it was sent, with what the resource declared and nothing more.
    await expect(apps.csp('csp-breaker')).toContainText("connect-src 'self' http://127.0.0.1:9;");
    // Loupe's own page holds nothing the view tried to write.
    expect(await page.evaluate(() => window.localStorage.getItem('apps-fixture'))).toBeNull();
  });

  test('replay to the view, tear down, mount again, a second run replaces the view, and a broken link is said in words', async ({ launch, loupe }) => {
    const app = await launch(APPS_SERVER);
    const apps = new AppsPage(loupe);
    await apps.start(app.url);
    await apps.run('counter', { start: '1' });
    await apps.waitReady('counter');

    const replay = apps.replayGroup('counter');
    await expect(replay.getByLabel('Input to replay')).toHaveValue(/"start": 1/);
    await replay.getByLabel('Input to replay').fill('{"start": 99}');
    await replay.getByLabel('Result to replay').fill(JSON.stringify({ content: [{ type: 'text', text: 'Replayed result' }] }));
    await replay.getByRole('button', { name: 'Send to view', exact: true }).click();
    await expect(apps.output('counter', 'tool-input')).toHaveText('{"start":99}');
    await expect(apps.output('counter', 'tool-result')).toHaveText('Replayed result');

    await apps.button('counter', 'Tear down').click();
    await expect(apps.status('counter')).toHaveText(/Closed/);
    await expect(apps.sandbox('counter')).toHaveCount(0);
    await expect(apps.view('counter').getByRole('alert')).toHaveCount(0);
    await apps.button('counter', 'Mount again').click();
    await apps.waitReady('counter');
    await expect(apps.output('counter', 'tool-input')).toHaveText('{"start":1}');

    const before = await apps.sandbox('counter').getAttribute('src');
    await apps.run('counter', { start: '3' });
    await expect(apps.sandbox('counter')).not.toHaveAttribute('src', before ?? '');
    await apps.waitReady('counter');
    await expect(apps.output('counter', 'tool-input')).toHaveText('{"start":3}');
    await expect(apps.view('counter')).toHaveCount(1);

    // Picture-in-picture: a small box of its own, and back.
    await apps.control('counter', 'Display mode').selectOption('pip');
    await expect(apps.button('counter', 'Back to inline')).toBeVisible();
    const pip = (await apps.sandbox('counter').boundingBox())!;
    expect(pip.width).toBeLessThan(500);
    await apps.button('counter', 'Back to inline').click();
    await expect(apps.control('counter', 'Display mode')).toHaveValue('inline');

    await apps.run('no-init');
    await expect(apps.status('no-init')).toHaveText(/waiting for the view to initialize/);
    await expect(apps.replayGroup('no-init').getByRole('button', { name: 'Send to view' })).toBeDisabled();

    await apps.run('broken-link');
    await expect(apps.view('broken-link').getByRole('alert')).toContainText(/could not be shown.*ui:\/\/apps\/missing/);
  });
});
