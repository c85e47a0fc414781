/**
 * The protocol generation on the page (issue 12): the `Protocol` choice of the connection form
 * and the server editor, the `Protocol` region that says what is in use and why, the
 * Subscriptions region and `Log level` of a 2026-07-28 session, and the raw composer's `HTTP
 * headers`. Accessible names only (docs/contract.md).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { LoupePage } from './loupe-page.ts';

export type ProtocolLabel = '2025-11-25 (sessions)' | '2026-07-28 (stateless)' | 'Auto';

export class ProtocolPage {
  readonly page: Page;

  constructor(readonly loupe: LoupePage) {
    this.page = loupe.page;
  }

  connection(): Locator {
    return this.page.getByRole('region', { name: 'Connection', exact: true });
  }

  /** The Protocol combobox of a form (the connection panel's by default). */
  choice(within: Locator = this.connection()): Locator {
    return within.getByRole('combobox', { name: 'Protocol', exact: true });
  }

  /** What the session speaks and why (the connection panel's region). */
  region(): Locator {
    return this.page.getByRole('region', { name: 'Protocol', exact: true });
  }

  /** Fill the connection panel with a stdio target and a protocol choice, then Connect. */
  async connectCommand(command: string, args: string, protocol: ProtocolLabel): Promise<void> {
    if (!(await this.loupe.command().isVisible())) await this.loupe.chooseTransport(/stdio/i);
    await this.loupe.command().fill(command);
    await this.loupe.arguments().fill(args);
    await this.choice().selectOption({ label: protocol });
    await this.loupe.connect();
  }

  /** The same with a Streamable HTTP URL. */
  async connectUrl(url: string, protocol: ProtocolLabel): Promise<void> {
    if (!(await this.loupe.urlField().isVisible())) await this.loupe.chooseTransport(/streamable http/i);
    await this.loupe.urlField().fill(url);
    await this.choice().selectOption({ label: protocol });
    await this.loupe.connect();
  }

  /** Waits for the region to name the generation in use. */
  async expectSpeaking(label: '2025-11-25 (sessions)' | '2026-07-28 (stateless)', version: string): Promise<void> {
    await expect(this.region(), `the Protocol region should say ${label}`).toContainText(label, { timeout: 20_000 });
    await expect(this.region()).toContainText(`protocolVersion ${version}`);
  }

  /** A row of the region's verdict: `Asked for`, `Concluded`, `Why`, `Probe`, `Answer`. */
  verdict(term: 'Asked for' | 'Concluded' | 'Why' | 'Probe' | 'Answer'): Locator {
    return this.region().locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
  }

  // Notifications tab, 2026-07-28 session.

  subscriptions(): Locator {
    return this.page.getByRole('region', { name: 'Subscriptions', exact: true });
  }

  listenState(): Locator {
    return this.subscriptions().getByRole('status', { name: 'Listen state' });
  }

  logLevel(): Locator {
    return this.page.getByRole('combobox', { name: 'Log level', exact: true });
  }

  logLevelInUse(): Locator {
    return this.page.getByRole('status', { name: 'Log level in use' });
  }

  // History tab.

  headers(): Locator {
    return this.page.getByRole('textbox', { name: 'HTTP headers', exact: true });
  }
}
