// The first thing a user does: `mcp-loupe` with no target opens on the bundled server-everything,
// they run `echo` from its form and read the raw protocol in History.
import { expect, test } from './support/test.ts';

test.describe('no target: the bundled server-everything', () => {
  test('connects by itself, shows the server, and runs echo from the form', async ({ launch, loupe, page }) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');

    // Server identity and the negotiated protocol version (a date, e.g. 2025-11-25).
    await expect(page.getByText('mcp-servers/everything').first()).toBeVisible();
    await expect(page.getByText('2.0.0').first()).toBeVisible();
    await expect(page.getByText(/\b20\d\d-\d\d-\d\d\b/).first()).toBeVisible();

    await loupe.selectTool('echo');
    await loupe.fillField('message', 'hello from the e2e suite');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: hello from the e2e suite');
  });

  test('History shows every frame, both ways, with latency and the raw JSON', async ({ launch, loupe, page }) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'traced');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: traced');

    await loupe.openTab('History');
    await expect(loupe.history()).toBeVisible();
    // A request and its response for each: both directions of the wire.
    for (const method of ['initialize', 'tools/list', 'tools/call']) {
      await loupe.filterHistoryMethod(method);
      await expect.poll(() => loupe.historyRows(method).count(), { message: `History rows naming ${method}` }).toBeGreaterThanOrEqual(2);
      await expect(loupe.historyRows(method).filter({ hasText: '→ out' }).first()).toBeVisible();
      await expect(loupe.historyRows(method).filter({ hasText: '← in' }).first()).toBeVisible();
    }
    await loupe.filterHistoryMethod('notifications/initialized');
    await expect(loupe.historyRows('notifications/initialized').first()).toBeVisible();
    await loupe.filterHistoryMethod('tools/call');
    // The response row carries the latency of its request.
    await expect(loupe.historyRows('tools/call').filter({ hasText: /\d+(\.\d+)?\s?(ms|µs|s)\b/ }).first()).toBeVisible();

    // Clicking a row shows its frame, pretty-printed (the wire itself has no spaces after colons).
    await loupe.historyRows('tools/call').first().click();
    await expect(page.getByText('"jsonrpc": "2.0"').first()).toBeVisible();
    await expect(page.getByText('"message": "traced"').first()).toBeVisible();
  });

  test('the page loads nothing from anywhere but Loupe itself', async ({ launch, loupe, page }) => {
    const app = await launch();
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      const own = url.startsWith(`${app.origin}/`) || url.startsWith(`ws://127.0.0.1:${app.port}/`);
      if (!own && !/^(data|blob):/.test(url)) foreign.push(url);
    });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(loupe.toolButton('echo')).toBeVisible();
    await loupe.openTab('History');
    expect(foreign, 'requests to other origins (fonts, scripts, telemetry)').toEqual([]);
  });
});
