// The official reference servers besides server-everything (devDependencies, run from node_modules
// over stdio): server-filesystem reads a real folder, server-memory keeps a real knowledge graph.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/test.ts';

const require = createRequire(import.meta.url);
const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const memory = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');

test.describe('reference servers', () => {
  test('server-filesystem: a form-run read of a real file, and a directory listing', async ({ launch, loupe }) => {
    const folder = mkdtempSync(join(tmpdir(), 'loupe-fs-'));
    writeFileSync(join(folder, 'hello.txt'), 'hello from the filesystem\nsecond line\n');
    const app = await launch(['node', filesystem, folder]);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');

    await loupe.selectTool('read_text_file');
    await loupe.fillField('path', join(folder, 'hello.txt'));
    await loupe.runTool();
    await expect(loupe.result()).toContainText('hello from the filesystem');

    await loupe.selectTool('list_directory');
    await loupe.fillField('path', folder);
    await loupe.runTool();
    await expect(loupe.result()).toContainText('[FILE] hello.txt');

    // Outside the allowed folder: the server's own error, shown as an error.
    await loupe.selectTool('read_text_file');
    await loupe.fillField('path', '/etc/hostname');
    await loupe.runTool();
    await expect(loupe.result()).toContainText(/denied|outside allowed/i);
  });

  test('server-memory: entities created from JSON arguments come back from read_graph', async ({ launch, loupe }) => {
    const file = join(mkdtempSync(join(tmpdir(), 'loupe-memory-')), 'memory.jsonl');
    const app = await launch(['node', memory], { options: ['--no-open', '--port', '0', '-e', `MEMORY_FILE_PATH=${file}`] });
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');

    await loupe.selectTool('create_entities');
    await loupe.runWithJson({ entities: [{ name: 'Loupe', entityType: 'tool', observations: ['inspects MCP servers'] }] });
    await expect(loupe.result()).toContainText('inspects MCP servers');

    await loupe.selectTool('read_graph');
    await loupe.runTool();
    await expect(loupe.result()).toContainText('"entityType": "tool"');
  });
});
