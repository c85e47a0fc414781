/**
 * The History and Notifications tabs, for the trace specs: filters, rows, the frame detail, the
 * raw composer, import/export and ping, reached by accessible names only.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { literal, type LoupePage } from './loupe-page.ts';

export class HistoryPage {
  readonly page: Page;

  constructor(readonly loupe: LoupePage) {
    this.page = loupe.page;
  }

  async open(): Promise<void> {
    await this.loupe.openTab('History');
    await expect(this.loupe.history()).toBeVisible();
  }

  /** Every drawn row of the frames table (the table is windowed: only rows in view are drawn). */
  rows(): Locator {
    return this.page.getByRole('table', { name: 'Frames' }).getByRole('row').filter({ hasNot: this.page.getByRole('columnheader') });
  }

  row(text: string | RegExp): Locator {
    return this.rows().filter({ hasText: typeof text === 'string' ? literal(text) : text });
  }

  /** "12 rows" or "3 of 12 rows". */
  shownCount(): Locator {
    return this.page.getByRole('status', { name: 'Rows shown' });
  }

  async expectShown(shown: number, total?: number | RegExp): Promise<void> {
    const totalText = total === undefined ? '[\\d,]+' : typeof total === 'number' ? total.toLocaleString('en') : total.source;
    await expect(this.shownCount()).toHaveText(new RegExp(`^(${shown.toLocaleString('en')} of ${totalText} rows|${shown.toLocaleString('en')} rows)$`));
  }

  /** The number after "of" in "N of M rows" (or the single number). */
  async total(): Promise<number> {
    const text = (await this.shownCount().textContent()) ?? '';
    const numbers = [...text.matchAll(/[\d,]+/g)].map((m) => Number(m[0].replace(/,/g, '')));
    return numbers[numbers.length - 1] ?? 0;
  }

  search(): Locator {
    return this.page.getByRole('searchbox', { name: 'Filter history' });
  }

  kind(name: string): Locator {
    return this.page.getByRole('group', { name: 'Kinds' }).getByRole('button', { name, exact: true });
  }

  method(): Locator {
    return this.page.getByRole('combobox', { name: 'Method' });
  }

  direction(): Locator {
    return this.page.getByRole('combobox', { name: 'Direction' });
  }

  errorsOnly(): Locator {
    return this.page.getByRole('checkbox', { name: 'Errors only' });
  }

  violationsOnly(): Locator {
    return this.page.getByRole('checkbox', { name: /^Violations only/ });
  }

  fold(): Locator {
    return this.page.getByRole('checkbox', { name: 'Fold responses into requests' });
  }

  async clearFilters(): Promise<void> {
    await this.page.getByRole('button', { name: 'Clear filters' }).click();
    if (await this.fold().isChecked()) await this.fold().uncheck();
  }

  /** The frame detail panel's content (inside the History region). */
  detail(): Locator {
    return this.loupe.history().locator('section', { has: this.page.getByRole('heading', { name: 'Frame', exact: true }) });
  }

  button(name: string | RegExp): Locator {
    return this.page.getByRole('button', { name, exact: typeof name === 'string' });
  }

  composer(): Locator {
    return this.page.getByRole('textbox', { name: 'JSON-RPC message' });
  }

  answer(): Locator {
    return this.page.getByRole('region', { name: 'Composer answer' });
  }

  /** Write a message in the raw composer and send it. */
  async compose(message: unknown): Promise<void> {
    await this.composer().fill(typeof message === 'string' ? message : JSON.stringify(message, null, 2));
    await this.button('Send').click();
  }

  async ping(): Promise<void> {
    await this.button('Ping').click();
  }

  pingResult(): Locator {
    return this.page.getByRole('status', { name: 'Ping result' });
  }
}
