/**
 * The `All servers` views (issue 9): every server's tools as `server__tool` (region `All tools`)
 * and the merged History (region `History`, a `Server` column, the `Server filter`). Only
 * accessible names (docs/contract.md).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { literal } from './loupe-page.ts';

export class AllServersPage {
  constructor(readonly page: Page) {}

  region(): Locator {
    return this.page.getByRole('region', { name: 'All servers', exact: true });
  }

  async open(): Promise<void> {
    await this.page.getByRole('region', { name: 'Servers' }).getByRole('button', { name: 'All servers', exact: true }).click();
    await expect(this.region()).toBeVisible();
  }

  tab(name: 'Tools' | 'History'): Locator {
    return this.region().getByRole('tab', { name, exact: true });
  }

  async openView(name: 'Tools' | 'History'): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute('aria-selected', 'true');
  }

  // Tools ------------------------------------------------------------------------------------

  tools(): Locator {
    return this.region().getByRole('region', { name: 'All tools', exact: true });
  }

  search(): Locator {
    return this.tools().getByRole('searchbox', { name: 'Search all tools' });
  }

  /** A tool's button: its namespaced name, then (maybe) its title and what is wrong with it. */
  toolButton(name: string): Locator {
    return this.tools().getByRole('button', { name: new RegExp(`^${literal(name).source}(\\s|$)`) });
  }

  /** Every tool button of the list. */
  toolButtons(): Locator {
    return this.tools().getByRole('list', { name: 'Tools of every server' }).getByRole('button');
  }

  async selectTool(name: string): Promise<void> {
    if ((await this.tab('Tools').getAttribute('aria-selected')) !== 'true') await this.openView('Tools');
    await this.toolButton(name).click();
    await expect(this.toolButton(name)).toHaveAttribute('aria-pressed', 'true');
  }

  /** The form of the selected tool: a region named after the server that runs it. */
  toolForm(): Locator {
    return this.region().getByRole('region', { name: /^Tool form of / });
  }

  // History ----------------------------------------------------------------------------------

  history(): Locator {
    return this.region().getByRole('region', { name: 'History', exact: true });
  }

  table(): Locator {
    return this.history().getByRole('table', { name: 'Frames' });
  }

  rows(): Locator {
    return this.table().getByRole('row').filter({ hasNot: this.page.getByRole('columnheader') });
  }

  serverFilter(): Locator {
    return this.history().getByRole('combobox', { name: 'Server filter' });
  }

  /** The text of one column of every drawn row, by its header's name. */
  async column(name: string): Promise<string[]> {
    const headers = await this.table().getByRole('columnheader').allTextContents();
    const at = headers.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
    expect(at, `a column named ${name}`).toBeGreaterThanOrEqual(0);
    const rows = await this.rows().all();
    return Promise.all(rows.map(async (row) => ((await row.getByRole('cell').nth(at).textContent()) ?? '').trim()));
  }
}
