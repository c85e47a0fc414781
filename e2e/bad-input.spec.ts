// What a user sees when the target is wrong: each failure says what happened, as text, at once.
import { expect, test } from './support/test.ts';
import { literal } from './pages/loupe-page.ts';
import { freePort } from './support/processes.ts';

test.describe('bad targets', () => {
  test('a command that does not exist: "Command not found", at once', async ({ launch, loupe, page }) => {
    const app = await launch(['definitely-not-a-command-xyz']);
    await loupe.open(app.url);
    // About half a second here; 15 s leaves room for two CIs on two cores, not for the 30 s connect timeout.
    await loupe.waitForStatus('Failed', 15_000);
    await expect(page.getByText('Command not found: definitely-not-a-command-xyz').first()).toBeVisible();
  });

  test('a server that exits before initialize: its exit code and stderr tail', async ({ launch, loupe, page }) => {
    const app = await launch(['node', 'e2e/fixtures/exit-early.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Failed');
    await expect(page.getByText('fatal: config file missing').first()).toBeVisible();
    await expect(page.getByText(/(exit(ed)?|code)[^0-9]{0,24}3\b/i).first()).toBeVisible();
  });

  test('an HTML page where an MCP endpoint was expected: status, type and body start, as text', async ({ servers, launch, loupe, page }) => {
    const site = await servers.htmlEndpoint();
    const app = await launch([`${site.base}/mcp`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Failed');
    await expect(page.getByText(/\b200\b/).first()).toBeVisible();
    await expect(page.getByText('text/html').first()).toBeVisible();
    await expect(page.getByText('<h1>Welcome</h1>').first()).toBeVisible();
    // Shown, never rendered.
    await expect(page.locator('h1', { hasText: 'Welcome' })).toHaveCount(0);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
  });

  test('a 404: the status and the start of the body, as text', async ({ servers, launch, loupe, page }) => {
    const site = await servers.htmlEndpoint();
    const app = await launch([`${site.base}/missing/mcp`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Failed');
    await expect(page.getByText(/\b404\b/).first()).toBeVisible();
    await expect(page.getByText('<h1>Not Found</h1>').first()).toBeVisible();
    await expect(page.locator('h1', { hasText: 'Not Found' })).toHaveCount(0);
  });

  test('a URL where nothing listens: Failed, naming the URL', async ({ launch, loupe, page }) => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const app = await launch([url]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Failed');
    await expect(page.getByText(literal(url)).first()).toBeVisible();
  });
});

test.describe('a server with invalid tool schemas and markup in its strings', () => {
  const TARGET = ['node', 'e2e/fixtures/invalid-schema.mjs'];
  const XSS_NAME = 'xss_<img src=x onerror=alert(1)>';

  test('an invalid schema is listed, marked, and runs from the JSON editor', async ({ launch, loupe }) => {
    const app = await launch(TARGET);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(loupe.toolButton('echo_args')).toBeVisible();
    await expect(loupe.toolEntry('echo_args')).not.toContainText(/invalid/i);
    for (const name of ['misspelt_type', 'bad_enum']) {
      await expect(loupe.toolButton(name)).toBeVisible();
      await expect(loupe.toolEntry(name), `${name} should be marked as having an invalid schema`).toContainText(/invalid/i);
    }
    await loupe.selectTool('misspelt_type');
    await loupe.runWithJson({ x: 'abc' });
    await expect(loupe.result()).toContainText('misspelt_type ran with {"x":"abc"}');
  });

  test('markup in names, titles, descriptions and instructions is shown as text; nothing runs', async ({ launch, loupe, page }) => {
    const app = await launch(TARGET);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(loupe.toolButton(XSS_NAME)).toBeVisible();
    await expect(page.getByText('<img src=x onerror=alert(3)><b>bold?</b>').first()).toBeVisible();
    await loupe.selectTool(XSS_NAME);
    await loupe.runTool();
    await expect(loupe.result()).toContainText(`${XSS_NAME} ran with {}`);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.locator('b', { hasText: 'bold?' })).toHaveCount(0);
    const injected = await page.evaluate(() => Array.from(document.scripts).filter((s) => s.textContent?.includes('alert(')).length);
    expect(injected, 'script elements carrying server text').toBe(0);
    // The `loupe` fixture fails the test if any alert() dialog opened meanwhile.
  });

  test('tools the SDK\'s own schema rejects do not hide the others', async ({ launch, loupe }) => {
    const app = await launch([...TARGET, '--sdk-invalid']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(loupe.toolButton('echo_args')).toBeVisible();
    await expect(loupe.toolButton('misspelt_type')).toBeVisible();
    for (const name of ['numeric_type', 'bad_required']) {
      await expect(loupe.toolButton(name)).toBeVisible();
      await expect(loupe.toolEntry(name), `${name} should be marked as having an invalid schema`).toContainText(/invalid/i);
    }
  });
});
