// Tool results: every content block on its own (text with raw/pretty JSON, image, audio, resource
// link, embedded text and blob), bad blocks flagged among good ones, structuredContent validated
// against outputSchema (shown whatever the verdict), isError, and huge text.
import { expect, test } from './support/test.ts';
import { HARD, ready, resourceRegion, runAndWait } from './pages/primitives.ts';

test.describe('tool results', () => {
  test('every content type renders on its own; a resource link opens the Resources tab', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'all_content');
    await loupe.selectTool('all_content');
    await runAndWait(loupe);
    const result = loupe.result();
    await expect(result.getByText('Plain text block')).toBeVisible();
    // JSON in a text block is pretty-printed, with a way back to the raw text.
    await expect(result.getByText('"kind": "json-in-text"')).toBeVisible();
    await result.getByRole('button', { name: 'Raw' }).click();
    await expect(result.getByText('{"kind":"json-in-text","items":[1,2,3],"nested":{"ok":true}}')).toBeVisible();
    // Image and audio from data: URLs.
    const image = result.getByRole('img', { name: /Image returned by the server \(image\/png\)/ });
    await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16);
    await expect(result.locator('audio')).toHaveAttribute('src', /^data:audio\/wav;base64,/);
    // Embedded resources: text shown, blob with size, MIME type and a download.
    await expect(result.getByText('Embedded text resource body')).toBeVisible();
    const blob = result.locator('[data-block="resource"]').filter({ hasText: 'fixture://inline/blob.bin' });
    await expect(blob).toContainText('application/octet-stream');
    await expect(blob).toContainText('blob, 16 B');
    const download = page.waitForEvent('download');
    await blob.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('blob.bin');
    // The resource link opens the resource in the Resources tab.
    await result.locator('[data-block="resource_link"]').getByRole('button', { name: 'Open in Resources' }).click();
    await expect(loupe.tab('Resources')).toHaveAttribute('aria-selected', 'true');
    await expect(resourceRegion(page)).toContainText('fixture://docs/readme.md');
    await expect(resourceRegion(page).getByRole('heading', { name: 'Fixture readme' })).toBeVisible();
  });

  test('a bad block is flagged and the other blocks still show', async ({ shared, loupe }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'bad_blocks');
    await loupe.selectTool('bad_blocks');
    await runAndWait(loupe);
    const result = loupe.result();
    await expect(result.getByText('Good block before')).toBeVisible();
    await expect(result.getByText('Good block after')).toBeVisible();
    await expect(result.getByText('"data" is not valid base64')).toBeVisible();
    await expect(result.getByText('unknown block type "hologram"')).toBeVisible();
    await expect(result.getByText('SVG is not displayed (it can carry scripts)')).toBeVisible();
    await expect(result.locator('img')).toHaveCount(0);
  });

  test('structuredContent is shown as a tree and validated against outputSchema, valid or not', async ({ shared, loupe }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'structured_valid');
    const structured = loupe.result().getByRole('region', { name: 'structuredContent' });

    await loupe.selectTool('structured_valid');
    await runAndWait(loupe);
    await expect(structured.getByText('valid', { exact: true })).toBeVisible();
    await expect(structured.getByRole('list', { name: 'structuredContent tree' })).toContainText('temperature: 21.5');

    await loupe.selectTool('structured_invalid');
    await runAndWait(loupe);
    await expect(structured.getByText('invalid', { exact: true })).toBeVisible();
    const errors = structured.getByRole('list', { name: 'outputSchema errors' });
    await expect(errors).toContainText('/temperature');
    await expect(errors).toContainText('must be number');
    await expect(errors).toContainText('(root) must NOT have additional properties (extra)');
    await expect(errors).toContainText("conditions");
    // The result is shown anyway (the SDK would have thrown it away).
    await expect(structured.getByRole('list', { name: 'structuredContent tree' })).toContainText('temperature: "warm"');
    await expect(loupe.result().getByText('structured content that breaks the schema')).toBeVisible();

    await loupe.selectTool('structured_missing');
    await runAndWait(loupe);
    await expect(structured.getByText('invalid: no structuredContent')).toBeVisible();
  });

  test('an isError result is clearly an error', async ({ shared, loupe }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'is_error');
    await loupe.selectTool('is_error');
    await runAndWait(loupe);
    await expect(loupe.result().getByRole('alert')).toContainText('The tool reported an error (isError: true)');
    await expect(loupe.result().getByText('isError', { exact: true })).toBeVisible();
    await expect(loupe.result()).toContainText('Something went wrong on the server side');
  });

  test('a 20 MB text result is cut in view, with show all and download; the page stays usable', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'big_text');
    await loupe.selectTool('big_text');
    await loupe.fillField('Megabytes', '20');
    await loupe.runTool();
    const result = loupe.result();
    await expect(result.getByText(/Showing the first 64\.0 KiB of 20\.0 MiB/)).toBeVisible({ timeout: 30_000 });
    await expect(result.getByText(/^BEGIN>The quick brown fox/)).toBeVisible();
    expect(await result.evaluate((el) => el.textContent?.includes('<END'))).toBe(false);
    // The page still answers: another tool can be selected and run at once.
    await loupe.selectTool('structured_valid');
    await runAndWait(loupe);
    await loupe.selectTool('big_text');
    const download = page.waitForEvent('download');
    await result.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('result.txt');
    // Show all: every line is reachable (drawn a window at a time), down to the last one.
    await result.getByRole('button', { name: 'Show all' }).click();
    const full = result.getByRole('region', { name: 'Full text' });
    await expect(full).toBeVisible();
    await full.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(full.getByText(/<END$/)).toBeVisible();
    await result.getByRole('button', { name: 'Show less' }).click();
    await expect(result.getByText(/Showing the first 64\.0 KiB of 20\.0 MiB/)).toBeVisible();
  });

  test('server-everything: an image, resource links, structured content and annotations', async ({ shared, loupe, page }) => {
    const app = await shared();
    await ready(loupe, app.url, 'echo');
    await loupe.selectTool('get-tiny-image');
    await runAndWait(loupe);
    await expect(loupe.result().getByRole('img')).toHaveAttribute('src', /^data:image\/png;base64,/);

    await loupe.selectTool('get-structured-content');
    await page.getByLabel(/^location/).selectOption('Chicago');
    await runAndWait(loupe);
    await expect(loupe.result().getByRole('region', { name: 'structuredContent' }).getByText('valid', { exact: true })).toBeVisible();

    await loupe.selectTool('get-annotated-message');
    await page.getByLabel(/^messageType/).selectOption('error');
    await runAndWait(loupe);
    await expect(loupe.result().getByText(/priority 1/)).toBeVisible();

    await loupe.selectTool('get-resource-links');
    await loupe.fillField('count', '2');
    await runAndWait(loupe);
    const links = loupe.result().locator('[data-block="resource_link"]');
    await expect(links).toHaveCount(2);
    const uri = (await links.first().locator('p.font-mono').textContent()) ?? '';
    await links.first().getByRole('button', { name: 'Open in Resources' }).click();
    await expect(resourceRegion(page)).toContainText(uri);
    await expect(resourceRegion(page).getByText('read', { exact: true })).toBeVisible();
  });
});
