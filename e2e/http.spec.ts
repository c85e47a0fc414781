// Remote servers: server-everything over Streamable HTTP, and over legacy SSE (by fallback and forced).
import { expect, test } from './support/test.ts';

test.describe('a server given as a URL', () => {
  test('Streamable HTTP: connects and runs echo', async ({ servers, launch, loupe, page }) => {
    const server = await servers.everything('streamableHttp');
    const app = await launch([`${server.base}/mcp`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(page.getByText('mcp-servers/everything').first()).toBeVisible();
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'over streamable http');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: over streamable http');
  });

  test('an SSE-only server is reached by falling back to SSE', async ({ servers, launch, loupe }) => {
    const server = await servers.everything('sse');
    const app = await launch([`${server.base}/sse`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'over sse');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: over sse');
  });

  test('--transport sse forces SSE', async ({ servers, launch, loupe }) => {
    const server = await servers.everything('sse');
    const app = await launch(['--transport', 'sse', `${server.base}/sse`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'forced sse');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: forced sse');
  });
});
