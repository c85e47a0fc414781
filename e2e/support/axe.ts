/** axe-core in the page, for the accessibility checks of every spec (e2e/a11y.spec.ts has the full sweep with richer reports). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical findings on the page as it is now, one line each: the rule and the first elements it names. */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  // The page's CSP refuses inline <script> (no addScriptTag); it allows eval, which this is.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async () => {
    type Run = { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> };
    const { violations } = await (window as unknown as { axe: { run(): Promise<Run> } }).axe.run();
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Light, then dark: no serious or critical finding in either. */
export async function expectNoSeriousAxeFindings(page: Page, where: string): Promise<void> {
  const toggle = page.getByRole('button', { name: /(Dark|Light) theme/ });
  for (const dark of [false, true]) {
    // The toggle names what it does: `Light theme` while the theme is dark.
    if ((await toggle.textContent())?.includes(dark ? 'Dark theme' : 'Light theme')) await toggle.click();
    await expect(toggle).toHaveAccessibleName(dark ? 'Light theme' : 'Dark theme');
    expect(await seriousAxeFindings(page), `${where}, ${dark ? 'dark' : 'light'} theme`).toEqual([]);
  }
}
