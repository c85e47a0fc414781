/** The Playground's Evals part (issue 27) by its accessible names: Evals tab, Case N fields, Run evals, Eval results, Failed runs. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { PlaygroundPage } from './playground-page.ts';

export interface CaseSetup {
  name: string;
  prompt: string;
  tools?: { name: string; arguments?: string }[];
  forbid?: string;
  answerContains?: string;
}

export class EvalsPage {
  readonly page: Page;
  constructor(readonly playground: PlaygroundPage) {
    this.page = playground.page;
  }

  async open(): Promise<void> {
    const tab = this.page.getByRole('tab', { name: 'Evals', exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(this.panel()).toBeVisible();
  }

  panel(): Locator {
    return this.page.getByRole('region', { name: 'Evals', exact: true });
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  field(name: string): Locator {
    return this.page.getByRole('textbox', { name, exact: true });
  }

  /** Adds a case (it becomes case `n`) and fills it in. */
  async addCase(n: number, setup: CaseSetup): Promise<void> {
    await this.button('Add case').click();
    await this.field(`Case ${n} name`).fill(setup.name);
    await this.field(`Case ${n} prompt`).fill(setup.prompt);
    for (const [j, tool] of (setup.tools ?? []).entries()) {
      await this.button(`Add expected tool to case ${n}`).click();
      await this.field(`Case ${n} expected tool ${j + 1}`).fill(tool.name);
      if (tool.arguments !== undefined) await this.field(`Arguments of case ${n} expected tool ${j + 1}`).fill(tool.arguments);
    }
    if (setup.forbid !== undefined) await this.field(`Case ${n} forbidden tools`).fill(setup.forbid);
    if (setup.answerContains !== undefined) await this.field(`Case ${n} answer contains`).fill(setup.answerContains);
  }

  status(): Locator {
    return this.panel().getByRole('status');
  }

  results(): Locator {
    return this.page.getByRole('region', { name: 'Eval results', exact: true });
  }

  /** The cell of a case (row header) and a model (column), by the model's column index. */
  cell(caseName: string, column: number): Locator {
    return this.results().getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: caseName, exact: true }) }).getByRole('cell').nth(column);
  }

  failedRun(name: string): Locator {
    return this.page.getByRole('region', { name: 'Failed runs', exact: true }).getByRole('listitem', { name, exact: true });
  }
}
