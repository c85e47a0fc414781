// A call's whole lifecycle: live progress with its message, Cancel (notifications/cancelled), a
// late answer after the cancel (logged, never shown as the result), the timeout (configurable,
// reset by progress, capped by a maximum total), and several calls in flight at once.
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import type { LoupePage } from './pages/loupe-page.ts';
import { HARD, ready, runAndWait } from './pages/primitives.ts';

async function callOptions(page: Page, options: { timeout?: string; reset?: boolean; max?: string }): Promise<void> {
  if (!(await page.getByLabel('Call timeout (seconds)').isVisible())) await page.getByText(/^Call options/).click();
  if (options.timeout !== undefined) await page.getByLabel('Call timeout (seconds)').fill(options.timeout);
  if (options.reset !== undefined) await page.getByLabel('Reset timeout on progress').setChecked(options.reset);
  if (options.max !== undefined) await page.getByLabel('Maximum call time (seconds)').fill(options.max);
}

async function slow(loupe: LoupePage, steps: number, stepMs: number, extra: { label?: string; ignoreCancel?: boolean } = {}): Promise<void> {
  await loupe.selectTool('slow_progress');
  await loupe.fillField('Steps', String(steps));
  await loupe.fillField('Step ms', String(stepMs));
  if (extra.label) await loupe.fillField('Label', extra.label);
  if (extra.ignoreCancel) await loupe.page.getByLabel(/^Ignore cancel/).check();
}

test.describe('the lifecycle of a call', () => {
  test('progress is a live bar with its message; Cancel sends notifications/cancelled', async ({ launch, loupe }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'slow_progress');
    await slow(loupe, 30, 200, { label: 'crunching' });
    await loupe.runTool();
    const bar = loupe.result().getByRole('progressbar', { name: 'Progress of slow_progress' });
    await expect(bar).toHaveAttribute('aria-valuemax', '30');
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(3);
    await expect(loupe.result().getByText(/step \d+ of 30: crunching/)).toBeVisible();
    await loupe.result().getByRole('button', { name: 'Cancel' }).click();
    await expect(loupe.result().getByText('cancelled', { exact: true })).toBeVisible();
    await expect(loupe.result()).toContainText('Cancelled');
    await expect(bar).toHaveCount(0);
    await loupe.openTab('History');
    await expect(loupe.historyRows('notifications/cancelled').first()).toBeVisible();
  });

  test('a late response after cancel is logged, not shown as the result', async ({ launch, loupe }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'slow_progress');
    // 10 steps of 300 ms: on a busy machine the Cancel click must still land before the call ends.
    await slow(loupe, 10, 300, { ignoreCancel: true });
    await loupe.runTool();
    const bar = loupe.result().getByRole('progressbar', { name: 'Progress of slow_progress' });
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(1);
    await loupe.result().getByRole('button', { name: 'Cancel' }).click();
    await expect(loupe.result().getByText('cancelled', { exact: true })).toBeVisible();
    await expect(loupe.result().getByText(/The server answered after the cancel \(trace #\d+\): the late response is in History/)).toBeVisible({ timeout: 30_000 });
    await expect(loupe.result()).not.toContainText('LATE ANSWER');
    await expect(loupe.result()).not.toContainText('slow_progress finished');
    // The late answer is in the trace: the last frame naming tools/call is the server's late response.
    await loupe.openTab('History');
    await loupe.historyRows('tools/call').last().click();
    await expect(loupe.page.getByText(/LATE ANSWER after cancel/).first()).toBeVisible();
  });

  test('the timeout is configurable, restarts on progress, and has a maximum total', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'silent');
    // Silence for 3 s against a 1 s timeout.
    await loupe.selectTool('silent');
    await loupe.fillField('Milliseconds', '3000');
    await callOptions(page, { timeout: '1' });
    await runAndWait(loupe);
    await expect(loupe.result().getByRole('alert')).toContainText(/-32001.*timed out: no answer within 1000 ms/);
    // 6 steps of 400 ms (2.4 s) against the same 1 s timeout: progress keeps it alive.
    await slow(loupe, 6, 400);
    await runAndWait(loupe);
    await expect(loupe.result()).toContainText('slow_progress finished 6 steps');
    // The same with the reset turned off: it times out.
    await callOptions(page, { reset: false });
    await runAndWait(loupe);
    await expect(loupe.result().getByRole('alert')).toContainText('no answer within 1000 ms');
    // Reset on, but at most 1.5 s in all.
    await callOptions(page, { reset: true, max: '1.5' });
    await runAndWait(loupe);
    await expect(loupe.result().getByRole('alert')).toContainText('not finished within the maximum of 1500 ms');
  });

  test('several calls in flight at once, on different tools; none blocks another', async ({ launch, loupe, page }) => {
    const app = await launch(HARD);
    await ready(loupe, app.url, 'slow_progress');
    await slow(loupe, 20, 250, { label: 'first' });
    await loupe.runTool();
    await expect(loupe.result().getByRole('progressbar')).toBeVisible();
    await loupe.selectTool('silent');
    await loupe.fillField('Milliseconds', '300');
    await runAndWait(loupe);
    await expect(loupe.result()).toContainText('silent finished');
    await loupe.selectTool('structured_valid');
    await runAndWait(loupe);
    // The slow one is still going, with its own progress and Cancel.
    const inFlight = page.getByRole('region', { name: 'Calls in flight' });
    const call = inFlight.getByRole('listitem', { name: 'Call of slow_progress' });
    await expect(call.getByRole('progressbar')).toBeVisible();
    await expect(call.getByText(/step \d+ of 20: first/)).toBeVisible();
    await call.getByRole('button', { name: 'Show' }).click();
    await expect(loupe.result().getByRole('progressbar', { name: 'Progress of slow_progress' })).toBeVisible();
    await expect(inFlight).toHaveCount(0);
    await loupe.result().getByRole('button', { name: 'Cancel' }).click();
    await expect(loupe.result().getByText('cancelled', { exact: true })).toBeVisible();
  });
});
