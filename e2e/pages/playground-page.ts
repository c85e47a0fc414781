/** The Playground tab (issue 15) by the names the issue promises: Provider, Base URL, API key, Model, Message, Send, Conversation. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { LoupePage } from './loupe-page.ts';

export interface ProviderSetup {
  provider: 'OpenAI-compatible' | 'Anthropic';
  baseUrl: string;
  key?: string;
  model: string;
}

export class PlaygroundPage {
  readonly page: Page;
  constructor(readonly loupe: LoupePage) {
    this.page = loupe.page;
  }

  async open(): Promise<void> {
    const tab = this.page.getByRole('tab', { name: 'Playground', exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }

  field(name: string): Locator {
    return this.page.getByRole('textbox', { name, exact: true });
  }

  /** `second`: the compared model's fields (`Second provider`, `Second base URL` …). */
  async setUp(setup: ProviderSetup, second = false): Promise<void> {
    const name = (word: string) => (!second ? word : /^[A-Z]{2}/.test(word) ? `Second ${word}` : `Second ${word.charAt(0).toLowerCase()}${word.slice(1)}`);
    await this.page.getByRole('combobox', { name: name('Provider'), exact: true }).selectOption({ label: setup.provider });
    await this.field(name('Base URL')).fill(setup.baseUrl);
    await this.field(name('Base URL')).blur();
    if (setup.key !== undefined) {
      // A password field has no textbox role: found by its label.
      const key = this.page.getByLabel(name('API key'), { exact: true });
      await key.fill(setup.key);
      await key.blur();
      await expect(this.page.getByText('Using the key you typed, held in Loupe’s memory only.').nth(second ? 1 : 0)).toBeVisible();
    }
    await this.field(name('Model')).fill(setup.model);
  }

  checkbox(name: string): Locator {
    return this.page.getByRole('checkbox', { name, exact: true });
  }

  async send(text: string): Promise<void> {
    await this.field('Message').fill(text);
    await this.page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  conversation(second = false): Locator {
    return this.page.getByRole('region', { name: second ? 'Conversation (second model)' : 'Conversation', exact: true });
  }

  /** The Act step of a call to `tool` (its result, the Observe step, is inside it). */
  act(tool: string, second = false): Locator {
    return this.conversation(second).getByRole('listitem', { name: `Act: ${tool}`, exact: true });
  }
}
