// An HTTP session adds the transport's view to History: every exchange with method, status,
// content type, timing and the MCP session id; SSE streams opened and closed.
import { HistoryPage } from './pages/history-page.ts';
import { expect, test } from './support/test.ts';

test('Streamable HTTP: exchanges, the MCP session id, SSE streams opened and closed', async ({ launch, loupe, servers }) => {
  const server = await servers.everything('streamableHttp');
  const app = await launch([`${server.base}/mcp`]);
  await loupe.open(app.url);
  await loupe.waitForStatus('Connected');
  const history = new HistoryPage(loupe);
  await history.open();
  await history.kind('http').click();
  await expect(history.row(/POST http:\/\/127\.0\.0\.1:\d+\/mcp → 202/).first()).toBeVisible();
  await expect(history.row(/SSE stream opened: (GET|POST) .* → 200 \(text\/event-stream\)/).first()).toBeVisible();
  // The MCP session id the server handed out, on the exchanges that carry it.
  const withSession = history.row(/sid [0-9a-f-]{8,}/).first();
  // Its timing, in ms or, past a second (a loaded machine), in s.
  await expect(withSession).toContainText(/\d+(\.\d+)? ?m?s$/);
  await withSession.click();
  const detail = history.detail();
  await expect(detail.getByText('MCP session id')).toBeVisible();
  await expect(detail.getByText('Request headers (secrets masked)')).toBeVisible();
  await expect(detail.getByText('Status')).toBeVisible();
  await expect(detail.getByText('Content type')).toBeVisible();

  // Streams closing are transport rows.
  await history.kind('http').click();
  await history.kind('transport').click();
  await expect(history.row('SSE stream closed').first()).toBeVisible();
  // The frames inside the streams are rows of their own, paired as usual.
  await history.clearFilters();
  await history.method().selectOption('initialize');
  await expect(history.rows()).toHaveCount(2);
});
