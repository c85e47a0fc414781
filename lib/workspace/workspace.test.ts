import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../model/server-config.ts';
import { mergeServers, parseImport, parseWorkspace, serializeWorkspace, type Workspace, type WorkspaceServer } from './workspace.ts';

function ws(text: string): Workspace {
  const result = parseWorkspace(text);
  if (!result.ok) throw new Error(result.error);
  for (const server of result.value.servers) expect(ServerConfigSchema.parse(server.config)).toEqual(server.config);
  return result.value;
}
function parseError(text: string): string {
  const result = parseWorkspace(text);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}
/** serialize(parse(text)) is a fixed point after one pass, and parse(serialize(ws)) gives ws back. */
function expectRoundTrip(text: string): string {
  const once = serializeWorkspace(ws(text));
  const again = ws(once);
  expect(serializeWorkspace(again)).toBe(once);
  expect(ws(serializeWorkspace(again)).servers).toEqual(again.servers);
  expect(ws(serializeWorkspace(again)).inputs).toEqual(again.inputs);
  return once;
}
const byName = (w: Workspace, name: string): WorkspaceServer => w.servers.find((s) => s.name === name)!;

describe('parseWorkspace: Claude Desktop / Cursor', () => {
  const text = JSON.stringify({
    mcpServers: {
      fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' } },
      remote: { url: 'https://h/mcp', headers: { 'X-Team': 'blue' } },
    },
    globalShortcut: 'Ctrl+Space',
  });

  it('reads servers in file order, with the shape noted', () => {
    const w = ws(text);
    expect(w.flavour).toBe('mcpServers');
    expect(w.servers.map((s) => s.name)).toEqual(['fs', 'remote']);
    expect(byName(w, 'fs')).toEqual({
      name: 'fs', disabled: false, secretEnv: [], secretHeaders: [], extras: {},
      config: { kind: 'stdio', name: 'fs', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' } },
    });
    expect(byName(w, 'remote').config).toEqual({ kind: 'http', name: 'remote', url: 'https://h/mcp', transport: 'auto', headers: { 'X-Team': 'blue' } });
    expect(w.notes).toEqual([]);
  });

  it('keeps other top-level keys through a save', () => {
    expect(ws(text).other).toEqual({ globalShortcut: 'Ctrl+Space' });
    expect(JSON.parse(expectRoundTrip(text)).globalShortcut).toBe('Ctrl+Space');
  });

  it('writes the exact expected text', () => {
    expect(serializeWorkspace(ws(text))).toBe(`{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/tmp"
      ],
      "env": {
        "A": "1"
      }
    },
    "remote": {
      "url": "https://h/mcp",
      "headers": {
        "X-Team": "blue"
      }
    }
  },
  "globalShortcut": "Ctrl+Space"
}
`);
  });
});

describe('parseWorkspace: Claude Code .mcp.json', () => {
  const text = `{"mcpServers": {
    "api": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer \${API_KEY}"}},
    "old": {"type": "sse", "url": "https://h/sse"},
    "local": {"type": "stdio", "command": "/path/to/server", "args": [], "env": {"DB": "\${DB_URL:-sqlite://x}"}}
  }}`;

  it('"http" is Streamable HTTP only; ${VAR} makes a value secret', () => {
    const w = ws(text);
    expect(byName(w, 'api').config).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer ${API_KEY}' } });
    expect(byName(w, 'api').secretHeaders).toEqual(['Authorization']);
    expect(byName(w, 'old').config).toMatchObject({ transport: 'sse' });
    expect(byName(w, 'local').secretEnv).toEqual(['DB']);
  });

  it('round-trips, keeping "type" where it is needed', () => {
    const out = JSON.parse(expectRoundTrip(text));
    expect(out.mcpServers.api.type).toBe('http');
    expect(out.mcpServers.old.type).toBe('sse');
    expect(out.mcpServers.local).toEqual({ command: '/path/to/server', env: { DB: '${DB_URL:-sqlite://x}' } });
  });
});

describe('parseWorkspace: Windsurf and Cline', () => {
  const text = `{"mcpServers": {
    "w": {"serverUrl": "https://h/mcp", "disabled": true},
    "c": {"command": "node", "args": ["s.js"], "disabled": false, "autoApprove": ["read"], "alwaysAllow": [], "timeout": 60, "transportType": "stdio"},
    "odd": {"command": "x", "myKey": {"a": 1}}
  }}`;

  it('serverUrl is the url; disabled is listed, not started', () => {
    const w = ws(text);
    expect(byName(w, 'w')).toMatchObject({ disabled: true, config: { kind: 'http', url: 'https://h/mcp' } });
    expect(byName(w, 'c').disabled).toBe(false);
  });

  it('keys Loupe does not use are kept and noted, naming server and key', () => {
    const w = ws(text);
    expect(byName(w, 'c').other).toEqual({ autoApprove: ['read'], alwaysAllow: [], timeout: 60 });
    expect(w.notes).toEqual([
      'Server "c": "autoApprove" is kept in the file; Loupe does not use it (every call is one you make).',
      'Server "c": "alwaysAllow" is kept in the file; Loupe does not use it (every call is one you make).',
      'Server "c": "timeout" is kept in the file; Loupe uses its own connect timeout instead.',
      'Server "odd": "myKey" is kept in the file; Loupe does not use it.',
    ]);
  });

  it('writes disabled only when true, kept keys after the fixed ones', () => {
    const out = expectRoundTrip(text);
    expect(JSON.parse(out).mcpServers.w).toEqual({ url: 'https://h/mcp', disabled: true });
    expect(Object.keys(JSON.parse(out).mcpServers.c)).toEqual(['command', 'args', 'autoApprove', 'alwaysAllow', 'timeout']);
  });

  it('Cline transportType is understood', () => {
    expect(ws('{"mcpServers": {"r": {"url": "http://h/sse", "transportType": "sse"}}}').servers[0].config).toMatchObject({ transport: 'sse' });
  });
});

describe('parseWorkspace: VS Code', () => {
  const text = `{
    // comments and trailing commas, as VS Code writes them
    "inputs": [
      { "type": "promptString", "id": "token", "description": "API token", "password": true },
      { "type": "promptString", "id": "region", "default": "eu" },
      { "type": "pickString", "id": "mode", "options": ["a", "b"] },
    ],
    "servers": {
      "local": { "type": "stdio", "command": "server.js", "env": { "T": "\${input:token}", "R": "\${input:region}", "H": "\${env:HOME}" }, "envFile": "\${workspaceFolder}/.env" },
      "remote": { "type": "http", "url": "https://h/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      "exact": { "type": "http", "url": "https://h/only" },
    },
  }`;

  it('reads servers and inputs; "http" tries Streamable HTTP then SSE', () => {
    const w = ws(text);
    expect(w.flavour).toBe('servers');
    expect(byName(w, 'local').config).toMatchObject({ command: 'node', args: ['server.js'] });
    expect(byName(w, 'remote').config).toMatchObject({ transport: 'auto' });
    expect(w.inputs).toEqual([
      { id: 'token', type: 'promptString', description: 'API token', password: true },
      { id: 'region', type: 'promptString', default: 'eu' },
      { id: 'mode', type: 'promptString' },
    ]);
  });

  it('input and env references are secret; a declared non-password input is not', () => {
    const w = ws(text);
    expect(byName(w, 'local').secretEnv).toEqual(['T', 'H']);
    expect(byName(w, 'remote').secretHeaders).toEqual(['Authorization']);
  });

  it('notes envFile and input types it cannot show', () => {
    expect(ws(text).notes).toEqual([
      'Input "mode" has type "pickString"; Loupe asks for it as text.',
      'Server "local": "envFile" (${workspaceFolder}/.env) is kept in the file, but its variables are not loaded.',
    ]);
  });

  it('round-trips; Streamable-HTTP-only is recorded under x-mcp-loupe', () => {
    const w = ws(text);
    const exact = byName(w, 'exact');
    exact.config = { ...exact.config, transport: 'http' } as typeof exact.config;
    const out = serializeWorkspace(w);
    expect(JSON.parse(out)['x-mcp-loupe']).toEqual({ version: 1, servers: { exact: { transport: 'http' } } });
    expect(byName(ws(out), 'exact').config).toMatchObject({ transport: 'http' });
    expect(ws(out).servers).toEqual(w.servers);
    expectRoundTrip(out);
  });

  it('notes placeholders and undeclared inputs', () => {
    const w = ws('{"servers": {"s": {"command": "srv", "args": ["${workspaceFolder}/data", "${userHome}"], "env": {"K": "${input:nope}"}}}}');
    expect(w.notes).toEqual([
      'Server "s": ${input:nope} not declared in "inputs"; Loupe asks for it as a secret.',
      'Server "s": ${workspaceFolder}, ${userHome} left as written unless Loupe knows their values.',
    ]);
  });

  it('reads mcp.servers of a settings.json, with a note', () => {
    const w = ws('{"editor.fontSize": 12, "mcp": {"servers": {"s": {"command": "srv"}}}}');
    expect(w.servers[0].config).toMatchObject({ command: 'srv' });
    expect(w.other).toBeUndefined();
    expect(w.notes).toEqual(['Servers read from "mcp.servers" of a VS Code settings.json; saving writes a separate mcp.json-style file.']);
  });
});

describe('parseWorkspace: errors name the entry', () => {
  it.each([
    ['not JSON', '{"mcpServers": {', /^Invalid JSON/],
    ['no servers', '{"other": 1}', /^No servers found/],
    ['neither command nor url', '{"mcpServers": {"odd": {"foo": 1}}}', /^Server "odd": is neither a stdio server/],
    ['defined twice', '{"mcpServers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}}', /^Server "a" is defined twice/],
  ])('%s', (_label, text, message) => {
    expect(parseError(text)).toMatch(message);
  });
});

describe('serializeWorkspace: extras and secrets', () => {
  const SENTINEL = 'sk-SENTINEL-5f3a9c';
  const base = (): Workspace => ws('{"mcpServers": {"a b": {"command": "srv", "env": {"API_KEY": "x", "PLAIN": "1"}}, "h": {"url": "https://h/mcp", "headers": {"Authorization": "y"}}}}');

  it('a secret value never lands in the file: it becomes a declared password input', () => {
    const w = base();
    w.servers[0].config = { ...w.servers[0].config, env: { API_KEY: SENTINEL, PLAIN: '1' } } as WorkspaceServer['config'];
    w.servers[0].secretEnv = ['API_KEY'];
    w.servers[1].config = { ...w.servers[1].config, headers: { Authorization: `Bearer ${SENTINEL}` } } as WorkspaceServer['config'];
    w.servers[1].secretHeaders = ['Authorization'];
    const out = serializeWorkspace(w);
    expect(out).not.toContain(SENTINEL);
    const file = JSON.parse(out);
    expect(file.mcpServers['a b'].env).toEqual({ API_KEY: '${input:loupe-a-b-API_KEY}', PLAIN: '1' });
    expect(file.mcpServers.h.headers).toEqual({ Authorization: '${input:loupe-h-Authorization}' });
    expect(file.inputs).toEqual([
      { type: 'promptString', id: 'loupe-a-b-API_KEY', description: 'API_KEY for a b', password: true },
      { type: 'promptString', id: 'loupe-h-Authorization', description: 'Authorization for h', password: true },
    ]);
    // Reopened, the secrets are known as secrets, and a second save changes nothing.
    const reopened = ws(out);
    expect(reopened.servers[0].secretEnv).toEqual(['API_KEY']);
    expect(reopened.servers[1].secretHeaders).toEqual(['Authorization']);
    expect(serializeWorkspace(reopened)).toBe(out);
  });

  it('an env reference stays an env reference', () => {
    const w = base();
    w.servers[0].config = { ...w.servers[0].config, env: { API_KEY: '${env:API_KEY}', PLAIN: '1' } } as WorkspaceServer['config'];
    w.servers[0].secretEnv = ['API_KEY'];
    expect(JSON.parse(serializeWorkspace(w)).mcpServers['a b'].env.API_KEY).toBe('${env:API_KEY}');
    expect(JSON.parse(serializeWorkspace(w)).inputs).toBeUndefined();
  });

  it('drops inputs Loupe added once nothing uses them, keeps the user\'s', () => {
    const w = base();
    w.inputs = [{ id: 'loupe-gone-X', type: 'promptString', password: true }, { id: 'mine', type: 'promptString' }];
    expect(JSON.parse(serializeWorkspace(w)).inputs).toEqual([{ type: 'promptString', id: 'mine' }]);
  });

  it('x-mcp-loupe only when non-empty; saved calls and capabilities round-trip', () => {
    const w = base();
    expect(serializeWorkspace(w)).not.toContain('x-mcp-loupe');
    w.servers[1].extras = {
      savedCalls: [{ name: 'echo hi', kind: 'tool', target: 'echo', arguments: { message: 'hi' } }, { name: 'readme', kind: 'resource', target: 'file:///README.md' }],
      clientCapabilities: { sampling: false, samplingTools: false, elicitationForm: true, elicitationUrl: true, roots: true, rootsListChanged: true, tasks: false, apps: false },
    };
    const out = serializeWorkspace(w);
    expect(Object.keys(JSON.parse(out))).toEqual(['mcpServers', 'x-mcp-loupe']);
    expect(ws(out)).toEqual({ ...w, notes: [] });
    expect(serializeWorkspace(ws(out))).toBe(out);
  });

  it('bad x-mcp-loupe content is a note, not an error', () => {
    const w = ws('{"mcpServers": {"a": {"command": "x"}}, "x-mcp-loupe": {"version": 1, "servers": {"a": {"savedCalls": [{"kind": "nope"}]}, "ghost": {}}}}');
    expect(w.servers[0].extras).toEqual({});
    expect(w.notes[0]).toMatch(/^Server "a": its "x-mcp-loupe" settings are not valid/);
    expect(w.notes[1]).toBe('"x-mcp-loupe" has settings for "ghost", which the file does not define; they are dropped.');
    expect(ws('{"mcpServers": {}, "x-mcp-loupe": {"version": 9}}').notes[0]).toMatch(/not a version 1 block/);
  });

  it('a server named __proto__ and kept keys named like Object members survive', () => {
    const out = expectRoundTrip('{"mcpServers": {"__proto__": {"command": "x", "toString": 1}}}');
    expect(JSON.parse(out).mcpServers.__proto__).toEqual({ command: 'x', toString: 1 });
  });
});

describe('mergeServers', () => {
  const server = (name: string): WorkspaceServer => ({
    name, disabled: false, secretEnv: [], secretHeaders: [], extras: {},
    config: { kind: 'stdio', name, command: name, args: [], env: {} },
  });

  it('keeps both on a clash, the second renamed with a note', () => {
    const merged = mergeServers([server('a'), server('a-2')], [server('a'), server('b'), server('a')]);
    expect(merged.servers.map((s) => s.name)).toEqual(['a', 'a-2', 'a-3', 'b', 'a-4']);
    expect(merged.servers[2].config.name).toBe('a-3');
    expect(merged.notes).toEqual([
      'Server "a" already exists; the imported one is named "a-3".',
      'Server "a" already exists; the imported one is named "a-4".',
    ]);
  });

  it('does not change the inputs', () => {
    const existing = [server('a')];
    mergeServers(existing, [server('a')]);
    expect(existing.map((s) => s.name)).toEqual(['a']);
  });
});

describe('parseImport', () => {
  const imported = (text: string): Workspace => {
    const result = parseImport(text);
    if (!result.ok) throw new Error(result.error);
    return result.value;
  };
  const importError = (text: string): string => {
    const result = parseImport(text);
    if (result.ok) throw new Error('expected an error');
    return result.error;
  };

  it('a whole file in any format', () => {
    expect(imported('{"servers": {"s": {"type": "http", "url": "https://h/"}}}').servers[0].config).toMatchObject({ transport: 'auto' });
    expect(imported('// jsonc\n{"mcpServers": {"s": {"command": "x",},}}').servers[0].name).toBe('s');
  });

  it('a single entry, its name derived', () => {
    expect(imported('{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}').servers[0]).toMatchObject({
      name: '@modelcontextprotocol/server-memory', config: { name: '@modelcontextprotocol/server-memory', command: 'npx' },
    });
    expect(imported('{"url": "https://mcp.example.com/mcp"}').servers[0].name).toBe('mcp.example.com');
  });

  it('named entries', () => {
    expect(imported('{"memory": {"command": "npx", "args": ["-y", "m"]}, "r": {"serverUrl": "https://h/"}}').servers.map((s) => s.name)).toEqual(['memory', 'r']);
  });

  it('a command line, with env prefixes', () => {
    const s = imported('API_KEY=${env:API_KEY} DEBUG=1 npx -y @modelcontextprotocol/server-everything').servers[0];
    expect(s.config).toEqual({ kind: 'stdio', name: '@modelcontextprotocol/server-everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { API_KEY: '${env:API_KEY}', DEBUG: '1' } });
    expect(s.secretEnv).toEqual(['API_KEY']);
  });

  it('a script path and a URL alone', () => {
    expect(imported('server.py --debug').servers[0].config).toMatchObject({ command: 'python3', args: ['server.py', '--debug'] });
    expect(imported('  https://h.example/mcp  ').servers[0].config).toMatchObject({ kind: 'http', url: 'https://h.example/mcp', transport: 'auto' });
  });

  it('notes $VAR, which no shell expands here', () => {
    expect(imported('TOKEN="$TOKEN" srv').notes).toEqual(['TOKEN="$TOKEN": shell variables are not expanded; use ${env:NAME} to read Loupe\'s environment.']);
  });

  it('bad input says why', () => {
    expect(importError('')).toMatch(/^Nothing to import/);
    expect(importError('{"foo": 1}')).toMatch(/^Not a server list/);
    expect(importError('{"command": 1}')).toBe('The pasted entry: "command" must be a string.');
    expect(importError('{"a": ')).toMatch(/^Invalid JSON/);
    expect(importError('npx "pkg')).toBe('Unclosed double quote at column 5');
    expect(importError('https://h/ extra')).toBe('A URL takes no arguments, but got: extra');
  });
});
