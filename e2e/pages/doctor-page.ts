/**
 * The Doctor tab (issue 14): `Run doctor`, the `Doctor report` region with its summary, severity
 * filter and findings grouped by thing, `Copy as Markdown`, and the tool definitions export
 * (`Export format`, `Tool definitions`, `Copy definitions`, `Download definitions`). Reached by
 * accessible names only (docs/contract.md).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { literal, type LoupePage } from './loupe-page.ts';

export type GroupName = 'Server' | 'Frames' | `Tool ${string}` | `Resource ${string}` | `Resource template ${string}` | `Prompt ${string}`;

export class DoctorPage {
  readonly page: Page;

  constructor(readonly loupe: LoupePage) {
    this.page = loupe.page;
  }

  tab(): Locator {
    return this.page.getByRole('tablist', { name: 'Main' }).getByRole('tab', { name: 'Doctor', exact: true });
  }

  async open(): Promise<void> {
    await this.tab().click();
    await expect(this.tab()).toHaveAttribute('aria-selected', 'true');
    await expect(this.report()).toBeVisible();
  }

  report(): Locator {
    return this.page.getByRole('region', { name: 'Doctor report', exact: true });
  }

  runButton(): Locator {
    return this.report().getByRole('button', { name: 'Run doctor', exact: true });
  }

  /** The live status beside the button: the summary once a report is in (`2 errors · 5 warnings · 3 info`). */
  summary(): Locator {
    return this.report().getByRole('status').filter({ hasText: /\d+ errors? · \d+ warnings? · \d+ info|Examining/ });
  }

  /** Run the doctor and wait for its report (the summary replaces the "Examining" line). */
  async run(timeout = 30_000): Promise<void> {
    await this.runButton().click();
    await expect(this.summary()).toHaveText(/^\d+ errors? · \d+ warnings? · \d+ info$/, { timeout });
  }

  /** The summary's three counts. */
  async counts(): Promise<{ error: number; warning: number; info: number }> {
    const text = (await this.summary().textContent()) ?? '';
    const match = /(\d+) errors? · (\d+) warnings? · (\d+) info/.exec(text);
    if (!match) throw new Error(`no summary in "${text}"`);
    return { error: Number(match[1]), warning: Number(match[2]), info: Number(match[3]) };
  }

  /** A group of findings: `Server`, `Tool NAME`, `Prompt NAME` …, `Frames`. */
  group(name: GroupName | RegExp): Locator {
    const pattern = typeof name === 'string' ? new RegExp(`^${literal(name).source}( \\(\\d+\\))?$`) : name;
    return this.report().getByRole('group', { name: pattern });
  }

  /** Every group's heading text, in order. */
  async groupNames(): Promise<string[]> {
    const names = await this.report().getByRole('group').evaluateAll((els) => els.map((el) => el.getAttribute('aria-labelledby') ?? '').map((id) => document.getElementById(id)?.textContent ?? ''));
    return names.filter((n) => n !== '').map((n) => n.replace(/\s*\(\d+\)$/, ''));
  }

  /** The findings (list items) of a group, or of the whole report. */
  findings(group?: GroupName | RegExp): Locator {
    return (group === undefined ? this.report() : this.group(group)).getByRole('listitem').filter({ hasText: /^(Error|Warning|Info)/ });
  }

  /** The findings with this severity word (`Error`, `Warning`, `Info`). */
  findingsOf(severity: 'Error' | 'Warning' | 'Info', group?: GroupName | RegExp): Locator {
    return this.findings(group).filter({ hasText: new RegExp(`^${severity}`) });
  }

  /** The finding of a group with this rule (the rule is shown as code, exactly). */
  finding(group: GroupName | RegExp, rule: string): Locator {
    return this.findings(group).filter({ has: this.page.locator('code').getByText(rule, { exact: true }) });
  }

  /** Each listed finding's severity word and rule, in order. */
  async entries(group?: GroupName | RegExp): Promise<{ severity: string; rule: string }[]> {
    return this.findings(group).evaluateAll((items) =>
      items.map((item) => ({ severity: /^(Error|Warning|Info)/.exec(item.textContent ?? '')?.[1] ?? '', rule: item.querySelector('code')?.textContent ?? '' })),
    );
  }

  /** The report's grouping (issue 26): `By rule` (the default: errors first, one line per rule) or `By thing`. */
  grouping(label: 'By rule' | 'By thing'): Locator {
    return this.report().getByRole('radiogroup', { name: 'Group findings' }).getByRole('radio', { name: label, exact: true });
  }

  async groupBy(label: 'By rule' | 'By thing'): Promise<void> {
    await this.grouping(label).check();
    await expect(this.grouping(label)).toBeChecked();
  }

  severityBox(label: 'Errors' | 'Warnings' | 'Info'): Locator {
    return this.report().getByRole('checkbox', { name: label, exact: true });
  }

  copyMarkdown(): Locator {
    return this.report().getByRole('button', { name: 'Copy as Markdown', exact: true });
  }

  exportPanel(): Locator {
    return this.page.getByRole('region', { name: 'Export tool definitions', exact: true });
  }

  exportFormat(): Locator {
    return this.exportPanel().getByRole('combobox', { name: 'Export format', exact: true });
  }

  definitions(): Locator {
    return this.exportPanel().getByRole('textbox', { name: 'Tool definitions', exact: true });
  }

  async chooseFormat(label: 'OpenAI' | 'Anthropic' | 'Gemini'): Promise<void> {
    await this.exportFormat().selectOption({ label });
  }

  /** The exported definitions, parsed. */
  async definitionsJson(): Promise<unknown> {
    await expect(this.definitions()).not.toHaveValue('');
    return JSON.parse(await this.definitions().inputValue());
  }
}
