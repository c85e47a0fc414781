import { describe, expect, it } from 'vitest';
import { exportServer, namespacedToolName, namespaceTools, type ExportFormat } from './export.ts';
import { parseImport, type WorkspaceServer } from '../workspace/workspace.ts';

const SENTINEL = 'sk-SENTINEL-e41b07';
const FORMATS: ExportFormat[] = ['mcpServers', 'vscode', 'loupe-cli', 'claude-mcp-add'];

const stdio = (): WorkspaceServer => ({
  name: 'memory', disabled: false, secretHeaders: [], extras: { savedCalls: [{ name: 'x', kind: 'tool', target: 'y' }] },
  secretEnv: ['API_KEY'],
  config: { kind: 'stdio', name: 'memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory', '--path', '/tmp/my dir'], env: { API_KEY: SENTINEL, MODE: "it's plain" } },
});
const remote = (transport: 'auto' | 'http' | 'sse'): WorkspaceServer => ({
  name: 'everything', disabled: false, secretEnv: [], extras: {},
  secretHeaders: ['Authorization'],
  config: { kind: 'http', name: 'everything', url: 'http://127.0.0.1:3001/mcp', transport, headers: { Authorization: `Bearer ${SENTINEL}`, 'X-Team': 'blue' } },
});

function importBack(text: string): WorkspaceServer {
  const result = parseImport(text);
  if (!result.ok) throw new Error(`${result.error}\n${text}`);
  expect(result.value.servers).toHaveLength(1);
  return result.value.servers[0];
}

describe('exportServer: the texts', () => {
  it('mcpServers entry', () => {
    expect(exportServer(stdio(), 'mcpServers')).toBe(`{
  "memory": {
    "command": "npx",
    "args": [
      "-y",
      "@modelcontextprotocol/server-memory",
      "--path",
      "/tmp/my dir"
    ],
    "env": {
      "API_KEY": "\${input:loupe-memory-API_KEY}",
      "MODE": "it's plain"
    }
  }
}`);
  });

  it('VS Code file, with the inputs the server uses', () => {
    const text = exportServer(remote('sse'), 'vscode', [{ id: 'loupe-everything-Authorization', type: 'promptString', description: 'Token', password: true }]);
    expect(JSON.parse(text)).toEqual({
      servers: { everything: { type: 'sse', url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: '${input:loupe-everything-Authorization}', 'X-Team': 'blue' } } },
      inputs: [{ type: 'promptString', id: 'loupe-everything-Authorization', description: 'Token', password: true }],
    });
  });

  it('npx mcp-loupe line, with the options of the CLI', () => {
    expect(exportServer(stdio(), 'loupe-cli')).toBe(`npx mcp-loupe -e 'API_KEY=\${input:loupe-memory-API_KEY}' -e 'MODE=it'\\''s plain' npx -y @modelcontextprotocol/server-memory --path '/tmp/my dir'`);
    expect(exportServer({ ...stdio(), config: { kind: 'stdio', command: '-odd', args: [], env: {}, cwd: '/w d' } }, 'loupe-cli')).toBe(`npx mcp-loupe --cwd '/w d' -- -odd`);
    expect(exportServer(remote('http'), 'loupe-cli')).toBe(`npx mcp-loupe --transport http --header 'Authorization: \${input:loupe-everything-Authorization}' --header 'X-Team: blue' http://127.0.0.1:3001/mcp`);
    expect(exportServer(remote('auto'), 'loupe-cli')).not.toContain('--transport');
  });

  it('claude mcp add line, options before the name', () => {
    expect(exportServer(stdio(), 'claude-mcp-add')).toBe(`claude mcp add -e 'API_KEY=\${input:loupe-memory-API_KEY}' -e 'MODE=it'\\''s plain' memory -- npx -y @modelcontextprotocol/server-memory --path '/tmp/my dir'`);
    expect(exportServer(remote('auto'), 'claude-mcp-add')).toBe(`claude mcp add --transport http -H 'Authorization: \${input:loupe-everything-Authorization}' -H 'X-Team: blue' everything http://127.0.0.1:3001/mcp`);
    expect(exportServer(remote('sse'), 'claude-mcp-add')).toMatch(/^claude mcp add --transport sse /);
  });

  it('a secret value never appears in any export', () => {
    for (const format of FORMATS) {
      for (const server of [stdio(), remote('auto'), remote('sse')]) expect(exportServer(server, format)).not.toContain(SENTINEL);
    }
  });
});

