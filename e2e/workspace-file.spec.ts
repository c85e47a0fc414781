// The workspace file (issue 9, items 4–6): Save workspace writes mcpServers form (2-space indent,
// stable: reopen and save again gives the same bytes), a secret value never lands in the file, an
// export or the page; a changed file is only overwritten after the page asks; each export form
// imports back to the same server; a bad import says why in the CLI's words and changes nothing;
// saved calls run all, side by side with the previous run, the changed one marked.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_LABELS, expectNoSeriousAxeFindings, WorkspaceFilePage } from './pages/workspace-file-page.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const require = createRequire(import.meta.url);
const MEMORY = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const CONNECT_MS = 30_000;
const SECRET = 'sentinel-secret-4711';

const tempDir = (what: string) => mkdtempSync(join(tmpdir(), `loupe-e2e-${what}-`));

function writeConfig(dir: string, servers: Record<string, unknown>): string {
  const file = join(dir, 'mcp.json');
  writeFileSync(file, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
  return file;
}

const memoryEntry = (dir: string, extraEnv: Record<string, string> = {}) => ({ command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl'), ...extraEnv } });

test.describe('workspace file', () => {
  test('save writes mcpServers form with secrets as references; a changed file is overwritten only when confirmed; reopen + save gives the same file', async ({ launch, loupe, page }) => {
    const dir = tempDir('save');
    const config = writeConfig(dir, { memory: memoryEntry(dir) });
    const app = await launch(['--config', config]);
    await loupe.open(app.url);
    const w = new WorkspaceFilePage(page);
    await w.servers.waitForServer('memory', 'Connected', CONNECT_MS);

    // A second server with a secret env value, typed in the page and marked secret.
    await w.servers.servers().getByRole('button', { name: 'Add server', exact: true }).click();
    const form = w.servers.newServerForm();
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
    await form.getByRole('textbox', { name: 'Arguments', exact: true }).fill(`${EVERYTHING} stdio`);
    await form.getByRole('textbox', { name: 'Environment', exact: true }).fill(`API_KEY=${SECRET}`);
    await form.getByRole('checkbox', { name: 'Secret API_KEY' }).check();
    await form.getByRole('button', { name: 'Add and connect', exact: true }).click();
    await expect(form).toHaveCount(0);
    // The new server is selected once it is added: until then, the status shown is memory's.
    await expect.poll(() => w.selectedName(), { timeout: CONNECT_MS }).not.toMatch(/^(memory)?$/);
    await loupe.waitForStatus('Connected', CONNECT_MS);
    const everything = await w.selectedName();

    const saved = join(dir, 'saved.json');
    await w.save(saved);
    await w.expectSaved(saved);
    const text = readFileSync(saved, 'utf8');
    const file = JSON.parse(text) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>; inputs?: unknown[]; 'x-mcp-loupe'?: { servers: Record<string, { clientCapabilities?: unknown }> } };
    expect(text, '2-space indent, trailing newline').toBe(`${JSON.stringify(file, null, 2)}\n`);
    expect(Object.keys(file.mcpServers)).toEqual(['memory', everything]);
    expect(file.mcpServers[everything].args).toEqual([EVERYTHING, 'stdio']);
    expect(file.mcpServers[everything].env.API_KEY).toMatch(/^\$\{input:[^}]+\}$/);
    expect(file.inputs?.length).toBe(1);
    expect(text).not.toContain(SECRET);
    // The client capabilities chosen in the form are Loupe's extras of that server.
    expect(file['x-mcp-loupe']?.servers[everything]?.clientCapabilities).toBeDefined();

    // Every export form names API_KEY and holds its reference, never the value.
    for (const label of EXPORT_LABELS) {
      const exported = await w.exportText(everything, label);
      expect(exported, label).toContain('API_KEY');
      expect(exported, label).toContain('${input:');
      expect(exported, label).not.toContain(SECRET);
    }
    expect(await page.content()).not.toContain(SECRET);
    await expectNoSeriousAxeFindings(page, 'Export');

    // Someone edits the file: Save asks first, in the page; Overwrite writes it.
    writeFileSync(saved, `${text.trimEnd()}  \n`);
    await w.save();
    await expect(w.saveForm().getByRole('alert')).toContainText('The file changed on disk since Loupe read it: overwrite?');
    await expectNoSeriousAxeFindings(page, 'Save workspace asking to overwrite');
    expect(readFileSync(saved, 'utf8')).toBe(`${text.trimEnd()}  \n`);
    await w.saveForm().getByRole('button', { name: 'Overwrite', exact: true }).click();
    await w.expectSaved(saved);
    expect(readFileSync(saved, 'utf8')).toBe(text);

    // Reopen on the saved file: the secret is asked for (it was never written), and saving again
    // writes the same bytes.
    await app.stop();
    const again = await launch(['--config', saved]);
    await loupe.open(again.url);
    await w.servers.waitForServer('memory', 'Connected', CONNECT_MS);
    await w.servers.waitForServer(everything, 'Disconnected');
    const inputs = page.getByRole('region', { name: 'Inputs needed' });
    await inputs.getByRole('textbox').fill(SECRET);
    await inputs.getByRole('button', { name: 'Provide inputs' }).click();
    await w.servers.waitForServer(everything, 'Connected', CONNECT_MS);
    await w.save();
    await w.expectSaved(saved);
    expect(readFileSync(saved, 'utf8')).toBe(text);
    expect(await page.content()).not.toContain(SECRET);
  });

  test('each export form imports back to the same server; a bad import says why in the CLI words and adds nothing; host config files are offered', async ({ launch, loupe, page }) => {
    const dir = tempDir('import');
    const home = tempDir('home');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'from-cursor': memoryEntry(dir), off: { command: 'node', args: [MEMORY], disabled: true } } }));
    const config = writeConfig(dir, { memory: memoryEntry(dir, { MEMORY_TOKEN: '${env:LOUPE_E2E_SECRET}' }) });
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), LOUPE_E2E_SECRET: SECRET };
    const app = await launch(['--config', config], { env, cwd: dir });
    await loupe.open(app.url);
    const w = new WorkspaceFilePage(page);
    await w.servers.waitForServer('memory', 'Connected', CONNECT_MS);
    const original = JSON.parse(await w.exportText('memory', 'mcpServers entry')) as Record<string, unknown>;
    expect(original.memory).toEqual({ command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl'), MEMORY_TOKEN: '${env:LOUPE_E2E_SECRET}' } });

    for (const label of EXPORT_LABELS) {
      const exported = await w.exportText('memory', label);
      expect(exported).not.toContain(SECRET);
      const form = await w.paste(exported);
      await expect(form.getByRole('region', { name: 'Import preview' })).toContainText('MEMORY_TOKEN (secret)');
      // Nothing changes before the import is confirmed.
      await expect(w.servers.serverEntries()).toHaveCount(1);
      await w.confirmImport().click();
      await expect(w.servers.serverEntries(), label).toHaveCount(2);
      const added = (await w.serverNames()).find((n) => n !== 'memory') ?? '';
      if (label !== 'npx mcp-loupe') expect(added, `${label}: a clash is renamed`).toBe('memory-2');
      await w.servers.waitForServer(added, 'Connected', CONNECT_MS);
      const back = JSON.parse(await w.exportText(added, 'mcpServers entry')) as Record<string, unknown>;
      expect(back[added], `${label}: same command, args and env`).toEqual(original.memory);
      await w.servers.remove(added);
      await expect(w.servers.serverEntries()).toHaveCount(1);
    }

    // A bad entry: the same words as the CLI (file, entry, why), and nothing to import.
    const bad = JSON.stringify({ mcpServers: { fine: { command: 'x' }, strange: { args: ['--flag'] } } });
    const form = await w.paste(bad);
    await expect(form.getByRole('alert')).toHaveText('Server "strange": is neither a stdio server (no "command") nor a remote server (no "url").');
    await expect(w.confirmImport()).toBeDisabled();
    await form.getByLabel('From a file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
    await expect(form.getByRole('alert')).toHaveText('bad.json: Server "strange": is neither a stdio server (no "command") nor a remote server (no "url").');
    await expect(w.confirmImport()).toBeDisabled();

    // A pasted command line: env prefix, quotes and npx -y kept exactly.
    await w.paste(`API_KEY='a b' npx -y some-server --flag "q r"`);
    await expect(form.getByRole('region', { name: 'Import preview' })).toContainText('npx -y some-server --flag q r');
    await expect(form.getByRole('region', { name: 'Import preview' })).toContainText('Environment: API_KEY');

    // The hosts' config files on this machine: listed read-only with their server count; Use previews one.
    await form.getByRole('button', { name: 'Show config files on this machine' }).click();
    const cursorFile = join(home, '.cursor', 'mcp.json');
    const list = form.getByRole('list', { name: 'Config files on this machine' });
    await expect(list).toContainText('Cursor');
    await expect(list).toContainText(`${cursorFile}2 servers`);
    await form.getByRole('button', { name: `Use Cursor ${cursorFile}` }).click();
    const preview = form.getByRole('region', { name: 'Import preview' });
    await expect(preview).toContainText('from-cursor');
    await expect(preview).toContainText('disabled: listed, not started');
    await expectNoSeriousAxeFindings(page, 'Import servers with a preview');
    await w.confirmImport().click();
    await expect(w.servers.serverEntries()).toHaveCount(3);
    await w.servers.waitForServer('from-cursor', 'Connected', CONNECT_MS);
    await expect(w.servers.server('off')).toHaveAccessibleName(/· Disconnected/);
    expect(readFileSync(cursorFile, 'utf8'), 'the host file is never modified').toContain('"from-cursor"');
    expect(await page.content()).not.toContain(SECRET);
  });

  test('two calls saved at once are both kept: the second builds on the first, not on the list still shown', async ({ launch, loupe, page }) => {
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');
    await loupe.selectTool('echo');
    await expect(page.getByRole('button', { name: 'Save call', exact: true })).toBeEnabled();
    // Both saved in one task of the page (React renders in microtasks between the steps), so no
    // message from the proxy can come between them: the first is not shown back yet.
    await page.evaluate(async () => {
      const rendered = async () => {
        for (let i = 0; i < 5; i++) await null;
      };
      const button = (text: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === text)!;
      const save = async (name: string) => {
        button('Save call').click();
        await rendered();
        const input = document.querySelector<HTMLInputElement>('[role="group"][aria-label="Save call"] input')!;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, name);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await rendered();
        button('Add to saved calls').click();
        await rendered();
      };
      await save('one');
      await save('two');
    });
    const w = new WorkspaceFilePage(page);
    await w.openSavedCalls();
    await expect(w.savedCall('one')).toBeVisible();
    await expect(w.savedCall('two')).toBeVisible();
  });

  test('saved calls: save from the tool form, run all twice, the changed one is marked; edit, delete; a second tab and the file see them', async ({ launch, loupe, page }) => {
    const dir = tempDir('calls');
    const config = writeConfig(dir, { everything: { command: 'node', args: [EVERYTHING, 'stdio'] }, memory: memoryEntry(dir) });
    const app = await launch(['--config', config]);
    await loupe.open(app.url);
    const w = new WorkspaceFilePage(page);
    await w.servers.waitForServer('everything', 'Connected', CONNECT_MS);
    await w.servers.waitForServer('memory', 'Connected', CONNECT_MS);

    await w.servers.select('everything');
    await loupe.selectTool('echo');
    await loupe.fillField('message', 'a fixed message');
    await w.saveCall('echo fixed');
    // From a resource read and a prompt get too.
    await loupe.openTab('Resources');
    await page.getByRole('list', { name: 'Resources', exact: true }).getByRole('button', { name: /architecture\.md/ }).click();
    await expect(page.getByRole('region', { name: 'Resource', exact: true })).toContainText('demo://resource/static/document/architecture.md');
    await w.saveCall('architecture');
    await loupe.openTab('Prompts');
    await page.getByRole('list', { name: 'Prompts' }).getByRole('button', { name: /^simple-prompt/ }).click();
    await w.saveCall('simple');

    await w.servers.select('memory');
    await loupe.selectTool('read_graph');
    await w.saveCall('graph');
    await loupe.selectTool('search_nodes');
    await loupe.fillField('query', 'nothing-here');
    await w.saveCall('search');
    // A name is unique per server.
    await page.getByRole('button', { name: 'Save call', exact: true }).click();
    await page.getByRole('group', { name: 'Save call' }).getByRole('textbox', { name: 'Call name' }).fill('graph');
    await page.getByRole('group', { name: 'Save call' }).getByRole('button', { name: 'Add to saved calls' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'A saved call named graph exists already' })).toBeVisible();

    const calls = await w.openSavedCalls();
    await expect(calls.getByRole('listitem')).toHaveCount(2);
    await w.runAll();
    await expect(w.savedCall('graph')).toContainText('This run');
    await expect(w.savedCall('graph')).toContainText('No run yet.');

    // The graph changes between the runs; the search does not.
    await loupe.selectTool('create_entities');
    await loupe.runWithJson({ entities: [{ name: 'Loupe', entityType: 'tool', observations: ['made between two runs'] }] });
    await expect(loupe.result()).toContainText('made between two runs');
    await w.openSavedCalls();
    await w.runAll();
    await expect(w.savedCall('graph').getByText('changed', { exact: true })).toBeVisible();
    await expect(w.savedCall('graph')).toContainText('+ ');
    await expect(w.savedCall('graph')).toContainText('made between two runs');
    await expect(w.savedCall('search').getByText('same', { exact: true })).toBeVisible();
    await expect(w.savedCall('search').getByText('changed', { exact: true })).toHaveCount(0);
    await expect(calls.getByRole('status')).toHaveText('1 changed since the previous run');
    await expectNoSeriousAxeFindings(page, 'Saved calls with two runs');

    // Edit: a new name and arguments; delete.
    await calls.getByRole('button', { name: 'Edit saved call search' }).click();
    const editor = calls.getByRole('group', { name: 'Editing saved call search' });
    await editor.getByRole('textbox', { name: 'Call name' }).fill('search loupe');
    await editor.getByRole('textbox', { name: 'Arguments (JSON)' }).fill('{"query": "Loupe"}');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await expect(w.savedCall('search loupe')).toContainText('{"query":"Loupe"}');
    await calls.getByRole('button', { name: 'Run saved call search loupe' }).click();
    await expect(w.savedCall('search loupe').getByText('changed', { exact: true })).toBeVisible();
    await calls.getByRole('button', { name: 'Delete saved call search loupe' }).click();
    await expect(calls.getByRole('listitem')).toHaveCount(1);

    // A second tab sees the same saved calls, and runs them itself.
    const other = await page.context().newPage();
    await other.goto(app.url);
    const second = new WorkspaceFilePage(other);
    await second.servers.waitForServer('everything', 'Connected', CONNECT_MS);
    await second.servers.select('everything');
    const theirs = await second.openSavedCalls();
    await expect(theirs.getByRole('listitem')).toHaveCount(3);
    await theirs.getByRole('button', { name: 'Run saved call echo fixed' }).click();
    await expect(second.savedCall('echo fixed')).toContainText('Echo: a fixed message');
    await second.runAll();
    await expect(second.savedCall('architecture')).toContainText('demo://resource/static/document/architecture.md');
    await expect(second.savedCall('simple')).toContainText('"role": "user"');
    await expect(second.savedCall('echo fixed').getByText('same', { exact: true })).toBeVisible();

    // The workspace file keeps them, under Loupe's own key.
    const saved = join(dir, 'with-calls.json');
    await w.save(saved);
    await w.expectSaved(saved);
    const file = JSON.parse(readFileSync(saved, 'utf8')) as { 'x-mcp-loupe': { servers: Record<string, { savedCalls?: unknown }> } };
    expect(file['x-mcp-loupe'].servers.memory.savedCalls).toEqual([{ name: 'graph', kind: 'tool', target: 'read_graph', arguments: {} }]);
    expect(file['x-mcp-loupe'].servers.everything.savedCalls).toEqual([
      { name: 'echo fixed', kind: 'tool', target: 'echo', arguments: { message: 'a fixed message' } },
      { name: 'architecture', kind: 'resource', target: 'demo://resource/static/document/architecture.md' },
      { name: 'simple', kind: 'prompt', target: 'simple-prompt', arguments: {} },
    ]);
  });
});
