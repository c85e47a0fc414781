// Forms from hard but valid input schemas (e2e/fixtures/hard-schemas.mjs): $ref/$defs and
// recursion, oneOf/anyOf at the root and inside, nullable types, titled enums, defaults, formats,
// arrays of objects, deep nesting, and the parts a form cannot draw (JSON fields, with the reason).
// Arguments are validated before sending, and "Send anyway" still sends them. One Loupe per worker
// serves the file (`shared`): each test has its own page, and none depends on the proxy's trace.
import { expect, test } from './support/test.ts';
import { HARD, ready, resultJson, runAndWait } from './pages/primitives.ts';

test.describe('tool forms from hard schemas', () => {
  test('$ref into $defs and a recursive tree that expands on demand', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'refs_and_recursion');
    await loupe.selectTool('refs_and_recursion');
    const shipping = page.getByRole('group', { name: /Shipping address/ });
    await shipping.getByLabel(/^City/).fill('Lyon');
    await shipping.getByLabel(/^Street/).fill('1 rue de la Paix');
    const tree = page.getByRole('group', { name: /^Tree/ });
    await tree.getByLabel(/^Label/).first().fill('root');
    // The recursive part: one child, then a grandchild (each level drawn only when asked for).
    await tree.getByRole('group', { name: /^Children/ }).first().getByRole('button', { name: /add/i }).first().click();
    await tree.getByLabel(/^Label/).nth(1).fill('child');
    // A property that refers to its own type: one level at a time, on request.
    const chain = page.getByRole('group', { name: /^Chain/ });
    await chain.getByLabel(/^Value/).first().fill('a');
    await expect(chain.getByText(/cycle.*detected for field "next"/i)).toBeVisible();
    await chain.getByRole('button', { name: 'Expand Cycle' }).click();
    await chain.getByLabel(/^Value/).nth(1).fill('b');
    await runAndWait(loupe);
    expect(await resultJson(loupe)).toEqual({
      shipping: { city: 'Lyon', street: '1 rue de la Paix' },
      tree: { label: 'root', children: [{ label: 'child' }] },
      chain: { value: 'a', next: { value: 'b' } },
    });
  });

  test('oneOf inside, a nullable type, titled enums and defaults prefilled', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'choices');
    await loupe.selectTool('choices');
    // Defaults: the titled enum shows its title, the plain enum its value.
    await expect(page.getByLabel(/^Colour/)).toHaveValue(/.+/);
    await expect(page.getByLabel(/^Colour/).locator('option:checked')).toHaveText('Green');
    await expect(page.getByLabel(/^Size/)).toHaveValue(/.+/);
    await expect(page.getByLabel(/^Size/).locator('option:checked')).toHaveText('M');
    // oneOf: switch from email to phone.
    await page.getByRole('combobox').filter({ has: page.locator('option', { hasText: 'By phone' }) }).selectOption({ label: 'By phone' });
    await page.getByLabel(/^Phone number/).fill('+33 1 23 45 67 89');
    await page.getByLabel(/^Colour/).selectOption({ label: 'Blue' });
    await page.getByLabel(/^Nickname/).fill('Bobby');
    await page.getByLabel(/^Maybe count/).fill('7');
    await runAndWait(loupe);
    expect(await resultJson(loupe)).toEqual({ contact: { phone: '+33 1 23 45 67 89' }, nickname: 'Bobby', color: 'b', size: 'M', maybe_count: 7 });
  });

  test('oneOf at the root', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'root_one_of');
    await loupe.selectTool('root_one_of');
    await expect(page.getByText('This tool takes no arguments.')).toHaveCount(0);
    await page.getByRole('combobox').filter({ has: page.locator('option', { hasText: 'Search by id' }) }).selectOption({ label: 'Search by id' });
    await page.getByLabel(/^Id/).fill('42');
    await runAndWait(loupe);
    expect(await resultJson(loupe)).toEqual({ id: 42 });
  });

  test('formats, arrays of objects and deep defaults; invalid values are caught, and "Send anyway" sends them', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'formats_and_defaults');
    await loupe.selectTool('formats_and_defaults');
    await expect(page.getByLabel(/^Count/)).toHaveValue('3');
    await expect(page.getByLabel(/^Greeting/)).toHaveValue('hello');
    await expect(page.getByLabel(/^Leaf/)).toHaveValue('deep default');
    await page.getByRole('group', { name: /^Lines/ }).getByRole('button', { name: /add/i }).first().click();
    await page.getByLabel(/^SKU/).fill('ABC-1');
    await page.getByLabel(/^Email/).fill('not an email');
    await page.getByLabel(/^Homepage/).fill('not a uri');
    await page.getByLabel(/^Request id/).fill('123e4567-e89b-12d3-a456-426614174000');
    await loupe.runTool();
    const mismatch = page.getByRole('alert', { name: 'Arguments do not match the schema' });
    await expect(mismatch).toContainText('/email');
    await expect(mismatch).toContainText('must match format "email"');
    await expect(mismatch).toContainText('/homepage');
    // Nothing was sent: the result region still waits.
    await expect(loupe.result()).toContainText('Run a tool to see its result here.');
    await mismatch.getByRole('button', { name: 'Send anyway' }).click();
    await expect(loupe.result()).toContainText('"email":"not an email"');
    expect(await resultJson(loupe)).toMatchObject({ email: 'not an email', count: 3, greeting: 'hello', lines: [{ sku: 'ABC-1', qty: 1 }], deep: { l2: { l3: { l4: { leaf: 'deep default' } } } } });
    // Fixed values go straight through.
    await page.getByLabel(/^Email/).fill('ada@example.com');
    await page.getByLabel(/^Homepage/).fill('https://example.com/');
    await page.getByLabel(/^When/).fill('2025-01-02T03:04');
    await runAndWait(loupe);
    await expect(mismatch).toHaveCount(0);
    expect(await resultJson(loupe)).toMatchObject({ email: 'ada@example.com', homepage: 'https://example.com/', when: expect.stringMatching(/^2025-01-0\dT\d\d:04:00\.000Z$/) });
  });

  test('parts the form cannot draw are JSON fields with the reason; the rest stays a form', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'json_fallbacks');
    await loupe.selectTool('json_fallbacks');
    await expect(page.getByText('Edited as JSON: it is a tuple (prefixItems)')).toBeVisible();
    await expect(page.getByText('Edited as JSON: it accepts several types (string, number)')).toBeVisible();
    await expect(page.getByText(/Edited as JSON: remote \$ref "https:\/\/schemas\.example\.com\/thing\.json" is not fetched/)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Not validated' })).toContainText('/properties/external');
    await page.getByLabel(/^Label/).fill('plain field');
    await page.getByLabel(/^Pair/).fill('["a", 1');
    await expect(page.getByRole('alert').filter({ hasText: 'Not valid JSON' })).toBeVisible();
    await loupe.runTool();
    await expect(page.getByRole('alert').filter({ hasText: 'Fix the JSON of Pair first' })).toBeVisible();
    await page.getByLabel(/^Pair/).fill('["a", 1]');
    await page.getByLabel(/^Either/).fill('7');
    await page.getByLabel(/^External/).fill('{"anything": [true]}');
    await runAndWait(loupe);
    expect(await resultJson(loupe)).toEqual({ label: 'plain field', pair: ['a', 1], either: 7, external: { anything: [true] } });
    // The tuple is still validated: a wrong one is caught before sending.
    await page.getByLabel(/^Pair/).fill('[1, "a"]');
    await loupe.runTool();
    await expect(page.getByRole('alert', { name: 'Arguments do not match the schema' })).toContainText('/pair/0');
  });

  test('the last arguments are remembered per tool, across a reload, and reset to defaults', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'formats_and_defaults');
    await loupe.selectTool('formats_and_defaults');
    await page.getByLabel(/^Email/).fill('ada@example.com');
    await page.getByLabel(/^Greeting/).fill('bonjour');
    await runAndWait(loupe);
    await loupe.selectTool('choices');
    await loupe.selectTool('formats_and_defaults');
    await expect(page.getByLabel(/^Greeting/)).toHaveValue('bonjour');
    await page.reload();
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('formats_and_defaults');
    await expect(page.getByLabel(/^Greeting/)).toHaveValue('bonjour');
    await expect(page.getByLabel(/^Email/)).toHaveValue('ada@example.com');
    await expect(page.getByText('Last arguments used')).toBeVisible();
    await page.getByRole('button', { name: 'Reset to defaults' }).click();
    await expect(page.getByLabel(/^Greeting/)).toHaveValue('hello');
    await expect(page.getByLabel(/^Email/)).toHaveValue('');
    await page.reload();
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('formats_and_defaults');
    await expect(page.getByLabel(/^Greeting/)).toHaveValue('hello');
  });

  test('the JSON editor sends what a buggy client would, after a warning', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'formats_and_defaults');
    await loupe.selectTool('formats_and_defaults');
    await loupe.runWithJson({ email: 42, unexpected: true });
    const mismatch = page.getByRole('alert', { name: 'Arguments do not match the schema' });
    await expect(mismatch).toContainText('/email');
    await mismatch.getByRole('button', { name: 'Send anyway' }).click();
    await expect(loupe.result()).toContainText('{"email":42,"unexpected":true}');
  });

  test('Fill example fills valid arguments made from the schema (as --smoke makes them)', async ({ shared, loupe, page }) => {
    const app = await shared(HARD);
    await ready(loupe, app.url, 'formats_and_defaults');
    await loupe.selectTool('formats_and_defaults');
    await expect(page.getByLabel(/^Email/)).toHaveValue('');
    await page.getByRole('button', { name: 'Fill example' }).click();
    // A required email is made to its format; the defaults are kept.
    await expect(page.getByLabel(/^Email/)).toHaveValue(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    await runAndWait(loupe);
    await expect(page.getByRole('alert', { name: 'Arguments do not match the schema' })).toHaveCount(0);
    const sent = (await resultJson(loupe)) as Record<string, unknown>;
    expect(sent).toMatchObject({ count: 3, greeting: 'hello' });
    expect(String(sent.email)).toContain('@');
  });
});
