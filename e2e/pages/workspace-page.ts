/**
 * The workspace side of the page (issue 9): the Servers region, one button per server whose name
 * starts with the server's name and holds its status, `All servers`, `Add server` and the actions
 * of the selected server. Only accessible names (docs/contract.md).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { literal, type Status } from './loupe-page.ts';

export class WorkspacePage {
  constructor(readonly page: Page) {}

  servers(): Locator {
    return this.page.getByRole('region', { name: 'Servers' });
  }

  /** The server's entry: a button whose name starts with the server's name. */
  server(name: string): Locator {
    return this.servers().getByRole('button', { name: new RegExp(`^${literal(name).source} · `) });
  }

  /** Every server's entry (not All servers, not the actions). */
  serverEntries(): Locator {
    return this.servers().getByRole('button', { name: / · (stdio|http|sse) · / });
  }

  allServers(): Locator {
    return this.servers().getByRole('button', { name: 'All servers', exact: true });
  }

  async waitForServer(name: string, status: Status, timeout?: number): Promise<void> {
    await expect(this.server(name), `${name} should become ${status}`).toHaveAccessibleName(new RegExp(`· ${status}\\b`), { timeout });
  }

  async select(name: string): Promise<void> {
    await this.server(name).click();
    await expect(this.server(name)).toHaveAttribute('aria-current', 'true');
  }

  /** The form `Add server` opens, and the one `Edit` opens. */
  newServerForm(): Locator {
    return this.page.getByRole('region', { name: 'New server' });
  }

  editForm(name: string): Locator {
    return this.page.getByRole('region', { name: `Edit ${name}` });
  }

  /** Add a stdio server through the form; the page selects it once the proxy has it. */
  async addStdioServer(command: string, args: string): Promise<void> {
    await this.servers().getByRole('button', { name: 'Add server', exact: true }).click();
    const form = this.newServerForm();
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(command);
    await form.getByRole('textbox', { name: 'Arguments', exact: true }).fill(args);
    await form.getByRole('button', { name: 'Add and connect', exact: true }).click();
    await expect(form).toHaveCount(0);
  }

  /** An action of the selected server: `Connect`, `Disconnect`, `Restart`, `Edit`, `Remove`. */
  action(verb: 'Connect' | 'Disconnect' | 'Restart' | 'Edit' | 'Remove', name: string): Locator {
    return this.servers().getByRole('button', { name: `${verb} ${name}`, exact: true });
  }

  async restart(name: string): Promise<void> {
    await this.select(name);
    await this.action('Restart', name).click();
  }

  /** Remove, confirmed inside the page (no window.confirm: the suite fails on any dialog). */
  async remove(name: string): Promise<void> {
    await this.select(name);
    await this.action('Remove', name).click();
    await this.servers().getByRole('button', { name: `Yes, remove ${name}`, exact: true }).click();
  }
}