describe('exportServer → parseImport: the same server', () => {
  /** What survives every form: the target, the non-secret values, the secret names, the references. */
  const expected = (server: WorkspaceServer, name = server.name) => {
    const config = server.config.kind === 'stdio'
      ? { ...server.config, name, env: { ...server.config.env, API_KEY: '${input:loupe-memory-API_KEY}' } }
      : { ...server.config, name, headers: { ...server.config.headers, Authorization: '${input:loupe-everything-Authorization}' } };
    return { ...server, name, config, extras: {} };
  };

  it.each(FORMATS)('%s, stdio', (format) => {
    // The CLI line carries no name: the CLI derives it from the command.
    const name = format === 'loupe-cli' ? '@modelcontextprotocol/server-memory' : 'memory';
    expect(importBack(exportServer(stdio(), format))).toEqual(expected(stdio(), name));
  });

  it.each(FORMATS)('%s, remote', (format) => {
    const name = format === 'loupe-cli' ? '127.0.0.1:3001' : 'everything';
    for (const transport of ['http', 'sse'] as const) {
      expect(importBack(exportServer(remote(transport), format))).toEqual(expected(remote(transport), name));
    }
    // Claude Code has no "try both": it exports as Streamable HTTP.
    const auto = importBack(exportServer(remote('auto'), format)).config;
    expect(auto).toMatchObject({ transport: format === 'claude-mcp-add' ? 'http' : 'auto' });
  });

  it('keeps disabled and kept keys in the JSON forms', () => {
    const server = { ...stdio(), disabled: true, other: { autoApprove: ['a'] } };
    for (const format of ['mcpServers', 'vscode'] as const) expect(importBack(exportServer(server, format))).toMatchObject({ disabled: true, other: { autoApprove: ['a'] } });
  });

  it('reads the other spellings of the lines', () => {
    expect(importBack('mcp-loupe --port 0 --no-open -e A=1 node s.js').config).toMatchObject({ command: 'node', args: ['s.js'], env: { A: '1' } });
    expect(importBack('npx -y mcp-loupe@latest --transport=sse http://h/sse').config).toMatchObject({ transport: 'sse' });
    expect(importBack('claude mcp add -s project --env K=v fs -- npx -y srv').config).toMatchObject({ name: 'fs', env: { K: 'v' } });
    expect(importBack('claude mcp add api https://h/mcp').config).toMatchObject({ kind: 'http', transport: 'auto' });
    expect(parseImport('claude mcp add --bogus x -- y')).toEqual({ ok: false, error: 'claude mcp add: unknown option --bogus.' });
    expect(parseImport('claude mcp add name')).toEqual({ ok: false, error: 'claude mcp add: no command or URL after the name "name".' });
    expect(parseImport('npx mcp-loupe --port')).toEqual({ ok: false, error: 'mcp-loupe: --port needs a value.' });
  });
});

describe('namespaced tool names', () => {
  it('server__tool', () => {
    expect(namespacedToolName('memory', 'read_graph')).toBe('memory__read_graph');
  });

  it('points out clashes and names over 64 characters', () => {
    const named = namespaceTools([
      { server: 'a__b', tool: 'c' },
      { server: 'a', tool: 'b__c' },
      { server: 'ok', tool: 'echo' },
      { server: 's', tool: 'x'.repeat(62) },
    ]);
    expect(named.map((t) => [t.name, t.problem])).toEqual([
      ['a__b__c', 'Same name as b__c on a'],
      ['a__b__c', 'Same name as c on a__b'],
      ['ok__echo', undefined],
      [`s__${'x'.repeat(62)}`, 'Longer than 64 characters'],
    ]);
  });
});
