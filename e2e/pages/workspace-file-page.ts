/**
 * The workspace file's side of the page (issue 9, items 4–6): `Save workspace`, `Import servers`,
 * a server's `Export`, and its `Saved calls`. Only accessible names.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { WorkspacePage } from './workspace-page.ts';

export { expectNoSeriousAxeFindings } from '../support/axe.ts';

export const EXPORT_LABELS = ['mcpServers entry', 'VS Code', 'npx mcp-loupe', 'claude mcp add'] as const;
export type ExportLabel = (typeof EXPORT_LABELS)[number];

/** A server entry's name, from its accessible name (`NAME · transport · status`), whatever the markup. */
async function nameOf(entry: Locator): Promise<string> {
  const snapshot = await entry.ariaSnapshot();
  return /button "(.*?) · /.exec(snapshot)?.[1] ?? '';
}

export class WorkspaceFilePage {
  readonly servers: WorkspacePage;

  constructor(readonly page: Page) {
    this.servers = new WorkspacePage(page);
  }

  /** The names of the servers listed, in order: each entry's accessible name up to its first ` · `. */
  async serverNames(): Promise<string[]> {
    const entries = await this.servers.serverEntries().all();
    return Promise.all(entries.map((entry) => nameOf(entry)));
  }

  /** The name of the server the page selected (e.g. the one just added). */
  async selectedName(): Promise<string> {
    return nameOf(this.servers.servers().locator('[aria-current="true"]'));
  }

  // Save

  saveForm(): Locator {
    return this.page.getByRole('region', { name: 'Save workspace' });
  }

  /** Open the form, name the file (undefined: keep the one it shows), press Save to file. */
  async save(path?: string): Promise<void> {
    if ((await this.saveForm().count()) === 0) await this.page.getByRole('button', { name: 'Save workspace', exact: true }).click();
    const form = this.saveForm();
    if (path !== undefined) await form.getByRole('textbox', { name: 'Workspace file' }).fill(path);
    await form.getByRole('button', { name: 'Save to file', exact: true }).click();
  }

  async expectSaved(path: string): Promise<void> {
    await expect(this.saveForm().getByRole('status')).toHaveText(`Saved to ${path}`);
  }

  // Import

  importForm(): Locator {
    return this.page.getByRole('region', { name: 'Import servers' });
  }

  async openImport(): Promise<Locator> {
    if ((await this.importForm().count()) === 0) await this.page.getByRole('button', { name: 'Import servers', exact: true }).click();
    return this.importForm();
  }

  async paste(text: string): Promise<Locator> {
    const form = await this.openImport();
    await form.getByRole('textbox', { name: 'Servers to import' }).fill(text);
    return form;
  }

  confirmImport(): Locator {
    return this.importForm().getByRole('button', { name: /^Import( \d+ servers?)?$/ });
  }

  // Export

  async openExport(server: string): Promise<Locator> {
    await this.servers.select(server);
    await this.servers.servers().getByRole('button', { name: `Export ${server}`, exact: true }).click();
    const panel = this.page.getByRole('region', { name: `Export ${server}` });
    await expect(panel).toBeVisible();
    return panel;
  }

  async exportText(server: string, label: ExportLabel): Promise<string> {
    const panel = await this.openExport(server);
    return panel.getByRole('textbox', { name: label, exact: true }).inputValue();
  }

  // Saved calls

  /** `Save call` next to Run tool / Read resource / Get prompt, named `name`. */
  async saveCall(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Save call', exact: true }).click();
    const group = this.page.getByRole('group', { name: 'Save call' });
    await group.getByRole('textbox', { name: 'Call name' }).fill(name);
    await group.getByRole('button', { name: 'Add to saved calls' }).click();
    await expect(this.page.getByRole('status').filter({ hasText: `Saved as ${name}` })).toBeVisible();
  }

  async openSavedCalls(): Promise<Locator> {
    const tab = this.page.getByRole('tab', { name: 'Saved calls', exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    return this.savedCalls();
  }

  savedCalls(): Locator {
    return this.page.getByRole('region', { name: 'Saved calls', exact: true });
  }

  savedCall(name: string): Locator {
    return this.savedCalls().getByRole('listitem', { name, exact: true });
  }

  async runAll(): Promise<void> {
    const button = this.savedCalls().getByRole('button', { name: 'Run all', exact: true });
    await button.click();
    await expect(button).toBeEnabled({ timeout: 30_000 });
  }
}
