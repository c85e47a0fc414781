/**
 * MCP Apps views (issue 24), reached by accessible names only: the region `View: <tool>` under a
 * tool's result with its `View status`, the sandbox frame (`View of <tool>`) and the view inside
 * it, the `Host context` group, `Replay to view`, `Tear down` / `Mount again`, and the `Asks`,
 * `Model context` and `Content-Security-Policy` regions.
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { literal, type LoupePage } from './loupe-page.ts';

export const APPS_SERVER = ['node', 'e2e/fixtures/apps-server.mjs'];

export class AppsPage {
  readonly page: Page;

  constructor(readonly loupe: LoupePage) {
    this.page = loupe.page;
  }

  /** Opens Loupe on the apps fixture and waits until it is connected. */
  async start(url: string): Promise<void> {
    await this.loupe.open(url);
    await this.loupe.waitForStatus('Connected');
  }

  /** Selects `tool`, fills its fields (by label), and runs it. */
  async run(tool: string, fields: Record<string, string> = {}): Promise<void> {
    await this.loupe.selectTool(tool);
    for (const [label, value] of Object.entries(fields)) await this.loupe.fillField(label, value);
    await this.loupe.runTool();
  }

  view(tool: string): Locator {
    return this.page.getByRole('region', { name: `View: ${tool}`, exact: true });
  }

  status(tool: string): Locator {
    return this.view(tool).getByRole('status', { name: 'View status' });
  }

  /** The sandbox's iframe, on the sandbox's own origin. */
  sandbox(tool: string): Locator {
    return this.view(tool).locator(`iframe[title="View of ${tool}"]`);
  }

  /** The server's view, inside the sandbox. */
  content(tool: string): FrameLocator {
    return this.page.frameLocator(`iframe[title="View of ${tool}"]`).frameLocator('iframe');
  }

  /** One value of the view's own report, by its output's id (apps-server.mjs: `count`, `tool-input`, `fetch`…). */
  output(tool: string, id: string): Locator {
    return this.content(tool).locator(`output#${id}`);
  }

  viewButton(tool: string, name: string): Locator {
    return this.content(tool).getByRole('button', { name, exact: true });
  }

  /** Waits until Loupe says the view initialized and the view says it is connected (its buttons are enabled then). */
  async waitReady(tool: string): Promise<void> {
    await expect(this.status(tool)).toHaveText(/Initialized/, { timeout: 20_000 });
    await expect(this.output(tool, 'status')).toHaveText('Connected');
  }

  hostContext(tool: string): Locator {
    return this.view(tool).getByRole('group', { name: 'Host context', exact: true });
  }

  /** A field of the host context by its name: a combobox, a text or number field, or a checkbox. */
  control(tool: string, name: string): Locator {
    const group = this.hostContext(tool);
    const options = { name, exact: true };
    return group.getByRole('combobox', options).or(group.getByRole('textbox', options)).or(group.getByRole('spinbutton', options)).or(group.getByRole('checkbox', options));
  }

  /** Types into a text field of the host context and sends it (Enter). */
  async setText(tool: string, name: string, value: string): Promise<void> {
    const field = this.control(tool, name);
    await field.fill(value);
    await field.press('Enter');
  }

  /**
   * Sends several text fields of the host context in one go, as a user quicker than the proxy's
   * answer would (each typed and Enter pressed before the page has heard back about the first).
   */
  async commitTogether(tool: string, values: Record<string, string>): Promise<void> {
    const fields = await Promise.all(Object.entries(values).map(async ([name, value]) => ({ handle: await this.control(tool, name).elementHandle(), value })));
    await this.page.evaluate((list) => {
      for (const { handle, value } of list) {
        const input = handle as HTMLInputElement;
        input.value = value;
        input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      }
    }, fields);
  }

  asks(tool: string): Locator {
    return this.view(tool).getByRole('region', { name: 'Asks', exact: true });
  }

  ask(tool: string, text: string | RegExp): Locator {
    return this.asks(tool).getByRole('listitem').filter({ hasText: typeof text === 'string' ? literal(text) : text });
  }

  modelContext(tool: string): Locator {
    return this.view(tool).getByRole('region', { name: 'Model context', exact: true });
  }

  csp(tool: string): Locator {
    return this.view(tool).getByRole('region', { name: 'Content-Security-Policy', exact: true });
  }

  button(tool: string, name: string): Locator {
    return this.view(tool).getByRole('button', { name, exact: true });
  }

  replayGroup(tool: string): Locator {
    return this.view(tool).getByRole('group', { name: 'Replay to view', exact: true });
  }
}
