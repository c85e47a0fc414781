// Accessibility (issue 9): axe-core, injected into the real page, finds no serious or critical
// violation on any main tab or All servers view, in the light and the dark theme, with several
// servers connected (server-everything and server-memory over stdio, from one --config file).
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { AllServersPage } from './pages/all-servers-page.ts';
import type { LoupePage } from './pages/loupe-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';
import { memoryEntry, workspaceFile } from './support/workspaces.ts';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const CONNECT_MS = 30_000;
const TABS = ['Tools', 'Resources', 'Prompts', 'History', 'Notifications', 'Tasks', 'Tests'];

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe on the page as it is now: the serious and critical findings, each with the elements it names. */
async function seriousFindings(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
    const { violations } = await axe.run();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
  });
}

async function setTheme(page: Page, dark: boolean): Promise<void> {
  const toggle = page.getByRole('button', { name: /(Dark|Light) theme/ });
  // The toggle names what it does: `Light theme` while the theme is dark.
  if ((await toggle.textContent())?.includes(dark ? 'Dark theme' : 'Light theme')) await toggle.click();
  await expect(toggle).toHaveAccessibleName(dark ? 'Light theme' : 'Dark theme');
  // Until the user picks one the theme follows prefers-color-scheme (light here): no `dark` class.
  if (dark) await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
}

/** Put something on each view first, so that axe sees rows, results and badges, not empty states. */
async function fillViews(loupe: LoupePage): Promise<void> {
  await loupe.selectTool('echo');
  await loupe.fillField('message', 'axe');
  await loupe.runTool();
  await expect(loupe.result()).toContainText('Echo: axe');
  await loupe.selectTool('trigger-long-running-operation');
  await loupe.runTool();
  await expect(loupe.result()).toBeVisible({ timeout: 30_000 });
}

test.describe('accessibility (axe-core)', () => {
  // Loupe's CSP forbids inline scripts (as it should); axe is injected as one, so this browser
  // context alone ignores the CSP. The product's headers are unchanged (security.spec.ts checks them).
  test.use({ bypassCSP: true });

  test('no serious or critical violation on any tab or All servers view, light and dark, with two servers connected', async ({ launch, loupe, page }) => {
    test.setTimeout(180_000);
    const file = workspaceFile({ everything: { command: 'node', args: [EVERYTHING, 'stdio'] }, memory: memoryEntry() });
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    const all = new AllServersPage(page);
    await ws.waitForServer('everything', 'Connected', CONNECT_MS);
    await ws.waitForServer('memory', 'Connected', CONNECT_MS);
    await ws.select('everything');
    await fillViews(loupe);

    const found: Record<string, Finding[]> = {};
    for (const dark of [false, true]) {
      await setTheme(page, dark);
      const theme = dark ? 'dark' : 'light';
      for (const server of ['everything', 'memory']) {
        await ws.select(server);
        // Every tab of the main navigation, whatever was added since (and at least the six named).
        const tabs = await page.getByRole('tablist', { name: 'Main' }).getByRole('tab').allTextContents();
        const names = tabs.map((t) => t.replace(/\d+$/, '').trim());
        expect(names).toEqual(expect.arrayContaining(TABS));
        for (const tab of names) {
          const handle = page.getByRole('tablist', { name: 'Main' }).getByRole('tab', { name: tab, exact: true });
          await handle.click();
          await expect(handle).toHaveAttribute('aria-selected', 'true');
          found[`${theme} ${server} ${tab}`] = await seriousFindings(page);
        }
      }
      await all.open();
      for (const view of ['Tools', 'History'] as const) {
        await all.openView(view);
        if (view === 'Tools') await all.selectTool('everything__echo');
        else await all.rows().first().click();
        found[`${theme} All servers ${view}`] = await seriousFindings(page);
      }
    }
    const failing = Object.entries(found).filter(([, findings]) => findings.length > 0);
    expect(failing, JSON.stringify(Object.fromEntries(failing), null, 2)).toEqual([]);
  });
});
