// Resources: listing, reading by MIME type (text, JSON, Markdown as text-only rendering, HTML as
// source or a sandboxed frame where nothing runs, images, bytes to download), templates with
// completions, and subscriptions whose updates mark the resource and offer a re-read.
import type { Request } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { HARD, ready, resourceButton, resourceRegion, runAndWait } from './pages/primitives.ts';

test.describe('resources', () => {
  test('each MIME type is shown its own way; nothing in them runs or loads', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    // Every attempt at another origin. Chromium lists an attempt its Content-Security-Policy refused
    // too (a request that failed with the error text "csp", its preload scanner's among them): that
    // one left nothing, and is told apart below; anything else would have gone out.
    const attempts: Request[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(app.origin) && !/^(data|blob|about):/.test(request.url()) && !request.url().startsWith('ws:')) attempts.push(request);
    });
    await ready(loupe, app.url, 'all_content');
    await loupe.openTab('Resources');
    const view = resourceRegion(page);

    await resourceButton(page, 'Readme (Markdown)').click();
    await expect(view.getByRole('heading', { name: 'Fixture readme' })).toBeVisible();
    await expect(view.getByText('(https://example.com/docs)')).toBeVisible();
    await expect(view.getByText('<script>alert("markdown script")</script>', { exact: false })).toBeVisible();
    await expect(view.locator('img, a, script')).toHaveCount(0);
    await view.getByRole('button', { name: 'Source' }).click();
    await expect(view.getByText('# Fixture readme')).toBeVisible();

    await resourceButton(page, 'A page (HTML)').click();
    await expect(view.getByText(/<script>alert\("html script"\)<\/script>/)).toBeVisible();
    await view.getByRole('button', { name: 'Preview' }).click();
    const frame = view.locator('iframe');
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(page.frameLocator('iframe[title^="HTML preview"]').getByText('Rendered paragraph')).toBeVisible();

    await resourceButton(page, 'data.json').click();
    await expect(view.getByText('"answer": 42')).toBeVisible();

    await resourceButton(page, 'image.png').click();
    await expect(view.getByRole('img', { name: /Image resource/ })).toHaveAttribute('src', /^data:image\/png;base64,/);

    await resourceButton(page, 'bytes.bin').click();
    await expect(view.getByText('Binary contents: 256 B; use Download.')).toBeVisible();
    const download = page.waitForEvent('download');
    await view.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('bytes.bin');

    const foreign: string[] = [];
    for (const request of attempts) {
      const response = await request.response();
      if (response || !/^csp$|ERR_BLOCKED_BY_CSP/i.test(request.failure()?.errorText ?? '')) foreign.push(`${request.url()} (${response ? `answered ${response.status()}` : (request.failure()?.errorText ?? 'sent')})`);
    }
    expect(foreign, 'requests to other origins from resource contents').toEqual([]);
  });

  test('a template form completes its variables as the user types, then reads the expanded URI', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'all_content');
    await loupe.openTab('Resources');
    const templates = page.getByRole('list', { name: 'Resource templates' });
    await templates.getByRole('button', { name: 'Item by id' }).click();
    const id = page.getByRole('combobox', { name: 'id' });
    await id.fill('1');
    const options = page.getByRole('listbox', { name: 'Suggestions for id' }).getByRole('option');
    await expect(options).toHaveText(['1', '10', '11', '12']);
    await page.getByRole('option', { name: '11', exact: true }).click();
    await expect(id).toHaveValue('11');
    await expect(page.getByRole('form', { name: 'Resource template' }).locator('output')).toHaveText('fixture://items/11');
    await page.getByRole('button', { name: 'Read resource' }).click();
    await expect(resourceRegion(page)).toContainText('Item 11 body');
    await expect(resourceRegion(page)).toContainText('From template fixture://items/{id}');

    // A query template: empty variables are left out.
    await templates.getByRole('button', { name: 'search' }).click();
    await page.getByRole('combobox', { name: 'q' }).fill('mcp loupe');
    await expect(page.getByRole('form', { name: 'Resource template' }).locator('output')).toHaveText('fixture://search?q=mcp%20loupe');
    await page.getByRole('button', { name: 'Read resource' }).click();
    await expect(resourceRegion(page)).toContainText('"query": "fixture://search?q=mcp%20loupe"');
  });

  test('subscribe: updates mark the resource and offer a re-read; unsubscribe stops them', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'all_content');
    await loupe.openTab('Resources');
    const view = resourceRegion(page);
    await resourceButton(page, /^Counter/).click();
    await expect(view).toContainText('counter is 0');
    await view.getByRole('button', { name: 'Subscribe' }).click();
    await expect(view.getByText('subscribed', { exact: true })).toBeVisible();
    const notice = view.getByRole('status').filter({ hasText: 'The server says this resource was updated' });
    await expect(notice).toBeVisible();
    await expect(page.getByRole('list', { name: 'Resources' }).getByText(/^updated ×\d+$/)).toBeVisible();
    await notice.getByRole('button', { name: 'Re-read now' }).click();
    await expect(view).toContainText(/counter is [1-9]/);
    await view.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(view.getByRole('button', { name: 'Subscribe' })).toBeVisible();
    await view.getByRole('button', { name: 'Re-read', exact: true }).click();
    await expect(notice).toHaveCount(0);
    // The server sends one every 400 ms while subscribed: a second of silence means it stopped.
    await page.waitForTimeout(1_200);
    await expect(notice).toHaveCount(0);
    await loupe.openTab('History');
    await expect(loupe.historyRows('resources/unsubscribe').first()).toBeVisible();
  });

  test('resources/list_changed and prompts/list_changed refresh the lists', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'change_resources');
    await loupe.openTab('Resources');
    await expect(resourceButton(page, 'data.json')).toBeVisible();
    await expect(resourceButton(page, 'late.txt')).toHaveCount(0);
    await loupe.selectTool('change_resources');
    await runAndWait(loupe);
    await loupe.openTab('Resources');
    await resourceButton(page, 'late.txt').click();
    await expect(resourceRegion(page)).toContainText('listed after resources/list_changed');
    await loupe.openTab('Prompts');
    await expect(page.getByRole('list', { name: 'Prompts' }).getByRole('button', { name: /^late/ })).toBeVisible();
  });

  test('server-everything: a static document and a dynamic template with completion', async ({ launch, loupe, page }) => {
    const app = await launch();
    await ready(loupe, app.url, 'echo');
    await loupe.openTab('Resources');
    await resourceButton(page, 'architecture.md').click();
    await expect(resourceRegion(page)).toContainText('demo://resource/static/document/architecture.md');
    await expect(resourceRegion(page).getByRole('heading').first()).toBeVisible();
    await page.getByRole('list', { name: 'Resource templates' }).getByRole('button', { name: 'Dynamic Text Resource' }).click();
    await page.getByRole('combobox', { name: 'resourceId' }).fill('5');
    await expect(page.getByRole('option', { name: '5', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Read resource' }).click();
    await expect(resourceRegion(page)).toContainText('Resource 5: This is a plaintext resource');
  });
});
