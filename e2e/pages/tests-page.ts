/**
 * The Tests tab and `Save as test` (issue 27), reached by accessible names only: the collections,
 * `Run collection NAME`, `Run call NAME`, `Run all collections`, the results table, `Show in
 * History`, `Open recording`, and the Save as test dialog's fields.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export class TestsPage {
  constructor(readonly page: Page) {}

  tab(): Locator {
    return this.page.getByRole('tablist', { name: 'Main' }).getByRole('tab', { name: 'Tests', exact: true });
  }

  async open(): Promise<void> {
    await this.tab().click();
    await expect(this.tab()).toHaveAttribute('aria-selected', 'true');
    await expect(this.panel()).toBeVisible();
  }

  panel(): Locator {
    return this.page.getByRole('region', { name: 'Tests', exact: true });
  }

  collection(name: string): Locator {
    return this.panel().getByRole('region', { name: `Collection ${name}`, exact: true });
  }

  /** The calls listed under a collection, by name. */
  call(collection: string, name: string): Locator {
    return this.collection(collection).getByRole('listitem', { name, exact: true });
  }

  async runCollection(name: string): Promise<void> {
    await this.collection(name).getByRole('button', { name: `Run collection ${name}`, exact: true }).click();
  }

  async runCall(collection: string, name: string): Promise<void> {
    await this.collection(collection).getByRole('button', { name: `Run call ${name}`, exact: true }).click();
  }

  runAll(): Locator {
    return this.panel().getByRole('button', { name: 'Run all collections', exact: true });
  }

  /** `Server of NAME`: where the collection runs. */
  async runOn(collection: string, server: string): Promise<void> {
    await this.collection(collection).getByRole('combobox', { name: `Server of ${collection}`, exact: true }).selectOption(server);
  }

  /**
   * `Server of NAME` chosen and `Run all collections` pressed in one turn of the page, before the
   * proxy can have shown the change back: the run must use the server just chosen.
   */
  async runOnThenRunAll(collection: string, server: string): Promise<void> {
    const select = this.collection(collection).getByRole('combobox', { name: `Server of ${collection}`, exact: true });
    const button = this.runAll();
    await expect(button).toBeEnabled();
    const [selectHandle, buttonHandle] = [await select.elementHandle(), await button.elementHandle()];
    await this.page.evaluate(
      ([element, run, value]) => {
        const choose = element as HTMLSelectElement;
        choose.value = value as string;
        choose.dispatchEvent(new Event('change', { bubbles: true }));
        (run as HTMLButtonElement).click();
      },
      [selectHandle, buttonHandle, server] as const,
    );
  }

  results(collection: string): Locator {
    return this.collection(collection).getByRole('table', { name: `Results of ${collection}`, exact: true });
  }

  /** A result row, by its call's name (the row header). */
  resultRow(collection: string, call: string): Locator {
    return this.results(collection).getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: call, exact: true }) });
  }

  /** The run's summary line (`2 passed on everything in 40 ms`). */
  summary(collection: string): Locator {
    return this.collection(collection).getByRole('status').first();
  }

  async expectStatus(collection: string, call: string, status: 'passed' | 'failed' | 'error' | 'skipped'): Promise<void> {
    await expect(this.resultRow(collection, call).getByRole('cell').first(), `${collection} / ${call}`).toHaveText(status, { timeout: 30_000 });
  }

  async showInHistory(collection: string, call: string): Promise<void> {
    await this.resultRow(collection, call).getByRole('button', { name: 'Show in History', exact: true }).click();
  }

  async openRecording(path: string): Promise<void> {
    await this.panel().getByLabel('Open recording', { exact: true }).setInputFiles(path);
  }

  recordingNote(): Locator {
    return this.panel().getByRole('status', { name: 'Recording', exact: true });
  }

  async createCollection(name: string): Promise<void> {
    await this.panel().getByRole('textbox', { name: 'New collection', exact: true }).fill(name);
    await this.panel().getByRole('button', { name: 'Create collection', exact: true }).click();
  }

  // Save as test -------------------------------------------------------------------------------

  saveAsTestButton(): Locator {
    return this.page.getByRole('button', { name: 'Save as test', exact: true });
  }

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Save as test' });
  }

  /** Open the dialog (from the shown History frame or Result), fill it, save; returns the proposed assertions' labels. */
  async saveAsTest(collection: string, name?: string): Promise<string[]> {
    await this.saveAsTestButton().click();
    const dialog = this.dialog();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Collection', exact: true }).fill(collection);
    if (name !== undefined) await dialog.getByRole('textbox', { name: 'Call name', exact: true }).fill(name);
    const proposed = await dialog.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => b.closest('label')?.textContent?.trim() ?? ''));
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    return proposed;
  }
}
