/**
 * The OAuth tab (issue 11; cross-app access, issue 29): its settings form — the sign-in method and,
 * for cross-app access, the IdP's — and the guided flow's step cards, by their accessible names.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export interface CrossAppSettings {
  clientId: string;
  clientSecret: string;
  idpTokenEndpoint: string;
  idpClientId: string;
  idToken: string;
}

export class OAuthPage {
  constructor(readonly page: Page) {}

  region(): Locator {
    return this.page.getByRole('region', { name: 'OAuth' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'OAuth', exact: true }).click();
    await expect(this.settings()).toBeVisible();
  }

  settings(): Locator {
    return this.region().getByRole('form', { name: 'OAuth settings' });
  }

  /** Sign-in state's facts and its error, as the OAuth tab shows them. */
  signIn(): Locator {
    return this.region().getByRole('region', { name: 'Sign-in' });
  }

  /** Chooses cross-app access, fills the client at the authorization server and the IdP's settings, and saves. */
  async useCrossApp(settings: CrossAppSettings): Promise<void> {
    const form = this.settings();
    await form.getByRole('combobox', { name: 'Sign-in method' }).selectOption({ label: 'Cross-app access (enterprise IdP)' });
    await form.getByRole('textbox', { name: 'Client ID', exact: true }).fill(settings.clientId);
    await form.getByLabel('Client secret', { exact: true }).fill(settings.clientSecret);
    await form.getByRole('textbox', { name: 'IdP token endpoint' }).fill(settings.idpTokenEndpoint);
    await form.getByRole('textbox', { name: 'IdP client ID' }).fill(settings.idpClientId);
    await form.getByLabel('ID token', { exact: true }).fill(settings.idToken);
    await form.getByRole('button', { name: 'Save settings' }).click();
    // The proxy answers with the settings it keeps: the token only as "set".
    await expect(this.settings().getByText('An ID token is set (Loupe keeps it; it is never shown).')).toBeVisible();
    await expect(this.settings().getByLabel('ID token', { exact: true })).toHaveValue('');
  }

  guided(): Locator {
    return this.region().getByRole('region', { name: 'Guided flow' });
  }

  step(n: number): Locator {
    return this.guided().getByRole('list', { name: 'Guided steps' }).getByRole('region', { name: new RegExp(`^Step ${n}: `) });
  }

  async startGuided(): Promise<void> {
    await this.guided().getByRole('button', { name: 'Start guided flow' }).click();
    await this.expectSettled(1);
  }

  async expectSettled(n: number): Promise<void> {
    await expect(this.step(n).getByRole('status'), `step ${n} should end`).toHaveText(/^(Passed|Failed|Skipped)$/, { timeout: 20_000 });
  }

  async continueStep(n: number): Promise<void> {
    await this.step(n).getByRole('button', { name: 'Continue', exact: true }).click();
    await this.expectSettled(n);
  }

  /** Opens the first exchange of step `n`; its Request and Response groups. */
  async exchange(n: number): Promise<{ request: Locator; response: Locator }> {
    const card = this.step(n);
    await card.locator('summary').first().click();
    return { request: card.getByRole('group', { name: 'Request' }).first(), response: card.getByRole('group', { name: 'Response' }).first() };
  }
}
