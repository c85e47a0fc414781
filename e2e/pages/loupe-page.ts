/**
 * The Loupe page, reached only through the accessible names of docs/contract.md ("In the browser").
 * Specs say what a user does (`selectTool('echo')`); this file knows how.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type Status = 'Connected' | 'Connecting' | 'Disconnected' | 'Failed';
export type TabName = 'Tools' | 'Resources' | 'Prompts' | 'History' | 'Notifications';

const STATUS_WORDS = /\b(Connected|Connecting|Disconnected|Failed)\b/;

/** A regexp that matches `text` literally. */
export function literal(text: string, flags = ''): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
}

export class LoupePage {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
  }

  // ---------------------------------------------------------------------------------------------
  // Connection panel

  /** The connection status (role `status` whose text is one of the four states). */
  status(): Locator {
    return this.page.getByRole('status').filter({ hasText: STATUS_WORDS }).first();
  }

  /** Waits until the status reads `state` (whole word: `Connected` never matches `Disconnected`). */
  /** `timeout`: 30 s unless given (a server's start on a loaded machine; a hang is what it tells apart). */
  async waitForStatus(state: Status, timeout = 30_000): Promise<void> {
    await expect(this.status(), `connection status should become ${state}`).toContainText(new RegExp(`\\b${state}\\b`), { timeout });
  }

  command(): Locator {
    return this.page.getByRole('textbox', { name: 'Command', exact: true });
  }

  arguments(): Locator {
    return this.page.getByRole('textbox', { name: 'Arguments', exact: true });
  }

  urlField(): Locator {
    return this.page.getByRole('textbox', { name: 'URL', exact: true });
  }

  transport(): Locator {
    return this.page.getByRole('combobox', { name: 'Transport' });
  }

  connectButton(): Locator {
    return this.page.getByRole('button', { name: 'Connect', exact: true });
  }

  disconnectButton(): Locator {
    return this.page.getByRole('button', { name: 'Disconnect', exact: true });
  }

  async connect(): Promise<void> {
    await this.connectButton().click();
  }

  async disconnect(): Promise<void> {
    await this.disconnectButton().click();
  }

  /** `Cancel` while connecting (docs/contract.md). */
  cancelButton(): Locator {
    return this.page.getByRole('button', { name: 'Cancel', exact: true });
  }

  /** The connection form's Connect timeout, in seconds. */
  connectTimeoutField(): Locator {
    return this.page.getByRole('spinbutton', { name: /^Connect timeout/ });
  }

  /** The ticking "Waiting for initialize: N s" line shown while connecting. */
  connectingElapsed(): Locator {
    return this.page.getByText(/Waiting for\s*initialize: \d+ s/);
  }

  /**
   * Enter a stdio target in the connection panel (choosing the stdio transport first when the
   * panel shows the fields by transport), then press Connect.
   */
  async connectToCommand(command: string, args: string): Promise<void> {
    await this.unfoldConnection();
    if (!(await this.command().isVisible())) await this.chooseTransport(/stdio/i);
    await this.command().fill(command);
    await this.arguments().fill(args);
    await this.pressConnect();
  }

  /** Enter a URL target in the connection panel, then press Connect. */
  async connectToUrl(url: string): Promise<void> {
    await this.unfoldConnection();
    if (!(await this.urlField().isVisible())) await this.chooseTransport(/http/i);
    await this.urlField().fill(url);
    await this.pressConnect();
  }

  /** Connect; a panel that only offers Disconnect while connected gets that first. */
  private async pressConnect(): Promise<void> {
    const connect = this.connectButton();
    const offersConnect = (await connect.isVisible()) && (await connect.isEnabled());
    if (!offersConnect && (await this.disconnectButton().isEnabled().catch(() => false))) {
      await this.disconnect();
    }
    await connect.click();
  }

  /** `Edit connection`: a connected session's form is folded to one line (issue 26); this opens it. */
  editConnectionButton(): Locator {
    return this.page.getByRole('button', { name: 'Edit connection', exact: true });
  }

  /** Open the folded connection form, when it is folded. */
  async unfoldConnection(): Promise<void> {
    if (await this.editConnectionButton().isVisible()) {
      await this.editConnectionButton().click();
      await expect(this.transport()).toBeVisible();
    }
  }

  /** Pick an option of the Transport combobox, native `<select>` or ARIA listbox alike. */
  async chooseTransport(option: RegExp): Promise<void> {
    await this.unfoldConnection();
    const box = this.transport();
    const native = await box.evaluate((el) => el.tagName === 'SELECT');
    if (native) {
      const labels = await box.locator('option').allTextContents();
      const label = labels.find((l) => option.test(l));
      if (!label) throw new Error(`Transport has no option matching ${option}: ${labels.join(', ')}`);
      await box.selectOption({ label });
    } else {
      await box.click();
      await this.page.getByRole('option', { name: option }).first().click();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Navigation

  tab(name: TabName): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  async openTab(name: TabName): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute('aria-selected', 'true');
  }

  // ---------------------------------------------------------------------------------------------
  // Tools

  /** The button of a tool in the list: its name, possibly followed by its title. */
  toolButton(name: string): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^${literal(name).source}(\\s|$)`) });
  }

  /**
   * The tool's entry in the list: its list item (or row, or option) when there is one, else the
   * button's parent. Badges and marks live here.
   */
  toolEntry(name: string): Locator {
    const button = this.toolButton(name);
    const item = button.locator('xpath=ancestor-or-self::*[self::li or @role="listitem" or @role="row" or @role="option"][1]');
    return item.or(button.locator('xpath=..')).first();
  }

  async selectTool(name: string): Promise<void> {
    if ((await this.tab('Tools').getAttribute('aria-selected')) !== 'true') await this.openTab('Tools');
    await this.toolButton(name).click();
  }

  /** A field of the tool form, by its title or property name (a required marker may follow). */
  field(label: string): Locator {
    return this.page.getByLabel(new RegExp(`^\\s*${literal(label).source}\\b`));
  }

  async fillField(label: string, value: string): Promise<void> {
    await this.field(label).fill(value);
  }

  runButton(): Locator {
    return this.page.getByRole('button', { name: 'Run tool', exact: true });
  }

  async runTool(): Promise<void> {
    await this.runButton().click();
  }

  result(): Locator {
    return this.page.getByRole('region', { name: 'Result', exact: true });
  }

  /** The "edit as JSON" switch of the tool form (a switch, checkbox, tab or button). */
  editAsJsonSwitch(): Locator {
    const name = /edit as json/i;
    return this.page
      .getByRole('switch', { name })
      .or(this.page.getByRole('checkbox', { name }))
      .or(this.page.getByRole('button', { name }))
      .or(this.page.getByRole('tab', { name }))
      .first();
  }

  /**
   * The JSON editor of the arguments, once "edit as JSON" is on: the one multi-line text box whose
   * name mentions JSON (docs/contract.md does not name it yet).
   */
  jsonEditor(): Locator {
    return this.page.getByRole('textbox', { name: /json/i });
  }

  /** Turn "edit as JSON" on (a tool with an unusable schema may open with it on already), fill, run. */
  async runWithJson(args: unknown): Promise<void> {
    const toggle = this.editAsJsonSwitch();
    if (!(await toggle.isChecked().catch(() => false))) await toggle.click();
    await this.jsonEditor().fill(JSON.stringify(args));
    await this.runTool();
  }

  // ---------------------------------------------------------------------------------------------
  // History

  history(): Locator {
    return this.page.getByRole('region', { name: 'History', exact: true });
  }

  /**
   * History rows that name `method`. A row is whatever the region lists (table rows, list items
   * or buttons); we take the innermost element that carries the method text.
   */
  /** Types into the History filter (text anywhere in the raw JSON): the list is virtualised, so
   * rows far from the tail are only in the page once the filter brings them close. */
  async filterHistory(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Filter history' }).fill(text);
  }

  /** Shows only frames of this method (requests, their responses, notifications); '' for all. */
  async filterHistoryMethod(method: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Method' }).selectOption(method === '' ? { index: 0 } : method);
  }

  historyRows(method: string): Locator {
    const rows = this.history().locator('[role=row], tr, li, [role=listitem], [role=option]');
    return rows.filter({ hasText: literal(method) }).filter({ hasNot: this.page.locator('[role=row], tr, li, [role=listitem], [role=option]') });
  }

  /**
   * Looks for `text` on the page as it is, then in each tab in turn: where the UI shows stderr or
   * stdout noise is not part of the contract, only that it is visible somewhere.
   */
  async expectTextSomewhere(text: string | RegExp, timeout = 10_000): Promise<void> {
    const target = this.page.getByText(text).first();
    const deadline = Date.now() + timeout;
    const places: Array<TabName | null> = [null, 'History', 'Notifications', 'Tools'];
    for (;;) {
      for (const place of places) {
        if (place && (await this.tab(place).count()) > 0) await this.tab(place).click();
        if (await target.isVisible()) return;
      }
      if (Date.now() > deadline) break;
      await this.page.waitForTimeout(250);
    }
    await expect(target, `"${String(text)}" should be visible on some tab`).toBeVisible({ timeout: 1 });
  }
}
