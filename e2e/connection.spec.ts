// The connection panel: disconnect and reconnect, and switch to a new target by hand.
import { expect, test } from './support/test.ts';
import { descendants, pollUntil } from './support/processes.ts';

test.describe('the connection panel', () => {
  test('Disconnect stops the server; Connect starts it again and tools run', async ({ launch, loupe, page }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const first = descendants(app.pid);
    expect(first.length, 'the server process runs').toBeGreaterThan(0);

    await loupe.disconnect();
    await loupe.waitForStatus('Disconnected');
    expect(await pollUntil(() => first.every((pid) => !descendants(app.pid).includes(pid)), 5_000), 'Disconnect stops the server process').toBe(true);

    await loupe.connect();
    await loupe.waitForStatus('Connected');
    await expect(page.getByText('noisy-stdout-fixture').first()).toBeVisible();
    await loupe.selectTool('shout');
    await loupe.fillField('text', 'again');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('AGAIN!');
  });

  test('a new stdio target entered in the panel connects', async ({ launch, loupe, page }) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(loupe.toolButton('echo')).toBeVisible();

    await loupe.connectToCommand('node', 'e2e/fixtures/noisy-stdout.mjs');
    await loupe.waitForStatus('Connected');
    await expect(page.getByText('noisy-stdout-fixture').first()).toBeVisible();
    await loupe.selectTool('shout');
    await loupe.fillField('text', 'switched');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('SWITCHED!');
  });

  test('a new URL target entered in the panel connects', async ({ servers, launch, loupe }) => {
    const server = await servers.everything('streamableHttp');
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');

    await loupe.connectToUrl(`${server.base}/mcp`);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'typed url');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: typed url');
  });
});
