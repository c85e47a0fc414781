import { describe, expect, it } from 'vitest';
import { ServerConfigSchema, type ServerConfig } from '../model/server-config.ts';
import { describeConfig, normalizeTarget, type TargetInput } from './server-config.ts';
import { parseWorkspace } from '../workspace/workspace.ts';

function value(input: TargetInput): ServerConfig {
  const result = normalizeTarget(input);
  if (!result.ok) throw new Error(result.error);
  // Everything we produce must be a valid wire config.
  expect(ServerConfigSchema.parse(result.value)).toEqual(result.value);
  return result.value;
}

function error(input: TargetInput): string {
  const result = normalizeTarget(input);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('normalizeTarget: URLs', () => {
  it('an http(s) URL is Streamable HTTP with SSE fallback', () => {
    expect(value({ target: ['https://mcp.example.com/mcp'] })).toEqual({
      kind: 'http', name: 'mcp.example.com', url: 'https://mcp.example.com/mcp', transport: 'auto', headers: {},
    });
  });

  it('the derived name keeps the port', () => {
    expect(value({ target: ['http://localhost:3001/sse'] }).name).toBe('localhost:3001');
  });

  it('--transport sse and http force the transport', () => {
    expect(value({ target: ['http://h/sse'], transport: 'sse' })).toMatchObject({ transport: 'sse' });
    expect(value({ target: ['http://h/mcp'], transport: 'http' })).toMatchObject({ transport: 'http' });
  });

  it('keeps headers and the given name', () => {
    const config = value({ target: ['https://h/mcp'], headers: { Authorization: 'Bearer x' }, name: 'prod' });
    expect(config).toMatchObject({ name: 'prod', headers: { Authorization: 'Bearer x' } });
  });

  it('accepts an upper-case scheme', () => {
    expect(value({ target: ['HTTPS://h/mcp'] }).kind).toBe('http');
  });

  it('refuses --transport stdio with a URL', () => {
    expect(error({ target: ['http://h/mcp'], transport: 'stdio' })).toMatch(/Transport stdio starts a command, but http:\/\/h\/mcp is a URL/);
  });

  it('refuses a URL that does not parse', () => {
    expect(error({ target: ['http://exa mple.com/'] })).toBe('Not a valid URL: http://exa mple.com/');
    expect(error({ target: ['https://'] })).toBe('Not a valid URL: https://');
  });

  it('refuses other schemes instead of spawning them', () => {
    expect(error({ target: ['ws://h/mcp'] })).toMatch(/Unsupported URL scheme "ws:"/);
  });

  it('refuses arguments after a URL', () => {
    expect(error({ target: ['http://h/mcp', '--flag'] })).toBe('A URL takes no arguments, but got: --flag');
  });

  it('refuses env and cwd with a URL instead of dropping them', () => {
    expect(error({ target: ['http://h/mcp'], env: { A: '1' } })).toMatch(/Environment variables only apply to a stdio server/);
    expect(error({ target: ['http://h/mcp'], cwd: '/tmp' })).toMatch(/working directory only applies to a stdio server/);
  });

  it('treats empty env as not given', () => {
    expect(value({ target: ['http://h/mcp'], env: {} }).kind).toBe('http');
  });

  it('refuses bad header names and values', () => {
    expect(error({ target: ['http://h/'], headers: { 'Bad Name': 'x' } })).toBe('Not a valid HTTP header name: "Bad Name"');
    expect(error({ target: ['http://h/'], headers: { X: 'a\r\nInjected: 1' } })).toMatch(/contains a line break/);
  });
});

describe('normalizeTarget: commands and scripts', () => {
  it('a command runs as given', () => {
    expect(value({ target: ['npx', '-y', '@modelcontextprotocol/server-memory'] })).toEqual({
      kind: 'stdio', name: '@modelcontextprotocol/server-memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: {},
    });
  });

  it('a .py script runs with python3', () => {
    expect(value({ target: ['server.py', '--debug'] })).toMatchObject({ command: 'python3', args: ['server.py', '--debug'], name: 'server.py' });
  });

  it('.js, .mjs and .cjs scripts run with node', () => {
    for (const script of ['build/index.js', 'a.mjs', 'a.cjs']) {
      expect(value({ target: [script] })).toMatchObject({ command: 'node', args: [script] });
    }
  });

  it('.ts and .mts scripts run with npx -y tsx', () => {
    expect(value({ target: ['src/server.ts', 'x'] })).toMatchObject({ command: 'npx', args: ['-y', 'tsx', 'src/server.ts', 'x'], name: 'server.ts' });
    expect(value({ target: ['s.mts'] })).toMatchObject({ command: 'npx', args: ['-y', 'tsx', 's.mts'] });
  });

  it('only the first word decides: node server.js stays as typed', () => {
    expect(value({ target: ['node', 'server.js'] })).toMatchObject({ command: 'node', args: ['server.js'], name: 'server.js' });
  });

  it('keeps env and cwd', () => {
    const config = value({ target: ['./srv'], env: { TOKEN: 'a=b' }, cwd: '/work' });
    expect(config).toMatchObject({ command: './srv', env: { TOKEN: 'a=b' }, cwd: '/work', name: 'srv' });
  });

  it('omits an empty cwd', () => {
    expect(value({ target: ['srv'], cwd: '' })).not.toHaveProperty('cwd');
  });

  it('derives names from what a runner runs', () => {
    expect(value({ target: ['npx', '-y', 'some-server@1.2.3'] }).name).toBe('some-server');
    expect(value({ target: ['npx', '@scope/pkg@latest', '--x'] }).name).toBe('@scope/pkg');
    expect(value({ target: ['uvx', 'mcp-server-fetch'] }).name).toBe('mcp-server-fetch');
    expect(value({ target: ['python3', '-m', 'mcp_server_git'] }).name).toBe('mcp_server_git');
    expect(value({ target: ['uv', 'run', 'server.py'] }).name).toBe('server.py');
    expect(value({ target: ['C:\\Program Files\\nodejs\\node.exe', 'C:\\srv\\main.js'] }).name).toBe('main.js');
    expect(value({ target: ['/usr/local/bin/my-server', '--stdio'] }).name).toBe('my-server');
    expect(value({ target: ['npx'] }).name).toBe('npx');
  });

  it('refuses --transport http or sse with a command', () => {
    expect(error({ target: ['node', 's.js'], transport: 'http' })).toBe('Transport http needs an http(s):// URL, but "node" is a command.');
    expect(error({ target: ['node'], transport: 'sse' })).toMatch(/Transport sse needs/);
  });

  it('accepts --transport stdio with a command', () => {
    expect(value({ target: ['node', 's.js'], transport: 'stdio' }).kind).toBe('stdio');
  });

  it('refuses headers with a command instead of dropping them', () => {
    expect(error({ target: ['node', 's.js'], headers: { A: 'b' } })).toMatch(/HTTP headers only apply to a remote \(URL\) server; "node"/);
  });

  it('refuses bad env names', () => {
    expect(error({ target: ['srv'], env: { '': 'x' } })).toBe('Not a valid environment variable name: ""');
  });

  it('refuses an empty target', () => {
    expect(error({ target: [] })).toMatch(/^No server given/);
    expect(error({ target: ['  '] })).toMatch(/^No server given/);
  });
});

// The entries of a file as the CLI reads them (lib/workspace/workspace.ts builds on parseEntry here).
function servers(text: string): { value: Record<string, ServerConfig>; warnings: string[] } {
  const result = parseWorkspace(text);
  if (!result.ok) throw new Error(result.error);
  return { value: Object.fromEntries(result.value.servers.map((s) => [s.name, s.config])), warnings: result.value.notes };
}

function parseError(text: string): string {
  const result = parseWorkspace(text);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

describe('mcp.json entries: Claude Desktop / Cursor', () => {
  it('reads stdio entries with args, env and cwd', () => {
    const { value: s, warnings } = servers(JSON.stringify({
      mcpServers: { fs: { command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { A: '1' }, cwd: '/w' } },
    }));
    expect(s).toEqual({ fs: { kind: 'stdio', name: 'fs', command: 'npx', args: ['-y', 'server-fs', '/tmp'], env: { A: '1' }, cwd: '/w' } });
    expect(warnings).toEqual([]);
  });

  it('applies the script rule to stdio entries', () => {
    const { value: s } = servers('{"mcpServers": {"py": {"command": "srv.py", "args": ["-v"]}, "ts": {"command": "a.ts"}}}');
    expect(s.py).toMatchObject({ command: 'python3', args: ['srv.py', '-v'], name: 'py' });
    expect(s.ts).toMatchObject({ command: 'npx', args: ['-y', 'tsx', 'a.ts'] });
  });

  it('a url without a type is auto', () => {
    expect(servers('{"mcpServers": {"r": {"url": "https://h/mcp"}}}').value.r).toEqual({
      kind: 'http', name: 'r', url: 'https://h/mcp', transport: 'auto', headers: {},
    });
  });

  it('accepts serverUrl (Windsurf) and headers', () => {
    const r = servers('{"mcpServers": {"r": {"serverUrl": "https://h/mcp", "headers": {"X-Key": "k"}}}}').value.r;
    expect(r).toMatchObject({ url: 'https://h/mcp', headers: { 'X-Key': 'k' } });
  });

  it.each([
    ['sse', 'sse'], ['http', 'http'], ['streamable-http', 'http'], ['streamableHttp', 'http'], ['streamable_http', 'http'], ['SSE', 'sse'],
  ])('type %s → transport %s', (type, transport) => {
    expect(servers(JSON.stringify({ mcpServers: { r: { type, url: 'http://h/' } } })).value.r).toMatchObject({ transport });
  });

  it('accepts "transport" as the key too', () => {
    expect(servers('{"mcpServers": {"r": {"transport": "sse", "url": "http://h/sse"}}}').value.r).toMatchObject({ transport: 'sse' });
  });

  it('accepts type "stdio" with a command', () => {
    expect(servers('{"mcpServers": {"s": {"type": "stdio", "command": "srv"}}}').value.s.kind).toBe('stdio');
  });

  it('an empty mcpServers is fine (selectServer says so)', () => {
    expect(servers('{"mcpServers": {}}').value).toEqual({});
  });

  it('ignores fields other clients use', () => {
    const text = '{"mcpServers": {"s": {"command": "srv", "disabled": false, "autoApprove": [], "timeout": 60}}}';
    expect(servers(text).value.s).toMatchObject({ command: 'srv' });
  });

  it('keeps a server named __proto__ as a plain key', () => {
    const { value: s } = servers('{"mcpServers": {"__proto__": {"command": "srv"}}}');
    expect(Object.keys(s)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(s)).toBe(Object.prototype);
  });
});

describe('mcp.json entries: VS Code', () => {
  const vscode = `{
    // VS Code allows comments
    "inputs": [{ "type": "promptString", "id": "token", "password": true }],
    "servers": {
      "local": { "type": "stdio", "command": "server.js", "args": ["--x"], "env": { "T": "\${input:token}" } },
      "remote": { "type": "http", "url": "https://h/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      "legacy": { "type": "sse", "url": "http://h/sse" }, /* trailing comma next */
    },
  }`;

  it('reads servers, applying the script rule', () => {
    expect(servers(vscode).value.local).toEqual({ kind: 'stdio', name: 'local', command: 'node', args: ['server.js', '--x'], env: { T: '${input:token}' } });
  });

  it('"http" means Streamable HTTP with SSE fallback, as VS Code does', () => {
    expect(servers(vscode).value.remote).toMatchObject({ kind: 'http', transport: 'auto', headers: { Authorization: 'Bearer ${input:token}' } });
    expect(servers(vscode).value.legacy).toMatchObject({ transport: 'sse' });
  });

  it('reports envFile', () => {
    const { warnings } = servers('{"servers": {"s": {"command": "srv", "envFile": "${workspaceFolder}/.env"}}}');
    expect(warnings).toEqual(['Server "s": "envFile" (${workspaceFolder}/.env) is kept in the file, but its variables are not loaded.']);
  });

  it('reads "mcp.servers" from a settings.json', () => {
    expect(servers('{"editor.fontSize": 12, "mcp": {"servers": {"s": {"command": "srv"}}}}').value.s).toMatchObject({ command: 'srv' });
  });
});

describe('mcp.json entries: errors', () => {
  it('names the line and column of bad JSON', () => {
    expect(parseError('{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}')).toMatch(/^Invalid JSON at line 4, column 5: /);
  });

  it('needs an object at the top', () => {
    expect(parseError('[]')).toMatch(/^Expected a JSON object/);
  });

  it('needs mcpServers or servers', () => {
    expect(parseError('{"other": {}}')).toMatch(/^No servers found: expected "mcpServers"/);
  });

  it('mcpServers must be an object', () => {
    expect(parseError('{"mcpServers": []}')).toBe('"mcpServers" must be an object of named servers.');
  });

  it('an entry that is neither stdio nor http is named', () => {
    expect(parseError('{"mcpServers": {"odd": {"foo": 1}}}')).toBe('Server "odd": is neither a stdio server (no "command") nor a remote server (no "url").');
  });

  it('an entry that is not an object is named', () => {
    expect(parseError('{"mcpServers": {"odd": "node x.js"}}')).toMatch(/^Server "odd": expected an object/);
  });

  it('an unknown type is named', () => {
    expect(parseError('{"mcpServers": {"w": {"type": "websocket", "url": "ws://h"}}}')).toBe('Server "w": unknown type "websocket" (expected "stdio", "http" or "sse").');
  });

  it('command and url together need a type', () => {
    expect(parseError('{"mcpServers": {"b": {"command": "x", "url": "http://h/"}}}')).toMatch(/has both "command" and "url"/);
  });

  it('a declared type needs its field', () => {
    expect(parseError('{"servers": {"s": {"type": "stdio", "url": "http://h/"}}}')).toBe('Server "s": type "stdio" needs a "command".');
    expect(parseError('{"servers": {"h": {"type": "http", "command": "x"}}}')).toBe('Server "h": a remote server needs a "url".');
    expect(parseError('{"servers": {"h": {"type": "http", "url": "http://h/", "command": "x"}}}')).toBe('Server "h": a remote server has no "command".');
  });

  it('a url without a scheme is refused, not spawned', () => {
    expect(parseError('{"mcpServers": {"r": {"url": "localhost:3000/mcp"}}}')).toMatch(/"url" must start with http:\/\/ or https:\/\//);
  });

  it('field types are checked', () => {
    expect(parseError('{"mcpServers": {"s": {"command": "x", "args": ["--port", 8080]}}}')).toBe('Server "s": "args" must be an array of strings.');
    expect(parseError('{"mcpServers": {"s": {"command": "x", "env": {"PORT": 1}}}}')).toBe('Server "s": "env" must be an object of strings ("PORT" is not a string).');
    expect(parseError('{"mcpServers": {"s": {"command": 1}}}')).toBe('Server "s": "command" must be a string.');
    expect(parseError('{"mcpServers": {"s": {"command": "x", "cwd": false}}}')).toBe('Server "s": "cwd" must be a string.');
  });

  it('options that do not fit the kind are errors, not dropped', () => {
    expect(parseError('{"mcpServers": {"s": {"command": "x", "headers": {"A": "b"}}}}')).toMatch(/^Server "s": HTTP headers only apply/);
    expect(parseError('{"mcpServers": {"r": {"url": "http://h/", "env": {"A": "b"}}}}')).toMatch(/^Server "r": Environment variables only apply/);
  });

  it('a name in both sections is an error', () => {
    expect(parseError('{"mcpServers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}}')).toBe('Server "a" is defined twice.');
  });
});


describe('describeConfig', () => {
  it('shows a command line', () => {
    expect(describeConfig({ kind: 'stdio', command: 'node', args: ['server.js', '--flag'], env: { SECRET: 'x' } })).toBe('node server.js --flag');
  });

  it('quotes words a shell would split', () => {
    expect(describeConfig({ kind: 'stdio', command: '/opt/my app/srv', args: ["it's", '', 'a=b'], env: {} })).toBe(`'/opt/my app/srv' 'it'\\''s' '' a=b`);
  });

  it('shows the URL of a remote server', () => {
    expect(describeConfig({ kind: 'http', url: 'https://h/mcp', transport: 'sse', headers: { Authorization: 'x' } })).toBe('https://h/mcp');
  });
});
