// Ended gateway sessions do not stay in the page forever (issue 21, item 6): 22 MCP clients open a
// session through the gateway and end it (HTTP DELETE); Loupe keeps the last 20 that ended, and the
// Servers panel says, as text, how many it pruned.
import { join } from 'node:path';
import { expect, test } from './support/test.ts';
import { pollUntil } from './support/processes.ts';
import { FIXTURES } from './support/servers.ts';

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'suite', version: '0' } } });

test('ended gateway sessions beyond 20 are pruned, and the Servers panel says how many', async ({ launch, loupe, page }) => {
  const app = await launch(['--gateway', '--gateway-port', '0', process.execPath, join(FIXTURES, 'workspace-server.mjs'), 'pruned-target']);
  await pollUntil(() => /Gateway token .*: (\S+)$/m.test(app.stdout()), 10_000, 50);
  const gateway = /Gateway for MCP clients: (\S+)/.exec(app.stdout())![1];
  const token = /Gateway token .*: (\S+)$/m.exec(app.stdout())![1];
  await loupe.open(app.url);

  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  for (let n = 0; n < 22; n++) {
    const opened = await fetch(gateway, { method: 'POST', headers, body: INIT });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get('mcp-session-id')!;
    const ended = await fetch(gateway, { method: 'DELETE', headers: { authorization: headers.authorization, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect(ended.status).toBe(200);
  }

  const servers = page.getByRole('region', { name: 'Servers' });
  await expect(servers.getByText(/^2 ended sessions pruned:/)).toBeVisible({ timeout: 30_000 });
  // The 20 that ended last (the gateway's target has no session of the page's own).
  await expect(servers.getByRole('heading', { name: 'Servers (20)' })).toBeVisible();
});
