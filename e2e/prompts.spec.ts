// Prompts: the list with arguments, a form with completions (the server's `completion/complete`,
// with the other arguments as context), and `prompts/get` shown as a conversation.
import { expect, test } from './support/test.ts';
import { HARD, promptRegion, ready, resourceRegion } from './pages/primitives.ts';

test.describe('prompts', () => {
  test('arguments with completions; the messages as a conversation with text, image and an embedded resource', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'all_content');
    await loupe.openTab('Prompts');
    const list = page.getByRole('list', { name: 'Prompts' });
    await expect(list.getByRole('listitem').filter({ hasText: 'greet' }).getByRole('list', { name: 'Arguments' })).toContainText('name *');
    await list.getByRole('button', { name: /^greet/ }).click();
    const name = page.getByRole('combobox', { name: /^name/ });
    await name.fill('Al');
    await expect(page.getByRole('listbox', { name: /Suggestions for name/ }).getByRole('option')).toHaveText(['Alice', 'Albert']);
    await name.press('ArrowDown');
    await name.press('ArrowDown');
    await name.press('Enter');
    await expect(name).toHaveValue('Albert');
    await page.getByRole('combobox', { name: /^style/ }).fill('formal');
    await page.getByRole('button', { name: 'Get prompt' }).click();
    const result = promptRegion(page);
    await expect(result.getByText('Greeting for Albert')).toBeVisible();
    const messages = result.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await expect(messages).toHaveCount(4);
    await expect(messages.nth(0)).toHaveAccessibleName('user message');
    await expect(messages.nth(0)).toContainText('Please greet Albert in a formal way.');
    await expect(messages.nth(1)).toHaveAccessibleName('assistant message');
    await expect(messages.nth(1)).toContainText('Hello, Albert!');
    await expect(messages.nth(2).getByRole('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(messages.nth(3)).toContainText('embedded resource');
    await expect(messages.nth(3)).toContainText('fixture://docs/readme.md');
    // The values typed are kept when the tab is left and come back.
    await loupe.openTab('Tools');
    await loupe.openTab('Prompts');
    await expect(page.getByRole('combobox', { name: /^name/ })).toHaveValue('Albert');
  });

  test('server-everything: completions narrowed by the other argument, and an embedded resource', async ({ launch, loupe, page }) => {
    const app = await launch();
    await ready(loupe, app.url, 'echo');
    await loupe.openTab('Prompts');
    await page.getByRole('list', { name: 'Prompts' }).getByRole('button', { name: /^completable-prompt/ }).click();
    await page.getByRole('combobox', { name: /^department/ }).fill('Eng');
    await page.getByRole('option', { name: 'Engineering' }).click();
    const lead = page.getByRole('combobox', { name: /^name/ });
    await lead.fill('');
    await lead.focus();
    await expect(page.getByRole('listbox', { name: /Suggestions for name/ }).getByRole('option')).toHaveText(['Alice', 'Bob', 'Charlie']);
    await page.getByRole('option', { name: 'Bob' }).click();
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(promptRegion(page)).toContainText('Please promote Bob to the head of the Engineering team.');

    await page.getByRole('list', { name: 'Prompts' }).getByRole('button', { name: /^resource-prompt/ }).click();
    await page.getByRole('combobox', { name: /^resourceType/ }).fill('Te');
    await page.getByRole('option', { name: 'Text' }).click();
    await page.getByRole('combobox', { name: /^resourceId/ }).fill('3');
    // Suggestions may open over the button; a keyboard user closes them with Escape.
    await page.getByRole('combobox', { name: /^resourceId/ }).press('Escape');
    await expect(page.getByRole('listbox', { name: /Suggestions for resourceId/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(promptRegion(page)).toContainText('embedded resource');
    await expect(promptRegion(page)).toContainText('Resource 3: This is a plaintext resource');
  });

  test('a missing required argument is sent anyway, and the server error is shown', async ({ launch, loupe, page }) => {
    const app = await launch();
    await ready(loupe, app.url, 'echo');
    await loupe.openTab('Prompts');
    await page.getByRole('list', { name: 'Prompts' }).getByRole('button', { name: /^args-prompt/ }).click();
    await expect(page.getByText(/Required and empty: city/)).toBeVisible();
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(promptRegion(page).getByRole('alert')).toContainText(/JSON-RPC error -32602/);
    await page.getByRole('combobox', { name: /^city/ }).fill('Paris');
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(promptRegion(page)).toContainText('Paris');
    expect(await resourceRegion(page).count()).toBe(0);
  });
});
