// Acting on the trace: replay a request as is, edit a frame and send it (marked "edited" in the
// trace), the raw composer (any method, notifications too), and ping.
import { HistoryPage } from './pages/history-page.ts';
import { expect, test } from './support/test.ts';

async function open(loupe: import('./pages/loupe-page.ts').LoupePage, url: string): Promise<HistoryPage> {
  await loupe.open(url);
  await loupe.waitForStatus('Connected');
  const history = new HistoryPage(loupe);
  await history.open();
  return history;
}

test.describe('replay, edit and send, raw composer, ping', () => {
  test('replay sends a request again with a new id, marked "replay", and shows its answer', async ({ launch, loupe }) => {
    const app = await launch();
    const history = await open(loupe, app.url);
    await history.compose({ jsonrpc: '2.0', id: 'first-echo', method: 'tools/call', params: { name: 'echo', arguments: { message: 'once more' } } });
    await expect(history.answer()).toContainText('Echo: once more');
    await history.row('"first-echo"').first().click();
    await history.detail().getByRole('button', { name: 'Replay', exact: true }).click();
    await expect(history.answer()).toContainText(/Replay of #\d+ \(tools\/call\)/);
    await expect(history.answer()).toContainText('Echo: once more');
    // In the trace: a second request, with a new id, marked as a replay, answered.
    const replayed = history.row('tools/call').filter({ hasText: 'replay' });
    await expect(replayed).toHaveCount(1);
    await expect(replayed).toContainText('"first-echo-');
    await expect(replayed).not.toContainText('pending');
    await expect(history.row('tools/call').filter({ hasText: '⚠' })).toHaveCount(0);
  });

  test('edit and send: the edited frame is marked "edited" and its answer shown', async ({ launch, loupe }) => {
    const app = await launch();
    const history = await open(loupe, app.url);
    await history.compose({ jsonrpc: '2.0', id: 'to-edit', method: 'tools/call', params: { name: 'echo', arguments: { message: 'original' } } });
    await expect(history.answer()).toContainText('Echo: original');
    await history.row('"to-edit"').first().click();
    await history.detail().getByRole('button', { name: 'Edit and send' }).click();
    await expect(history.composer()).toHaveValue(/"message": "original"/);
    await expect(loupe.history().getByText(/Editing frame #\d+/)).toBeVisible();
    const edited = (await history.composer().inputValue()).replace('"original"', '"changed by hand"');
    await history.composer().fill(edited);
    await history.button('Send').click();
    await expect(history.answer()).toContainText('Echo: changed by hand');
    const row = history.row('tools/call').filter({ hasText: 'edited' });
    await expect(row).toHaveCount(1);
    await row.click();
    await expect(history.detail().getByText('"message": "changed by hand"')).toBeVisible();
    await expect(history.detail().getByText('edited', { exact: true })).toBeVisible();
    // The composer links to the frames it sent and got back.
    await history.answer().getByRole('button', { name: /^Show answer frame #\d+$/ }).click();
    await expect(history.detail().getByText('"text": "Echo: changed by hand"')).toBeVisible();
  });

  test('the raw composer sends any method and notifications, and says what is wrong with a draft', async ({ launch, loupe }) => {
    const app = await launch();
    const history = await open(loupe, app.url);
    await history.compose({ jsonrpc: '2.0', id: 'unknown-1', method: 'loupe/no-such-method', params: { a: 1 } });
    await expect(history.answer()).toContainText('Error after');
    await expect(history.answer()).toContainText('-32601');
    await expect(history.row('loupe/no-such-method').filter({ hasText: 'composed' })).toHaveCount(1);
    await expect(history.row('loupe/no-such-method').filter({ hasText: 'error' })).toHaveCount(1);

    await history.button('Notification template').click();
    await expect(history.composer()).toHaveValue(/"method": "notifications\/roots\/list_changed"/);
    await history.button('Send').click();
    await expect(history.answer()).toContainText('Sent (a notification has no answer).');
    await expect(history.row('notifications/roots/list_changed').filter({ hasText: '→ out' }).filter({ hasText: 'composed' })).toHaveCount(1);

    await history.compose('{"jsonrpc": "2.0", "id": 1, ');
    await expect(loupe.history().getByText(/^Not JSON:/)).toBeVisible();
    await history.compose('[1, 2]');
    await expect(loupe.history().getByText('A JSON-RPC message is one JSON object.')).toBeVisible();
  });

  test('ping shows the round trip and lands in the trace', async ({ launch, loupe }) => {
    const app = await launch();
    const history = await open(loupe, app.url);
    await history.ping();
    await expect(history.pingResult()).toContainText(/^pong in [\d.]+ ms$/);
    await history.method().selectOption('ping');
    await expect(history.rows()).toHaveCount(2);
    await expect(history.row('ping').filter({ hasText: '→ out' })).toContainText(/[\d.]+ ms/);
  });
});
