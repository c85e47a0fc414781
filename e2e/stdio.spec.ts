// stdio servers named on the command line, including one that writes noise on stdout.
import { expect, test } from './support/test.ts';
import { EVERYTHING } from './support/servers.ts';

const NOISY = ['node', 'e2e/fixtures/noisy-stdout.mjs'];

test.describe('a stdio server given on the command line', () => {
  test('works despite stdout noise, and shows the noise and stderr', async ({ launch, loupe, page }) => {
    const app = await launch(NOISY);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(page.getByText('noisy-stdout-fixture').first()).toBeVisible();

    await loupe.selectTool('shout');
    await loupe.fillField('text', 'psst');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('PSST!');

    // Non-JSON stdout lines, before and between messages, are kept and shown.
    await loupe.expectTextSomewhere('hello from a console.log');
    await loupe.expectTextSomewhere('noise between messages: shouting psst');
    // stderr has its own stream.
    await loupe.expectTextSomewhere('noisy-stdout: starting up (stderr line 1)');
    await loupe.expectTextSomewhere('noisy-stdout: shout called with psst (stderr)');
  });

  test('a .mjs path alone runs with node', async ({ launch, loupe, page }) => {
    const app = await launch(['e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(page.getByText('noisy-stdout-fixture').first()).toBeVisible();
  });

  test('-e adds to a safe environment; the rest of Loupe\'s environment stays out', async ({ launch, loupe }) => {
    const env = { ...process.env, LOUPE_E2E_PARENT_SECRET: 'must-not-leak-4711' };
    const app = await launch(['-e', 'LOUPE_E2E_GIVEN=given-by-the-user', 'node', EVERYTHING, 'stdio'], { env });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('get-env');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('given-by-the-user');
    await expect(loupe.result()).toContainText('LOUPE_E2E_GIVEN');
    await expect(loupe.result()).not.toContainText('must-not-leak-4711');
  });
});
