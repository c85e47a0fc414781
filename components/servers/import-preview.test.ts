import { describe, expect, it } from 'vitest';
import { parseImport, type WorkspaceServer } from '../../lib/workspace/workspace.ts';
import { previewImport } from './import-preview.ts';

const existing = (name: string): WorkspaceServer => ({ name, config: { kind: 'stdio', name, command: 'x', args: [], env: {} }, disabled: false, secretEnv: [], secretHeaders: [], extras: {} });
const BAD = JSON.stringify({ mcpServers: { fine: { command: 'x' }, strange: { args: ['--flag'] } } });

describe('previewImport', () => {
  it('a pasted bad entry: the entry and why; a picked file: the file first, as the CLI says it', () => {
    const pasted = previewImport(BAD, undefined, []);
    const parsed = parseImport(BAD);
    expect(parsed.ok).toBe(false);
    expect(pasted).toEqual({ ok: false, error: parsed.ok ? '' : parsed.error });
    expect(pasted.ok ? '' : pasted.error).toContain('"strange"');
    expect(previewImport(BAD, 'bad.json', [])).toEqual({ ok: false, error: `bad.json: ${parsed.ok ? '' : parsed.error}` });
  });

  it('a file with no servers says so', () => {
    expect(previewImport('{"mcpServers": {}}', 'empty.json', [])).toEqual({ ok: false, error: 'empty.json: The config defines no servers.' });
  });

  it('a clash with a server of the workspace is renamed, with a note; only the new servers are returned', () => {
    const preview = previewImport(JSON.stringify({ mcpServers: { memory: { command: 'node', args: ['m.js'] }, other: { url: 'http://127.0.0.1:1/mcp' } } }), undefined, [existing('memory')]);
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    expect(preview.value.servers.map((s) => [s.name, s.config.name])).toEqual([['memory-2', 'memory-2'], ['other', 'other']]);
    expect(preview.value.notes.join('\n')).toContain('"memory-2"');
  });

  it('a command line keeps its env prefix and quotes', () => {
    const preview = previewImport(`API_KEY='a b' npx -y pkg --flag "q r"`, undefined, []);
    expect(preview.ok && preview.value.servers[0].config).toMatchObject({ kind: 'stdio', command: 'npx', args: ['-y', 'pkg', '--flag', 'q r'], env: { API_KEY: 'a b' } });
  });
});
