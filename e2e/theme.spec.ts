// A light and a dark theme: the page follows the system preference, and a toggle switches it.
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';

/** Relative luminance (0 black … 1 white) of the background actually painted behind the page. */
async function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    let el: Element | null = document.elementFromPoint(5, window.innerHeight - 5);
    for (; el; el = el.parentElement) {
      const [r, g, b, a = 1] = parse(getComputedStyle(el).backgroundColor);
      if (a > 0.5) return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    }
    const [r, g, b, a = 1] = parse(getComputedStyle(document.documentElement).backgroundColor);
    return a > 0.5 ? (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 : 1; // nothing painted: white
  });
}

test.describe('themes', () => {
  test('follows the system: light, then dark', async ({ launch, loupe, page }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await page.emulateMedia({ colorScheme: 'light' });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    expect(await backgroundLuminance(page), 'light theme background').toBeGreaterThan(0.6);

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => backgroundLuminance(page), { message: 'dark theme background' }).toBeLessThan(0.4);
  });

  test('a theme toggle switches between them', async ({ launch, loupe, page }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await page.emulateMedia({ colorScheme: 'light' });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const before = await backgroundLuminance(page);
    const name = /theme|dark|light/i;
    const toggle = page.getByRole('button', { name }).or(page.getByRole('switch', { name })).or(page.getByRole('checkbox', { name })).first();
    // A toggle may cycle system → light → dark: up to three presses to reach the other theme.
    let after = before;
    for (let press = 0; press < 3 && after > before - 0.3; press++) {
      await toggle.click();
      await page.waitForTimeout(300);
      after = await backgroundLuminance(page);
    }
    expect(after, 'the toggle reaches a dark theme').toBeLessThan(before - 0.3);
  });

  test('the toggle names what it does: Dark theme in the light, Light theme in the dark', async ({ launch, loupe, page }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await page.emulateMedia({ colorScheme: 'light' });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(page.getByRole('button', { name: 'Dark theme', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Light theme', exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Dark theme', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Light theme', exact: true })).toBeVisible();
    expect(await backgroundLuminance(page), 'dark after pressing Dark theme').toBeLessThan(0.4);
    await page.getByRole('button', { name: 'Light theme', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Dark theme', exact: true })).toBeVisible();
    expect(await backgroundLuminance(page), 'light after pressing Light theme').toBeGreaterThan(0.6);
  });
});
