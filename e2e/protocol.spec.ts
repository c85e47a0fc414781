// The protocol generation (issue 12): choosing 2025-11-25, 2026-07-28 or Auto in the connection
// form and the server editor, the Protocol region saying what is in use and why, a 2026-07-28
// session's Subscriptions and Log level on the Notifications tab, and the raw composer's HTTP
// headers on a stateless server that does not check them.
import { join } from 'node:path';
import { HistoryPage } from './pages/history-page.ts';
import { ProtocolPage } from './pages/protocol-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';
import { freePort, spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { FIXTURES, EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';
import { seriousAxeFindings } from './support/axe.ts';

const MODERN = 'e2e/fixtures/modern-server.mjs';


interface Fixture {
  url: string;
  proc: Proc;
}

/** Start an HTTP fixture of issue 12; its ready line is `… listening on http://127.0.0.1:PORT/mcp`. */
async function startFixture(script: string, args: string[], running: Proc[]): Promise<Fixture> {
  const port = await freePort();
  const proc = spawnProc(process.execPath, [join(FIXTURES, script), ...args, '--port', String(port)]);
  running.push(proc);
  const [, url] = await waitForOutput(proc, proc.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 15_000, script);
  return { url, proc };
}

test.describe('protocol generation', () => {
  const running: Proc[] = [];
  test.afterEach(async () => {
    await Promise.all(running.splice(0).map((proc) => stopProc(proc, 'SIGTERM', 3_000)));
  });

  test('2026-07-28 (stateless) over stdio: the Protocol region says so, discovery is shown, tools list and run', async ({ launch, loupe, page }) => {
    // Started in the default mode: the fixture speaks both, so this is a 2025 session first.
    const app = await launch(['node', MODERN, '--stdio']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const protocol = new ProtocolPage(loupe);
    await protocol.expectSpeaking('2025-11-25 (sessions)', '2025-11-25');
    await loupe.unfoldConnection(); // folded once connected (issue 26)
    await expect(protocol.choice()).toHaveValue('2025-11-25');
    await expect(protocol.choice().locator('option')).toHaveText(['2025-11-25 (sessions)', '2026-07-28 (stateless)', 'Auto']);

    await protocol.connectCommand('node', `${MODERN} --stdio`, '2026-07-28 (stateless)');
    await loupe.waitForStatus('Connected');
    await protocol.expectSpeaking('2026-07-28 (stateless)', '2026-07-28');
    await expect(protocol.region()).not.toContainText('2025-11-25 (sessions)');
    // The form keeps the choice for the next connect.
    await loupe.unfoldConnection();
    await expect(protocol.choice()).toHaveValue('2026-07-28');

    // Discovery, shown like the connection info: from server/discover, with supportedVersions.
    const server = page.getByRole('heading', { name: 'Server', exact: true }).locator('xpath=ancestor::section[1]');
    await expect(server).toContainText('As the server said in server/discover');
    await expect(server).toContainText('modern-fixture');
    await expect(server).toContainText(/Supported versions\s*2026-07-28/);
    await expect(page.getByRole('region', { name: 'Server instructions' })).not.toBeEmpty();

    await loupe.selectTool('echo');
    await loupe.fillField('message', 'stateless hello');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('echo: stateless hello');
  });

  test('the server editor offers the choice too, and a modern-only server added with it connects', async ({ launch, loupe }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const workspace = new WorkspacePage(loupe.page);
    const protocol = new ProtocolPage(loupe);
    await workspace.servers().getByRole('button', { name: 'Add server', exact: true }).click();
    const form = workspace.newServerForm();
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
    await form.getByRole('textbox', { name: 'Arguments', exact: true }).fill(`${MODERN} --stdio --modern-only`);
    await protocol.choice(form).selectOption({ label: 'Auto' });
    await expect(form).toContainText('Auto asks the server with server/discover first and shows what it concluded and why.');
    await protocol.choice(form).selectOption({ label: '2026-07-28 (stateless)' });
    await form.getByRole('button', { name: 'Add and connect', exact: true }).click();
    await expect(form).toHaveCount(0);

    await workspace.waitForServer('modern-server.mjs', 'Connected', 20_000);
    await workspace.select('modern-server.mjs');
    await protocol.expectSpeaking('2026-07-28 (stateless)', '2026-07-28');
    await workspace.action('Edit', 'modern-server.mjs').click();
    await expect(protocol.choice(workspace.editForm('modern-server.mjs'))).toHaveValue('2026-07-28');
  });

  test('Auto against a modern-only HTTP server picks 2026-07-28 and says which probe got which answer', async ({ launch, loupe }) => {
    const server = await startFixture('modern-server.mjs', ['--http', '--modern-only'], running);
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const protocol = new ProtocolPage(loupe);
    await protocol.connectUrl(server.url, 'Auto');
    await loupe.waitForStatus('Connected');
    await protocol.expectSpeaking('2026-07-28 (stateless)', '2026-07-28');
    await expect(protocol.verdict('Asked for')).toHaveText('Auto');
    await expect(protocol.verdict('Concluded')).toHaveText('2026-07-28 (stateless)');
    await expect(protocol.verdict('Probe')).toHaveText('server/discover asking for 2026-07-28');
    await expect(protocol.verdict('Answer')).toContainText('supportedVersions ["2026-07-28"]');
    await expect(protocol.verdict('Why')).toContainText('answered server/discover and supports 2026-07-28');
    await loupe.openTab('Tools');
    await expect(loupe.toolButton('echo')).toBeVisible();
  });

  test('Auto against server-everything (2025 only) picks 2025-11-25 and says why', async ({ launch, loupe }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const protocol = new ProtocolPage(loupe);
    await protocol.connectCommand('node', EVERYTHING, 'Auto');
    await loupe.waitForStatus('Connected', 30_000);
    await protocol.expectSpeaking('2025-11-25 (sessions)', '2025-11-25');
    await expect(protocol.verdict('Asked for')).toHaveText('Auto');
    await expect(protocol.verdict('Concluded')).toHaveText('2025-11-25 (sessions)');
    await expect(protocol.verdict('Probe')).toHaveText('server/discover asking for 2026-07-28');
    // What server-everything said to the probe, and the conclusion drawn from it.
    await expect(protocol.verdict('Answer')).not.toBeEmpty();
    await expect(protocol.verdict('Why')).toContainText('Loupe opens a 2025-11-25 session');
  });

  // The proxy's sentence, as the page shows it in the connection panel.
  const CHOOSE_MODERN = 'choose 2026-07-28 (stateless) or Auto in Protocol';

  test('the default mode against a modern-only HTTP server fails and says to choose 2026-07-28 or Auto', async ({ launch, loupe }) => {
    const server = await startFixture('modern-server.mjs', ['--http', '--modern-only'], running);
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const protocol = new ProtocolPage(loupe);
    await loupe.unfoldConnection(); // folded once connected (issue 26)
    await expect(protocol.choice()).toHaveValue('2025-11-25');
    await loupe.connectToUrl(server.url);
    await loupe.waitForStatus('Failed', 20_000);
    await expect(protocol.connection()).toContainText(CHOOSE_MODERN);
  });

  test('the default mode against a modern-only stdio server fails and says the same', async ({ launch, loupe }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const protocol = new ProtocolPage(loupe);
    await loupe.connectToCommand('node', `${MODERN} --stdio --modern-only`);
    await loupe.waitForStatus('Failed', 20_000);
    await expect(protocol.connection()).toContainText(CHOOSE_MODERN);
  });

  test('Listen on a 2026-07-28 session: the update of a subscribed resource arrives in Notifications; Log level goes in _meta', async ({ launch, loupe, page }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const protocol = new ProtocolPage(loupe);
    await protocol.connectCommand('node', `${MODERN} --stdio --modern-only`, '2026-07-28 (stateless)');
    await loupe.waitForStatus('Connected');
    await protocol.expectSpeaking('2026-07-28 (stateless)', '2026-07-28');

    await loupe.openTab('Notifications');
    const subscriptions = protocol.subscriptions();
    await expect(protocol.listenState()).toHaveText('Not listening. Choose what to hear about and press Listen.');
    await expect(subscriptions.getByRole('button', { name: 'Listen', exact: true })).toBeDisabled();
    await subscriptions.getByRole('checkbox', { name: 'Resources list changes' }).check();
    await subscriptions.getByRole('textbox', { name: 'Resource URIs' }).fill('fixture://counter');
    await subscriptions.getByRole('button', { name: 'Listen', exact: true }).click();
    // What the acknowledgement honoured, in words (the fixture's stdio server takes the resource's updates).
    await expect(protocol.listenState()).toContainText(/^Listening\b.*\. The server honoured [^.]*updates of fixture:\/\/counter/, { timeout: 30_000 });

    // The 2026 level control replaces logging/setLevel (deprecated there).
    await expect(page.getByRole('combobox', { name: 'Logging level' })).toHaveCount(0);
    await expect(protocol.logLevel()).toHaveValue('none');
    await protocol.logLevel().selectOption('debug');
    await expect(protocol.logLevelInUse()).toHaveText('Each request asks for debug and above in its _meta');

    await loupe.selectTool('bump-counter');
    await loupe.runTool();
    await expect(loupe.result()).toBeVisible();
    await loupe.openTab('Notifications');
    const list = page.getByRole('list', { name: 'Notifications' });
    await expect(list.getByRole('listitem').filter({ hasText: 'notifications/resources/updated' }).first()).toContainText('fixture://counter', { timeout: 30_000 });

    await protocol.subscriptions().getByRole('button', { name: 'Stop listening', exact: true }).click();
    await expect(protocol.listenState()).toHaveText('Stopped: you closed the stream.', { timeout: 30_000 });

    await protocol.logLevel().selectOption('none');
    await expect(protocol.logLevelInUse()).toHaveText('Requests ask for no log messages');
  });

  test('a 2025 session keeps logging/setLevel and has no Subscriptions region', async ({ launch, loupe, page }) => {
    const app = await launch(['node', MODERN, '--stdio']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await new ProtocolPage(loupe).expectSpeaking('2025-11-25 (sessions)', '2025-11-25');
    await loupe.openTab('Notifications');
    await expect(page.getByRole('combobox', { name: 'Logging level' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Log level', exact: true })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Subscriptions', exact: true })).toHaveCount(0);
  });

  test('raw composer headers: a tools/call sent with Mcp-Method: tools/list to a server that does not check is marked', async ({ launch, loupe }) => {
    const server = await startFixture('modern-raw.mjs', ['--variant', 'broken'], running);
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const protocol = new ProtocolPage(loupe);
    await loupe.openTab('History');
    // Not on a stdio session: there is no POST to put them on.
    await expect(protocol.headers()).toHaveCount(0);

    await protocol.connectUrl(server.url, '2026-07-28 (stateless)');
    await loupe.waitForStatus('Connected');
    await protocol.expectSpeaking('2026-07-28 (stateless)', '2026-07-28');
    const history = new HistoryPage(loupe);
    await history.open();
    await expect(loupe.page.getByText(/They go on this one POST, over the transport's own headers/)).toBeVisible();
    await protocol.headers().fill('Mcp-Method: tools/list');
    // A raw message goes as written, so it carries its own 2026-07-28 envelope.
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    await history.compose({ jsonrpc: '2.0', id: 'mismatch-1', method: 'tools/call', params: { name: 'echo', arguments: { message: 'mismatched' }, _meta } });
    // The broken variant answers it as if the header agreed.
    await expect(history.answer()).toContainText('echo: mismatched', { timeout: 30_000 });
    // The header went on that POST, over the one the transport derives from the body (the
    // filter searches an HTTP row's headers; a Headers object lists them sorted).
    await history.search().fill('"mcp-method":"tools/list","mcp-name":"echo"');
    const post = history.row(/POST .*\/mcp → 200/);
    await expect(post).toHaveCount(1);
    // Marked on that exchange (lib/trace/violations.ts names the check), and among the violations.
    await expect(post).toContainText('⚠ HTTP headers do not match the body');
    await history.violationsOnly().check();
    await expect(post).toHaveCount(1);
  });

  test.describe('axe', () => {
    // axe is injected as an inline script, which Loupe's CSP forbids (as a11y.spec.ts does).
    test.use({ bypassCSP: true });

    test('the Protocol region, Subscriptions, Log level and HTTP headers pass axe, light and dark', async ({ launch, loupe, page }) => {
      const server = await startFixture('modern-server.mjs', ['--http'], running);
      const app = await launch(['--protocol', '2026-07-28', server.url]);
      await loupe.open(app.url);
      await loupe.waitForStatus('Connected');
      const protocol = new ProtocolPage(loupe);
      await protocol.expectSpeaking('2026-07-28 (stateless)', '2026-07-28');
      for (const dark of [false, true]) {
        const toggle = page.getByRole('button', { name: /(Dark|Light) theme/ });
        // The toggle names what it does: `Light theme` while the theme is dark.
        if ((await toggle.textContent())?.includes(dark ? 'Dark theme' : 'Light theme')) await toggle.click();
        await expect(toggle).toHaveAccessibleName(dark ? 'Light theme' : 'Dark theme');
        await loupe.openTab('Notifications');
        await protocol.subscriptions().getByRole('checkbox', { name: 'Tools list changes' }).check();
        await protocol.subscriptions().getByRole('button', { name: 'Listen', exact: true }).click();
        await expect(protocol.listenState()).toContainText(/^Listening/, { timeout: 30_000 });
        await expect(protocol.logLevel()).toBeVisible();
        expect(await seriousAxeFindings(page), `Notifications, ${dark ? 'dark' : 'light'}`).toEqual([]);
        await loupe.openTab('History');
        await expect(protocol.headers()).toBeVisible();
        expect(await seriousAxeFindings(page), `History, ${dark ? 'dark' : 'light'}`).toEqual([]);
      }
    });
  });
});
