// Server strings are text, everywhere: markup in names, descriptions, URIs, results, resources and
// prompts does nothing (the `loupe` fixture fails the test on any dialog), bidi overrides and
// control characters are made visible, duplicate names are both selectable, odd names do not break
// the layout, and icons load nothing from elsewhere.
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { HARD, HOSTILE, promptRegion, ready, resourceRegion, runAndWait } from './pages/primitives.ts';

const XSS = '<img src=x onerror=alert("xss")>';

async function nothingInjected(page: Page): Promise<void> {
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('b', { hasText: 'bold?' })).toHaveCount(0);
  const scripts = await page.evaluate(() => Array.from(document.scripts).filter((s) => s.textContent?.includes('alert(')).length);
  expect(scripts, 'script elements carrying server text').toBe(0);
  const handlers = await page.evaluate(() => Array.from(document.querySelectorAll('*')).filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on'))).length);
  expect(handlers, 'elements with inline event handlers').toBe(0);
}

test.describe('hostile server data', () => {
  test('markup in every server string renders as text, in every tab; nothing runs', async ({ shared, loupe, page }) => {
    const app = await shared(HOSTILE);
    await ready(loupe, app.url, 'dup');
    await expect(page.getByText(`hostile ${XSS}`).first()).toBeVisible();
    await loupe.selectTool(`xss_${XSS}`);
    await expect(page.getByLabel(new RegExp(`^Title ${XSS.replace(/[()]/g, '\\$&')}`))).toBeVisible();
    await loupe.selectTool('hostile_result');
    await runAndWait(loupe);
    await expect(loupe.result().getByText(`unknown block type "${XSS}"`)).toBeVisible();
    await expect(loupe.result().getByText('javascript:alert("link")')).toBeVisible();
    await expect(loupe.result().locator('img')).toHaveCount(0);
    await expect(loupe.result().getByRole('list', { name: 'structuredContent tree' })).toContainText(XSS);
    await nothingInjected(page);

    await loupe.openTab('Resources');
    await page.getByRole('list', { name: 'Resources' }).getByRole('button').first().click();
    await expect(resourceRegion(page).getByText(`<p>${XSS}<script>alert("script")</script></p>`)).toBeVisible();
    await resourceRegion(page).getByRole('button', { name: 'Preview' }).click();
    await expect(resourceRegion(page).locator('iframe')).toHaveAttribute('sandbox', '');
    await expect(resourceRegion(page).getByRole('heading', { name: XSS, exact: true })).toBeVisible();
    await nothingInjected(page);

    await loupe.openTab('Prompts');
    await page.getByRole('list', { name: 'Prompts' }).getByRole('button').first().click();
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(promptRegion(page).getByText(`${XSS}<script>alert("script")</script>`)).toBeVisible();
    await expect(promptRegion(page).getByText(/has role "assistant<img/)).toBeVisible();
    await nothingInjected(page);
  });

  test('bidi overrides and control characters are made visible', async ({ shared, loupe, page }) => {
    const app = await shared(HOSTILE);
    await ready(loupe, app.url, 'dup');
    // U+202E would show "evil⟨…⟩exe.png" reversed; it is shown as a marker instead.
    await expect(loupe.toolButton('evil⟨U+202E⟩gnp.exe')).toBeVisible();
    await expect(page.getByText('bell⟨U+0007⟩null⟨U+0000⟩tab').first()).toBeVisible();
    await loupe.selectTool('hostile_result');
    await runAndWait(loupe);
    await expect(loupe.result().getByText(/evil⟨U\+202E⟩gnp\.exe bell⟨U\+0007⟩null⟨U\+0000⟩tab/)).toBeVisible();
    const raw = await page.evaluate(() => document.body.innerText.includes('\u202E'));
    expect(raw, 'no raw bidi override in the page text').toBe(false);
  });

  test('duplicate names are both selectable; odd names do not break the layout', async ({ shared, loupe, page }) => {
    const app = await shared(HOSTILE);
    await ready(loupe, app.url, 'dup');
    await expect(page.getByText('tool name "dup" appears more than once')).toBeVisible();
    const dups = loupe.toolButton('dup');
    await expect(dups).toHaveCount(2);
    await dups.nth(0).click();
    await expect(page.getByLabel(/^First dup field/)).toBeVisible();
    await dups.nth(1).click();
    await expect(page.getByLabel(/^Second dup field/)).toBeVisible();
    await expect(page.getByLabel(/^First dup field/)).toHaveCount(0);
    await page.getByLabel(/^Second dup field/).fill('second');
    await runAndWait(loupe);
    await expect(loupe.result()).toContainText('dup ran with {"second":"second"}');

    // 300 characters, emoji and spaces: selectable, runnable, and nothing overflows sideways.
    await loupe.selectTool(`long_${'x'.repeat(295)}`);
    await runAndWait(loupe);
    await loupe.selectTool('🚀 rocket tool 🔥');
    await runAndWait(loupe);
    await expect(loupe.result()).toContainText('🚀 rocket tool 🔥 ran with {}');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'horizontal overflow of the page in px').toBeLessThanOrEqual(0);
    const list = page.getByRole('list').filter({ has: loupe.toolButton('dup').first() });
    expect(await list.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  });

  test('icons: data: PNGs are drawn, remote, SVG and javascript: icons load nothing and show their URL', async ({ shared, loupe, page }) => {
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (/^https?:\/\/(?!127\.0\.0\.1)/.test(request.url())) foreign.push(request.url());
    });
    const hard = await shared(HARD);
    await ready(loupe, hard.url, 'refs_and_recursion');
    const drawn = loupe.toolEntry('refs_and_recursion').locator('img[data-icon="image"]');
    await expect(drawn).toHaveAttribute('src', /^data:image\/png;base64,/);
    expect(await drawn.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16);
    await loupe.selectTool('choices');
    await expect(page.getByText('https://icons.example.com/remote-icon.png')).toBeVisible();
    await expect(page.getByText(/Icon not shown \(remote icons are not loaded/)).toBeVisible();

    const hostile = await shared(HOSTILE);
    await ready(loupe, hostile.url, 'dup');
    await loupe.selectTool(`xss_${XSS}`);
    await expect(page.getByText('javascript:alert("icon")')).toBeVisible();
    await loupe.selectTool('evil⟨U+202E⟩gnp.exe');
    await expect(page.getByText(/Icon not shown \(SVG icons are not drawn/)).toBeVisible();
    const sources = await page.evaluate(() => Array.from(document.images).map((img) => img.getAttribute('src') ?? ''));
    expect(sources.filter((s) => !s.startsWith('data:image/png') && !s.startsWith('data:image/'))).toEqual([]);
    expect(sources.some((s) => s.startsWith('data:image/svg'))).toBe(false);
    expect(foreign, 'requests beyond Loupe').toEqual([]);
  });
});
