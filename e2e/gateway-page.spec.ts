// What the outside review did (issue 21, item 4), in a real browser: a page on http://localhost:<port>
// posts an MCP initialize to the gateway as `text/plain` (a "simple" request, sent without a CORS
// preflight), and as JSON (preflighted). The gateway must start nothing: its target leaves a marker
// file when it starts, and there is none.
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/test.ts';
import { pollUntil } from './support/processes.ts';
import { EVERYTHING } from './support/servers.ts';

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '0' } } });

test('a page on another loopback port cannot make the gateway start its server', async ({ launch, page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-gateway-'));
  const marker = join(dir, 'started');
  const target = join(dir, 'server.sh');
  writeFileSync(target, `#!/bin/sh\necho started >> "${marker}"\nexec "${process.execPath}" "${EVERYTHING}" stdio\n`);
  chmodSync(target, 0o755);
  const app = await launch(['--gateway', '--gateway-port', '0', target]);
  await pollUntil(() => /Gateway for MCP clients: (\S+)/.test(app.stdout()), 10_000, 50);
  const gateway = /Gateway for MCP clients: (\S+)/.exec(app.stdout())![1];

  // The attacker's page, on a loopback port of its own.
  const site: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    const outcomes = await page.evaluate(
      async ({ url, body }) => {
        const attempt = (init: RequestInit) => fetch(url, { method: 'POST', body, ...init }).then((r) => `status ${r.status}`, (e: Error) => `failed: ${e.name}`);
        return [
          await attempt({ mode: 'no-cors', headers: { 'content-type': 'text/plain' } }),
          await attempt({ headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }),
        ];
      },
      { url: gateway, body: INIT },
    );
    await page.waitForTimeout(1_000);
    expect(existsSync(marker), 'the gateway started its server for a web page').toBe(false);
    // The no-cors answer is opaque to the page (status 0); the preflighted one is blocked by the browser.
    expect(outcomes).toEqual(['status 0', 'failed: TypeError']);
  } finally {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  }
});
