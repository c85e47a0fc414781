// Elicitation: a form generated from the server's requestedSchema (defaults, titled enums,
// multi-selects, formats) answered with Accept / Decline / Cancel; and URL mode, with the URL's
// origin shown before anything is opened, and notifications/elicitation/complete.
import { ClientSide } from './pages/client-side.ts';
import { expect, test } from './support/test.ts';

test.describe('elicitation/create, form mode', () => {
  test('is accepted with the defaults the schema gives', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-elicitation-request');
    const form = client.elicitationRequest();
    await expect(form).toContainText('Please provide inputs for the following fields:');
    // Defaults prefilled; titled enums show their titles; enum arrays are multi-selects.
    await expect(form.getByLabel(/^String with default/)).toHaveValue('It was a dark and stormy night.');
    await expect(form.getByLabel(/^Integer/)).toHaveValue('42');
    await expect(form.getByRole('combobox', { name: /Titled Single Select Enum/ }).first()).toContainText('Superman');
    await expect(form.getByRole('checkbox', { name: 'Guitar' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Tuna' })).toBeChecked();
    await expect(form.getByRole('combobox', { name: /Legacy Titled/ })).toContainText('Cats');

    // The required name is missing and the email is malformed: Accept does not send.
    await form.getByLabel(/^String with email format/).fill('not an email');
    await form.getByRole('button', { name: 'Accept' }).click();
    await expect(form).toBeVisible();
    await expect(form).toContainText(/email/i);
    await client.expectPending(1);

    await form.getByLabel(/^String with email format/).fill('ada@example.com');
    await form.getByLabel(/^String\s*\*?$/).fill('Ada Lovelace');
    await form.getByRole('checkbox', { name: 'Salmon' }).check();
    await form.getByRole('button', { name: 'Accept' }).click();

    const result = loupe.result();
    await expect(result).toContainText('User provided the requested information!');
    await expect(result).toContainText('- Name: Ada Lovelace');
    await expect(result).toContainText('- Email: ada@example.com');
    await expect(result).toContainText('- Favorite Integer: 42');
    await expect(result).toContainText('"firstLine": "It was a dark and stormy night."');
    await expect(result).toContainText('"titledSingleSelectEnum": "hero-1"');
    await expect(result).toContainText('"legacyTitledEnum": "pet-1"');
    await expect(result).toContainText(/"titledMultipleSelectEnum": \[\s*"fish-1",\s*"fish-2"\s*\]/);
    await client.expectPending(0);
  });

  test('is declined, and cancelled', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-elicitation-request');
    await client.elicitationRequest().getByRole('button', { name: 'Decline' }).click();
    await expect(loupe.result()).toContainText('User declined to provide the requested information.');
    await expect(loupe.result()).toContainText('"action": "decline"');

    await loupe.runTool();
    await client.elicitationRequest().getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(loupe.result()).toContainText('User cancelled the elicitation dialog.');
    await expect(loupe.result()).toContainText('"action": "cancel"');
    await client.expectPending(0);
  });
});

test.describe('elicitation/create, URL mode', () => {
  test('shows the URL with its origin first, opens and copies it, and accepts', async ({ launch, loupe, page, context }) => {
    const client = new ClientSide(page, loupe);
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');

    // A page of Loupe's own origin stands in for the sign-in page (no network here).
    const url = `${app.origin}/sign-in?next=%2Fdone&x=%3Cb%3E`;
    await client.runTool('trigger-url-elicitation', { url });
    const request = client.elicitationRequest();
    await expect(request.getByLabel('URL origin')).toHaveText(app.origin);
    await expect(request).toContainText('Please open the link to complete this action.');
    await expect(request).toContainText('/sign-in?next=%2Fdone&x=%3Cb%3E');

    const popup = context.waitForEvent('page');
    await request.getByRole('button', { name: 'Open URL' }).click();
    const opened = await popup;
    await opened.waitForLoadState('domcontentloaded');
    expect(opened.url()).toBe(url);
    await opened.close();

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await request.getByRole('button', { name: 'Copy URL' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    await request.getByRole('button', { name: 'Accept' }).click();
    await expect(loupe.result()).toContainText('User completed the URL elicitation flow.');
    await expect(loupe.result()).toContainText('"action": "accept"');
  });

  test('marks a URL elicitation the server reports complete', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch(['node', 'e2e/fixtures/client-requests.mjs'])).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('url-then-complete', { url: 'https://auth.example.com/device' });
    const request = client.elicitationRequest();
    await expect(request.getByLabel('URL origin')).toHaveText('https://auth.example.com');
    await expect(request).toContainText('e2e-elicitation-1');
    await expect(request).toContainText('the server reports it complete');
    await request.getByRole('button', { name: 'Accept' }).click();
    await expect(loupe.result()).toContainText(/"action":\s*"accept"/);
  });
});
