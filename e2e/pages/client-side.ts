/**
 * Loupe playing the client's part (issue 4): the pending-requests panel, sampling and elicitation
 * answers, roots, capability choices and tasks, reached by accessible names only.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { LoupePage } from './loupe-page.ts';

export class ClientSide {
  constructor(
    readonly page: Page,
    readonly loupe: LoupePage,
  ) {}

  /** The panel above the tabs that lists server→client requests waiting for the user. */
  pending(): Locator {
    return this.page.getByRole('region', { name: 'Pending requests', exact: true });
  }

  /** The count badge of the panel. */
  pendingCount(): Locator {
    return this.pending().getByRole('status', { name: /\d+ pending/ });
  }

  async expectPending(count: number): Promise<void> {
    await expect(this.pendingCount(), `${count} pending server requests`).toHaveAccessibleName(`${count} pending`);
  }

  samplingRequest(): Locator {
    return this.pending().getByRole('region', { name: /^Sampling request/ }).first();
  }

  elicitationRequest(): Locator {
    return this.pending().getByRole('region', { name: /^Elicitation request/ }).first();
  }

  /** How the recently finished requests ended (opens the list). */
  async recentlyFinished(): Promise<Locator> {
    const list = this.pending().getByRole('list', { name: 'Recently finished requests' });
    if (!(await list.isVisible())) await this.pending().getByText(/^Recently finished/).click();
    return list;
  }

  /** Select a tool, fill fields (label → value), and press Run tool. */
  async runTool(name: string, fields: Record<string, string> = {}): Promise<void> {
    await this.loupe.selectTool(name);
    for (const [label, value] of Object.entries(fields)) await this.loupe.fillField(label, value);
    await this.loupe.runTool();
  }

  // Sampling

  async reply(text: string, model?: string): Promise<void> {
    const request = this.samplingRequest();
    await request.getByLabel('Reply text').fill(text);
    if (model !== undefined) await request.getByLabel('Model', { exact: true }).fill(model);
    await request.getByRole('button', { name: 'Send reply' }).click();
  }

  // Roots

  roots(): Locator {
    return this.page.getByRole('region', { name: 'Roots', exact: true });
  }

  async addRoot(uri: string, name: string): Promise<void> {
    await this.roots().getByLabel('Root URI').fill(uri);
    await this.roots().getByLabel('Root name').fill(name);
    await this.roots().getByRole('button', { name: 'Add root' }).click();
  }

  // Capabilities

  /** Open the connection form's capability choices (a disclosure). */
  async openCapabilities(): Promise<void> {
    const box = this.page.getByRole('checkbox', { name: 'Sampling', exact: true });
    await this.loupe.unfoldConnection();
    if (!(await box.isVisible())) await this.page.locator('summary').filter({ hasText: /^Client capabilities/ }).click();
    await expect(box).toBeVisible();
  }

  capability(label: string): Locator {
    return this.page.getByRole('checkbox', { name: label, exact: true });
  }

  declared(): Locator {
    return this.page.getByRole('group', { name: 'Client capabilities' });
  }

  // Tasks

  taskRun(): Locator {
    return this.page.getByRole('region', { name: 'Task run', exact: true });
  }

  tasks(): Locator {
    return this.page.getByRole('region', { name: 'Tasks', exact: true });
  }

  async openTasksTab(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Tasks', exact: true }).click();
    await expect(this.page.getByRole('tab', { name: 'Tasks', exact: true })).toHaveAttribute('aria-selected', 'true');
  }
}
