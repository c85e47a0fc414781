// Remote servers that fail (issue 8): each failure in its own sentence on the page, in time.
// One e2e/fixtures/http-misbehaving.mjs serves a path per failure.
import { expect, test } from './support/test.ts';
import { startMisbehavingHttp, type RunningServer } from './support/servers.ts';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startMisbehavingHttp();
});
test.afterAll(async () => {
  await server?.stop();
});

test.describe('a remote server that misbehaves', () => {
  test('an endpoint that takes the POST and never answers', async ({ launch, loupe, page }) => {
    const app = await launch(['--connect-timeout', '2000', `${server.base}/hang`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Failed', 25_000);
    // In the Connection panel (the Servers panel repeats the reason in the server's button).
    await expect(page.getByRole('region', { name: 'Connection' }).getByText(/The server accepted the request but has not answered for \d+ s\./)).toBeVisible();
    await expect(page.getByText(/Could not reach/)).toHaveCount(0);
  });

  test('a session the server ends (404) is renewed, and the call that hit it says so', async ({ launch, loupe }) => {
    const app = await launch([`${server.base}/expire`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    // The page listed the tools: the fixture has ended that session now.
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'first');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('The server ended the session (404): Loupe started a new one.');
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'on the new session');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: on the new session');
  });

  test('an event stream cut in the middle of an event fails the call at once', async ({ launch, loupe, page }) => {
    const app = await launch([`${server.base}/cut`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('slow');
    const started = Date.now();
    await loupe.runTool();
    // At once, not at the 60 s request timeout: the bound tells the two apart, far from either (speed is bench/'s).
    await expect(loupe.result()).toContainText("The server's event stream dropped after 1 event.", { timeout: 30_000 });
    expect(Date.now() - started, 'not the 60 s request timeout').toBeLessThan(30_000);
    await loupe.waitForStatus('Failed', 25_000);
    // Said twice: under the failed call and in the Connection panel, above the Connect button.
    await expect(page.getByText(/Connect again to start a new session/)).toHaveCount(2);
    await expect(loupe.connectButton()).toBeEnabled();
    // Reconnect starts a new session on the same server.
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await loupe.waitForStatus('Connected');
    await expect(page.getByRole('button', { name: 'Reconnect' })).toHaveCount(0);
  });

  test('a 401 lists the discovery URLs tried with their statuses', async ({ launch, loupe, page }) => {
    const app = await launch([`${server.base}/auth`]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Failed', 25_000);
    await expect(page.getByRole('region', { name: 'Connection' }).getByText(`The server wants a sign-in (HTTP 401), and Loupe could not start one: its authorization server ${server.base}/tenant does not offer dynamic client registration, so Loupe has no client to sign in with.`)).toBeVisible();
    await expect(page.getByText(/Discovery tried:/)).toContainText('--header "Authorization: Bearer …"');
    // One list item per step, in the order tried, each with what came back.
    const steps = page.getByRole('list', { name: 'Discovery steps' }).getByRole('listitem');
    await expect(steps.filter({ hasText: `${server.base}/.well-known/oauth-protected-resource/auth → 200` })).toHaveCount(1);
    await expect(steps.filter({ hasText: `${server.base}/.well-known/oauth-authorization-server/tenant → 404` })).toHaveCount(1);
    await expect(steps.filter({ hasText: `${server.base}/tenant/.well-known/openid-configuration → 200` })).toHaveCount(1);
  });
});
