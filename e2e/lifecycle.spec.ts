// Issue 8: connecting shows a timer and Cancel, the connect timeout is an option, and a call dies
// with its server at once (exit code and stderr tail shown), even a 20 MB one the server chokes on.
import { expect, test } from './support/test.ts';
import { descendants, commandOf, pollUntil } from './support/processes.ts';

const NEVER = ['node', 'e2e/fixtures/never-initialize.mjs'];

/** Loupe's descendants whose command line mentions `needle`. */
const running = (root: number, needle: string): number[] => descendants(root).filter((pid) => commandOf(pid).includes(needle));

test.describe('connect lifecycle', () => {
  test('connecting shows the elapsed time, the deadline and Cancel; Cancel stops the server at once', async ({ launch, loupe }) => {
    const app = await launch(NEVER);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connecting');
    await expect(loupe.connectingElapsed()).toContainText('(Loupe gives up after 30 s)');
    // It ticks: the seconds go up while the server says nothing.
    await expect(loupe.connectingElapsed()).toContainText(/initialize: [2-9] s/, { timeout: 30_000 });
    expect(running(app.pid, 'never-initialize.mjs').length, 'the server runs').toBe(1);

    await loupe.cancelButton().click();
    // Bounds here only tell an answer from a hang (far from the typical second); how fast is bench/'s.
    await loupe.waitForStatus('Disconnected', 25_000);
    await expect(loupe.page.getByText(/Cancelled by you/)).toBeVisible();
    await expect(loupe.cancelButton()).toHaveCount(0);
    // The server ignores SIGTERM: it goes with the SIGKILL after the grace.
    expect(await pollUntil(() => running(app.pid, 'never-initialize.mjs').length === 0, 15_000), 'the server is stopped').toBe(true);
  });

  test('--connect-timeout 1500 gives the timeout sentence, not the default 30 s', async ({ launch, loupe }) => {
    const app = await launch(NEVER, { options: ['--no-open', '--port', '0', '--connect-timeout', '1500'] });
    await loupe.open(app.url);
    // Failed before the default 30 s could have passed; the sentence below names the 1.5 s it used.
    await loupe.waitForStatus('Failed', 25_000);
    await expect(loupe.page.getByRole('region', { name: 'Connection' }).getByText('The server did not answer initialize within 1.5 s (--connect-timeout / the Connect timeout field).')).toBeVisible();
    await expect(loupe.connectTimeoutField()).toHaveValue('1.5');
    expect(await pollUntil(() => running(app.pid, 'never-initialize.mjs').length === 0, 15_000), 'the server is stopped').toBe(true);
  });
});

test.describe('calls die with their server', () => {
  test('a tool call on a server that exits mid-call fails with the exit code and stderr tail, not at the request timeout', async ({ launch, loupe }) => {
    const app = await launch(['node', 'e2e/fixtures/exit-mid-call.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('crash');
    const started = Date.now();
    await loupe.runTool();
    await expect(loupe.page.getByText(/The server exited with code 3 while this request was pending/).first()).toBeVisible({ timeout: 30_000 });
    expect(Date.now() - started, 'not the 60 s request timeout').toBeLessThan(30_000);
    await loupe.waitForStatus('Failed');
    await expect(loupe.page.getByText(/fatal: out of widgets \(simulated crash\)/).first()).toBeVisible();
  });

  test('a 20 MB argument that makes the server exit gets an answer', async ({ launch, loupe }) => {
    const app = await launch(['node', 'e2e/fixtures/exit-on-huge-line.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('take_text');
    test.setTimeout(180_000);
    // Typed into the JSON editor (the page's own cost of a 20 MB value is not what is timed here).
    await loupe.editAsJsonSwitch().click();
    // The 20 MB value is made in the page and typed in as one input event (what `fill` does), so that
    // it does not cross the DevTools protocol first: that copy cost Chromium most of a minute here.
    await loupe.jsonEditor().evaluate((editor: HTMLTextAreaElement) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
      setValue.call(editor, JSON.stringify({ text: 'x'.repeat(20 * 1024 * 1024) }));
      editor.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await expect(loupe.jsonEditor()).toHaveJSProperty('textLength', 20 * 1024 * 1024 + 11);
    await loupe.runButton().click({ timeout: 30_000 });
    // An answer, not a hang: the bound is far from the second or two it takes (bench/ measures speed).
    await expect(loupe.page.getByText(/exited with code 4/).first()).toBeVisible({ timeout: 60_000 });
    await expect(loupe.page.getByText(/a line over 1048576 bytes; giving up/).first()).toBeVisible();
  });
});
