// `--config <file> --server <name>`: mcp.json in the Claude Desktop / Cursor and VS Code formats.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/test.ts';
import { FIXTURES } from './support/servers.ts';

let dir = '';
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-config-'));
});
test.afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(content: unknown): string {
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
}

test.describe('servers from an mcp.json file', () => {
  test('Claude Desktop format: mcpServers.NAME = {command, args, env}', async ({ launch, loupe, page }) => {
    const file = writeConfig({
      mcpServers: {
        other: { command: 'definitely-not-a-command-xyz' },
        noisy: { command: 'node', args: [join(FIXTURES, 'noisy-stdout.mjs')], env: { NOISY: '1' } },
      },
    });
    const app = await launch(['--config', file, '--server', 'noisy']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await expect(page.getByText('noisy-stdout-fixture').first()).toBeVisible();
  });

  test('VS Code format: servers.NAME = {type: "http", url}', async ({ servers, launch, loupe }) => {
    const server = await servers.everything('streamableHttp');
    const file = writeConfig({ servers: { everything: { type: 'http', url: `${server.base}/mcp` } } });
    const app = await launch(['--config', file, '--server', 'everything']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'from vscode config');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('Echo: from vscode config');
  });
});
