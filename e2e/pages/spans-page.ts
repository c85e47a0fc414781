/**
 * The server's spans in the History (issue 28): the "Server spans" region beside the selected
 * frame, its table of spans (name, service, start, duration, status), reached by accessible names.
 */
import type { Locator, Page } from '@playwright/test';

export class SpansPage {
  constructor(readonly page: Page) {}

  region(): Locator {
    return this.page.getByRole('region', { name: 'Server spans' });
  }

  table(): Locator {
    return this.region().getByRole('table');
  }

  /** The row of the span named `name` (its row header is the button that opens the span's attributes). */
  span(name: string): Locator {
    return this.table().getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: `Span ${name}: attributes`, exact: true }) });
  }

  /** Opens the span's attributes. */
  async open(name: string): Promise<void> {
    await this.region().getByRole('button', { name: `Span ${name}: attributes`, exact: true }).click();
  }
}
