/**
 * Helpers for the Tools / Resources / Prompts specs, on top of the page object. Everything is
 * reached by role and accessible name (docs/contract.md), never by CSS.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { literal, type LoupePage } from './loupe-page.ts';

export const HARD = ['node', 'e2e/fixtures/hard-schemas.mjs'];
export const HOSTILE = ['node', 'e2e/fixtures/hostile-data.mjs'];

/** Open Loupe on `url` and wait for the session and its tools. */
export async function ready(loupe: LoupePage, url: string, firstTool: string): Promise<void> {
  await loupe.open(url);
  await loupe.waitForStatus('Connected');
  await expect(loupe.toolButton(firstTool).first()).toBeVisible();
}

/** The tool's form panel: the region around the Run tool button. */
export function form(page: Page): Locator {
  return page.locator('form').filter({ has: page.getByRole('button', { name: 'Run tool', exact: true }) });
}

/** The result's text as the page shows it. */
export async function resultJson(loupe: LoupePage): Promise<unknown> {
  const text = (await loupe.result().locator('[data-block="text"] pre').first().textContent()) ?? '';
  const json = text.slice(text.indexOf(' got ') + 5);
  return JSON.parse(json);
}

/** Run the selected tool and wait for the result of that run (a finished badge). */
export async function runAndWait(loupe: LoupePage): Promise<void> {
  await loupe.runTool();
  await expect(loupe.result().getByText(/^(ok|isError|failed|cancelled)$/).first()).toBeVisible();
}

export function resourceButton(page: Page, label: string | RegExp): Locator {
  return page.getByRole('list', { name: 'Resources', exact: true }).getByRole('button', { name: typeof label === 'string' ? literal(label) : label });
}

export function resourceRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Resource', exact: true });
}

export function promptRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Prompt result', exact: true });
}

/** A History row for `method` in a direction, counted from the table's text. */
export async function countHistory(loupe: LoupePage, method: string): Promise<number> {
  await loupe.openTab('History');
  return loupe.historyRows(method).count();
}
