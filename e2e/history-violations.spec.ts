// Protocol violations marked where they happen, on a fixture server that misbehaves on purpose
// (e2e/fixtures/misbehaving-protocol.mjs writes raw JSON-RPC lines).
import WebSocket from 'ws';
import { HistoryPage } from './pages/history-page.ts';
import { expect, test } from './support/test.ts';

const MISBEHAVING = ['node', 'e2e/fixtures/misbehaving-protocol.mjs'];

/**
 * Reconnect the primary session over the wire protocol, declaring no sampling: what a user does
 * from the connection panel's client capabilities, without depending on that panel's names.
 */
async function reconnectWithoutSampling(wsUrl: string): Promise<void> {
  const ws = new WebSocket(wsUrl);
  try {
    const snapshot = await new Promise<{ primary: string; sessions: { id: string; config: unknown }[] }>((resolve, reject) => {
      ws.once('message', (data) => resolve(JSON.parse(String(data))));
      ws.once('error', reject);
    });
    const session = snapshot.sessions.find((s) => s.id === snapshot.primary);
    const clientCapabilities = { sampling: false, samplingTools: false, elicitationForm: true, elicitationUrl: true, roots: true, rootsListChanged: true, tasks: true };
    ws.send(JSON.stringify({ type: 'connect', session: snapshot.primary, config: session?.config, clientCapabilities }));
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    ws.close();
  }
}

test.describe('protocol violations', () => {
  test('each misbehaviour is marked on its row, and listed in the frame', async ({ launch, loupe }) => {
    const app = await launch(MISBEHAVING);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();

    // Ping: the server answers twice.
    await history.ping();
    await expect(history.pingResult()).toContainText(/pong in [\d.]+ ms/);
    // A request the server answers only after it is cancelled.
    await history.compose({ jsonrpc: '2.0', id: 'slow-1', method: 'tools/call', params: { name: 'slow', arguments: {} } });
    await history.compose({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow-1', reason: 'e2e' } });

    await history.violationsOnly().check();
    const expected: [RegExp, string][] = [
      [/misbehaving: this line is not JSON-RPC/, '⚠ stdout noise'],
      [/notifications\/message/, '⚠ jsonrpc not "2.0"'],
      [/"note-with-id"/, '⚠ notification with an id'],
      [/"nobody-asked-for-this"/, '⚠ response to unknown id'],
      [/ping/, '⚠ duplicate response'],
      [/"slow-1"/, '⚠ late response after cancellation'],
    ];
    for (const [row, note] of expected) {
      await expect(history.row(row).filter({ hasText: note }), `a row ${row} marked "${note}"`).toHaveCount(1);
    }
    // Nothing well-behaved is marked: the declared sampling request is not a violation.
    await expect(history.row('sampling/createMessage')).toHaveCount(0);

    // The frame's detail says what is wrong, in words.
    await history.row('"nobody-asked-for-this"').click();
    await expect(history.detail().getByRole('group', { name: 'Protocol violations' })).toContainText('No request with the id "nobody-asked-for-this" was sent');
    await history.row(/ping/).click();
    await expect(history.detail().getByRole('group', { name: 'Protocol violations' })).toContainText(/was already answered by #\d+/);
    // The late response is paired with the cancelled request.
    await history.row('"slow-1"').click();
    await history.detail().getByRole('button', { name: /^Go to request #\d+$/ }).click();
    await expect(history.detail()).toContainText('cancelled');
  });

  test('a server→client request for a capability Loupe did not declare is marked', async ({ launch, loupe }) => {
    const app = await launch(MISBEHAVING);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const history = new HistoryPage(loupe);
    await history.open();
    await expect(history.row('sampling/createMessage')).toHaveCount(1);
    await expect(history.row('sampling/createMessage')).not.toContainText('undeclared capability');

    await reconnectWithoutSampling(app.wsUrl);
    // The second connection's request (Loupe's error answer to it carries the method too).
    await expect(history.row('sampling/createMessage').filter({ hasText: '← in' })).toHaveCount(2);
    await history.violationsOnly().check();
    const marked = history.row('sampling/createMessage');
    await expect(marked).toHaveCount(1);
    await expect(marked).toContainText('⚠ undeclared capability');
    await marked.click();
    await expect(history.detail().getByRole('group', { name: 'Protocol violations' })).toContainText('did not declare the sampling capability');
  });
});
