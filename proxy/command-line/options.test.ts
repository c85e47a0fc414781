import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import { parseCliArgs, resolveTarget, USAGE, type CliOptions, type TargetDeps } from './options.ts';
import { emptyHeadless } from './headless.ts';
import { defaultServer } from '../default-server.ts';
import { parseWorkspace } from '../../lib/workspace/workspace.ts';

function options(argv: string[]): CliOptions {
  const result = parseCliArgs(argv);
  if (!result.ok) throw new Error(result.error);
  return result.options;
}

function error(argv: string[]): string {
  const result = parseCliArgs(argv);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.options)}`);
  return result.error;
}

describe('parseCliArgs: defaults and flags', () => {
  it('has safe defaults', () => {
    expect(options([])).toEqual({ open: true, host: '127.0.0.1', env: {}, headers: {}, servers: [], help: false, version: false, target: [], headless: emptyHeadless(), oauth: { rememberCredentials: false }, relay: { tap: false, noAttach: false, gateway: false } });
  });

  it('reads --port, including 0 and the = form', () => {
    expect(options(['--port', '7000']).port).toBe(7000);
    expect(options(['--port=0']).port).toBe(0);
    expect(options(['--port', '65535']).port).toBe(65535);
  });

  it.each(['65536', '-1', 'abc', '', '1.5', '123456'])('refuses --port %j', (port) => {
    expect(error([`--port=${port}`])).toBe(`--port expects a number from 0 to 65535, got ${JSON.stringify(port)}.`);
  });

  it('--no-open, --help, -h, --version', () => {
    expect(options(['--no-open']).open).toBe(false);
    expect(options(['--help']).help).toBe(true);
    expect(options(['-h']).help).toBe(true);
    expect(options(['--version']).version).toBe(true);
  });

  it('--help wins over combinations that would be errors', () => {
    expect(options(['--server', 'x', '--help']).help).toBe(true);
  });

  it('flags take no value', () => {
    expect(error(['--no-open=yes'])).toBe('--no-open takes no value.');
  });

  it('the usage text names every option', () => {
    for (const name of ['--port', '--no-open', '--env', '--cwd', '--transport', '--header', '--config', '--server', '--dangerously-listen-on', '--help', '--version']) {
      expect(USAGE).toContain(name);
    }
  });
});

describe('parseCliArgs: server options', () => {
  it('-e and --env are repeatable; values may contain = and be empty', () => {
    expect(options(['-e', 'A=1', '--env', 'B=x=y', '--env=C=', 'node']).env).toEqual({ A: '1', B: 'x=y', C: '' });
  });

  it.each(['A', '=1', ''])('refuses -e %j', (pair) => {
    expect(error(['-e', pair, 'node'])).toBe(`-e expects KEY=VALUE, got ${JSON.stringify(pair)}.`);
  });

  it('--header is repeatable and trims around the colon', () => {
    expect(options(['--header', 'Authorization: Bearer a:b', '--header=X-Empty:', 'http://h/']).headers).toEqual({ Authorization: 'Bearer a:b', 'X-Empty': '' });
  });

  it('a repeated header name replaces the earlier one, whatever its case', () => {
    expect(options(['--header', 'X-Key: 1', '--header', 'x-key: 2', 'http://h/']).headers).toEqual({ 'x-key': '2' });
  });

  it.each(['NoColon', ': value', 'Bad Name: v'])('refuses --header %j', (header) => {
    expect(error(['--header', header, 'http://h/'])).toBe(`--header expects "Name: value", got ${JSON.stringify(header)}.`);
  });

  it('--transport takes stdio, http, sse (and streamable-http)', () => {
    expect(options(['--transport', 'sse', 'http://h/']).transport).toBe('sse');
    expect(options(['--transport=HTTP', 'http://h/']).transport).toBe('http');
    expect(options(['--transport', 'streamable-http', 'http://h/']).transport).toBe('http');
    expect(error(['--transport', 'ws', 'http://h/'])).toBe('--transport expects stdio, http or sse, got "ws".');
  });

  it('--cwd, --config, --server need non-empty values', () => {
    expect(options(['--cwd', '/w', 'node']).cwd).toBe('/w');
    expect(error(['--cwd=', 'node'])).toBe('--cwd needs a value.');
    expect(options(['--config', 'mcp.json', '--server', 'a'])).toMatchObject({ config: 'mcp.json', servers: ['a'] });
    expect(options(['--config', 'mcp.json', '--server', 'a', '--server=b']).servers).toEqual(['a', 'b']);
  });
});

describe('parseCliArgs: the target', () => {
  it('everything from the first positional on is the target, verbatim', () => {
    const o = options(['--no-open', 'npx', '-y', '@scope/server', '--port', '9', '-e', 'X']);
    expect(o.target).toEqual(['npx', '-y', '@scope/server', '--port', '9', '-e', 'X']);
    expect(o.port).toBeUndefined();
    expect(o.env).toEqual({});
  });

  it('-- ends the options', () => {
    expect(options(['--port', '1', '--', '--weird-command', '--x']).target).toEqual(['--weird-command', '--x']);
    expect(options(['--']).target).toEqual([]);
  });

  it('a lone - is a positional', () => {
    expect(options(['-']).target).toEqual(['-']);
  });

  it('a URL target', () => {
    expect(options(['https://h/mcp']).target).toEqual(['https://h/mcp']);
  });
});

describe('parseCliArgs: errors', () => {
  it('names an unknown option and says where server options go', () => {
    expect(error(['--stdio', 'node'])).toMatch(/^Unknown option --stdio\. Options for the server go after its command/);
    expect(error(['--bogus=1'])).toMatch(/^Unknown option --bogus\./);
    expect(error(['-x'])).toMatch(/^Unknown option -x\./);
  });

  it('a value is missing at the end', () => {
    expect(error(['--port'])).toBe('--port needs a value.');
    expect(error(['-e'])).toBe('-e needs a value.');
  });

  it('an option where a value should be is a forgotten value', () => {
    expect(error(['--cwd', '--no-open', 'node'])).toBe('--cwd needs a value, got the option --no-open (write --cwd=--no-open if you mean it).');
  });

  it('--config and a target together', () => {
    expect(error(['--config', 'mcp.json', 'node', 's.js'])).toMatch(/^--config and a target \(node\) cannot be combined/);
  });

  it('--server without --config', () => {
    expect(error(['--server', 'a'])).toBe('--server picks a server from a file: add --config <file>.');
  });

  it('server options without any server', () => {
    expect(error(['-e', 'A=1', '--cwd', '/w'])).toBe('-e/--env, --cwd describe the server to inspect, but none was given: add a command, a URL or --config <file>.');
    expect(error(['--transport', 'sse'])).toMatch(/^--transport describe/);
  });
});

describe('parseCliArgs: listening address', () => {
  it('--host accepts loopback only', () => {
    expect(options(['--host', '::1']).host).toBe('::1');
    expect(options(['--host', '[::1]']).host).toBe('::1');
    expect(options(['--host=localhost']).host).toBe('localhost');
    expect(error(['--host', '0.0.0.0'])).toMatch(/accepts only loopback .* use --dangerously-listen-on 0\.0\.0\.0/);
  });

  it('--dangerously-listen-on opts in to any interface', () => {
    expect(options(['--dangerously-listen-on', '0.0.0.0']).host).toBe('0.0.0.0');
    expect(options(['--dangerously-listen-on=[::]']).host).toBe('::');
    expect(error(['--dangerously-listen-on='])).toBe('--dangerously-listen-on needs a value.');
  });
});

const demo: ServerConfig = { kind: 'stdio', name: 'demo', command: '/bin/node', args: ['demo.js'], env: {} };

function deps(files: Record<string, string> = {}): TargetDeps {
  return {
    readFile(path) {
      if (!Object.hasOwn(files, path)) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return files[path];
    },
    defaultServer: () => demo,
    parseWorkspace,
  };
}

function resolved(argv: string[], files?: Record<string, string>) {
  const result = resolveTarget(options(argv), deps(files));
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

function resolveError(argv: string[], files?: Record<string, string>): string {
  const result = resolveTarget(options(argv), deps(files));
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const mcpJson = JSON.stringify({
  mcpServers: {
    local: { command: 'server.py', env: { A: '1', B: '2' } },
    remote: { url: 'https://h/mcp', headers: { Authorization: 'Bearer file' } },
    vars: { command: 'srv', args: ['${workspaceFolder}'] },
  },
});

describe('resolveTarget', () => {
  it('no target: the default server', () => {
    expect(resolved([])).toEqual({ config: demo, isDefault: true, warnings: [] });
  });

  it('a broken default server is an error, not a crash', () => {
    const result = resolveTarget(options([]), { ...deps(), defaultServer: () => { throw new Error('not installed'); } });
    expect(result).toEqual({ ok: false, error: 'not installed' });
  });

  it('a command with env and cwd', () => {
    expect(resolved(['-e', 'K=v', '--cwd', '/w', 'server.js', '--x'])).toEqual({
      config: { kind: 'stdio', name: 'server.js', command: 'node', args: ['server.js', '--x'], env: { K: 'v' }, cwd: '/w' },
      isDefault: false,
      warnings: [],
    });
  });

  it('a URL with headers and a transport', () => {
    expect(resolved(['--transport', 'sse', '--header', 'X-A: 1', 'http://h/sse']).config).toEqual({
      kind: 'http', name: 'h', url: 'http://h/sse', transport: 'sse', headers: { 'X-A': '1' },
    });
  });

  it('mismatched options are errors', () => {
    expect(resolveError(['--header', 'X: 1', 'node', 's.js'])).toMatch(/HTTP headers only apply/);
    expect(resolveError(['-e', 'A=1', 'http://h/'])).toMatch(/Environment variables only apply/);
    expect(resolveError(['--transport', 'stdio', 'http://h/'])).toMatch(/Transport stdio starts a command/);
  });

  const workspaceOf = (argv: string[], files: Record<string, string>) => {
    const { workspace } = resolved(argv, files);
    if (!workspace) throw new Error('no workspace');
    return workspace;
  };
  const serverNamed = (argv: string[], files: Record<string, string>, name: string) => workspaceOf(argv, files).workspace.servers.find((s) => s.name === name);

  it('--config without --server opens every server of the file and starts those not disabled (issue 9)', () => {
    const file = JSON.stringify({ mcpServers: { ...JSON.parse(mcpJson).mcpServers, off: { command: 'x', disabled: true } } });
    const ws = workspaceOf(['--config', 'mcp.json'], { 'mcp.json': file });
    expect(ws.workspace.servers.map((s) => s.name)).toEqual(['local', 'remote', 'vars', 'off']);
    expect(ws.start).toEqual(['local', 'remote', 'vars']);
    expect(ws.path).toBe('mcp.json');
    expect(ws.text).toBe(file);
  });

  it('--server picks the servers to start, repeatable, in the order given; the others stay listed', () => {
    const ws = workspaceOf(['--config', 'mcp.json', '--server', 'vars', '--server', 'local'], { 'mcp.json': mcpJson });
    expect(ws.start).toEqual(['vars', 'local']);
    expect(ws.workspace.servers).toHaveLength(3);
    expect(serverNamed(['--config', 'mcp.json', '--server', 'local'], { 'mcp.json': mcpJson }, 'local')?.config).toEqual({ kind: 'stdio', name: 'local', command: 'python3', args: ['server.py'], env: { A: '1', B: '2' } });
  });

  it('--config with one server needs no --server', () => {
    const file = '{"servers": {"only": {"type": "http", "url": "http://h/"}}}';
    expect(serverNamed(['--config', 'c.json'], { 'c.json': file }, 'only')?.config).toMatchObject({ name: 'only', transport: 'auto' });
  });

  it('errors name the file, the entry and why', () => {
    expect(resolveError(['--config', 'nope.json'])).toBe("Cannot read the config file nope.json: ENOENT: no such file or directory, open 'nope.json'");
    expect(resolveError(['--config', 'bad.json'], { 'bad.json': '{' })).toMatch(/^bad\.json: /);
    expect(resolveError(['--config', 'mcp.json', '--server', 'x'], { 'mcp.json': mcpJson })).toMatch(/^mcp\.json: No server named "x"; the config has "local", "remote", "vars"\./);
    expect(resolveError(['--config', 'e.json'], { 'e.json': '{"mcpServers": {}}' })).toMatch(/^e\.json: .*no servers/i);
    expect(resolveError(['--config', 'n.json'], { 'n.json': '{"mcpServers": {"odd": {"args": ["x"]}}}' })).toMatch(/^n\.json: Server "odd": /);
  });

  it('passes on the file\'s notes, each naming its server', () => {
    expect(resolved(['--config', 'mcp.json', '--server', 'vars'], { 'mcp.json': mcpJson }).warnings).toEqual([expect.stringMatching(/^Server "vars": \$\{workspaceFolder\}/)]);
  });

  it('command-line env and cwd apply on top of the picked stdio server, marked secret', () => {
    const argv = ['--config', 'mcp.json', '--server', 'local', '-e', 'B=cli', '--cwd', '/w'];
    const local = serverNamed(argv, { 'mcp.json': mcpJson }, 'local');
    expect(local?.config).toEqual({ kind: 'stdio', name: 'local', command: 'python3', args: ['server.py'], env: { A: '1', B: 'cli' }, cwd: '/w' });
    expect(local?.secretEnv).toEqual(['B']);
    expect(resolveError(['--config', 'mcp.json', '-e', 'B=cli'], { 'mcp.json': mcpJson })).toBe('mcp.json: -e/--env, --header, --cwd and --transport apply to one server: pick it with --server NAME.');
  });

  it('command-line headers and transport apply on top of a remote server from the file', () => {
    const argv = ['--config', 'mcp.json', '--server', 'remote', '--header', 'authorization: Bearer cli', '--transport', 'http'];
    expect(serverNamed(argv, { 'mcp.json': mcpJson }, 'remote')?.config).toEqual({ kind: 'http', name: 'remote', url: 'https://h/mcp', transport: 'http', headers: { authorization: 'Bearer cli' } });
  });

  it('command-line options that do not fit the server from the file are errors', () => {
    expect(resolveError(['--config', 'mcp.json', '--server', 'remote', '-e', 'A=1'], { 'mcp.json': mcpJson })).toMatch(/^mcp\.json: Server "remote": Environment variables only apply/);
    expect(resolveError(['--config', 'mcp.json', '--server', 'local', '--transport', 'sse'], { 'mcp.json': mcpJson })).toMatch(/^mcp\.json: Server "local": Transport sse needs/);
  });
});

describe('defaultServer', () => {
  const config = defaultServer();

  it('runs the bundled server-everything with this Node over stdio', () => {
    expect(config).toMatchObject({ kind: 'stdio', name: 'server-everything (demo)', command: process.execPath, env: {} });
    if (config.kind !== 'stdio') throw new Error('not stdio');
    expect(config.args[0]).toMatch(/@modelcontextprotocol[\\/]server-everything[\\/]dist[\\/]index\.js$/);
    expect(existsSync(config.args[0])).toBe(true);
    expect(config.args[1]).toBe('stdio');
  });

  it('answers initialize', async () => {
    if (config.kind !== 'stdio') throw new Error('not stdio');
    const child = spawn(config.command, config.args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const firstLine = new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        if (buffered.includes('\n')) resolve(buffered.slice(0, buffered.indexOf('\n')));
      });
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    try {
      expect(JSON.parse(await firstLine)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: expect.any(Object) } });
    } finally {
      child.kill();
    }
  });
});

describe('--trace-limit', () => {
  it('takes a number of events, at least 100', () => {
    const ok = parseCliArgs(['--trace-limit', '100000', 'node', 's.js']);
    expect(ok.ok && ok.options.traceLimit).toBe(100000);
    expect(parseCliArgs(['--trace-limit=5'])).toMatchObject({ ok: false, error: expect.stringContaining('at least 100') });
    expect(parseCliArgs(['--trace-limit', 'lots'])).toMatchObject({ ok: false });
  });
});

describe('--connect-timeout', () => {
  it('takes milliseconds, from 100 to an hour', () => {
    const ok = parseCliArgs(['--connect-timeout', '1500', 'node', 's.js']);
    expect(ok.ok && ok.options.connectTimeoutMs).toBe(1500);
    expect(ok.ok && ok.options.target).toEqual(['node', 's.js']);
    const inline = parseCliArgs(['--connect-timeout=120000']);
    expect(inline.ok && inline.options.connectTimeoutMs).toBe(120000);
    expect(parseCliArgs(['--connect-timeout', '50'])).toMatchObject({ ok: false, error: expect.stringContaining('from 100 to 3600000') });
    expect(parseCliArgs(['--connect-timeout', '1.5s'])).toMatchObject({ ok: false, error: expect.stringContaining('"1.5s"') });
    expect(parseCliArgs(['--connect-timeout', '99999999'])).toMatchObject({ ok: false });
  });

  it('is listed in the usage text', () => {
    expect(USAGE).toContain('--connect-timeout <ms>');
  });
});

describe('--watch', () => {
  const exists = (p: string) => ['src', 'lib', 'server.py'].includes(p);
  const parse = (...argv: string[]) => parseCliArgs(argv, { exists });

  it('takes the paths that exist before the command, and none when the command follows at once', () => {
    const some = parse('--watch', 'src', 'lib', 'node', 'build/index.js');
    expect(some.ok && some.options.watch).toEqual(['src', 'lib']);
    expect(some.ok && some.options.target).toEqual(['node', 'build/index.js']);
    const none = parse('--watch', 'node', 'build/index.js');
    expect(none.ok && none.options.watch).toEqual([]);
    expect(none.ok && none.options.target).toEqual(['node', 'build/index.js']);
  });

  it('never takes the last word (the target), takes --watch=PATH as given, and everything before -- under --tap', () => {
    const last = parse('--watch', 'server.py');
    expect(last.ok && last.options.target).toEqual(['server.py']);
    const inline = parse('--watch=src', '--watch=other', 'node', 's.js');
    expect(inline.ok && inline.options.watch).toEqual(['src', 'other']);
    const tap = parse('--tap', '--watch', 'not-there-yet', '--', 'node', 's.js');
    expect(tap.ok && tap.options.watch).toEqual(['not-there-yet']);
    expect(tap.ok && tap.options.target).toEqual(['node', 's.js']);
  });

  it('is refused where there is no stdio server of Loupe’s to restart', () => {
    for (const argv of [['--watch', 'https://example.com/mcp'], ['--watch', '--config', 'mcp.json'], ['--watch', '--smoke', 'node', 's.js'], ['--watch']]) {
      const parsed = parse(...argv);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(/--watch restarts a stdio server/);
    }
  });
});

describe('--eval (issue 27)', () => {
  it('takes the file, each --model word, --repeats and --junit; the mode is eval', async () => {
    const o = options(['--eval', 'cases.jsonc', '--model', 'anthropic:claude-x', '--model', 'openai-compatible:http://127.0.0.1:9/v1#m,key=LOCAL_API_KEY', '--repeats', '3', '--junit', 'evals.xml', 'node', 's.js']);
    expect(o.headless).toMatchObject({ eval: 'cases.jsonc', models: ['anthropic:claude-x', 'openai-compatible:http://127.0.0.1:9/v1#m,key=LOCAL_API_KEY'], repeats: 3, junit: 'evals.xml' });
    expect(o.target).toEqual(['node', 's.js']);
    const { modeOf } = await import('./headless.ts');
    expect(modeOf(o.headless)).toBe('eval');
    // No --model: the file's models.
    expect(options(['--eval', 'cases.json', 'node', 's.js']).headless.models).toBeUndefined();
  });

  // A model word itself is read by the eval mode before any server starts (proxy/faces/cli/eval.test.ts).
  it('a bad count, an empty --model, or --model without --eval is a usage error in words', () => {
    expect(error(['--eval', 'f.json', '--model', ' ', 'node'])).toMatch(/^--model needs a model: PROVIDER:MODEL/);
    expect(error(['--eval', 'f.json', '--repeats', '0', 'node'])).toBe('--repeats expects a number of runs from 1 to 100, got "0".');
    expect(error(['--model', 'openai:gpt-4o', 'node'])).toBe('--model names a model for --eval FILE: add --eval.');
    expect(error(['--repeats', '2', 'node'])).toBe('--repeats is for --eval FILE.');
    expect(error(['--eval', 'f.json', '--smoke', 'node'])).toBe("--eval asks models to use the server's tools: run it without --smoke.");
  });

  it('is in the usage text', () => {
    expect(USAGE).toContain('mcp-loupe --eval <file> [--model <provider:model>]... [--repeats <n>] [--junit <file>] <target>');
  });
});

describe('--test (issue 27)', () => {
  it('takes the file, each --collection, each --var and --junit; the mode is test', async () => {
    const o = options(['--test', 'checks.json', '--collection', 'basics', '--collection', 'more', '--var', 'who=Ada', '--var', 'n:=3', '--var', 'empty=', '--var', 'list:=[1,"a"]', '--junit', 'tests.xml', '--record', 'r.jsonl', 'node', 's.js']);
    expect(o.headless).toMatchObject({ test: 'checks.json', collections: ['basics', 'more'], vars: { who: 'Ada', n: 3, empty: '', list: [1, 'a'] }, junit: 'tests.xml', record: 'r.jsonl' });
    expect(o.target).toEqual(['node', 's.js']);
    const { modeOf } = await import('./headless.ts');
    expect(modeOf(o.headless)).toBe('test');
    // A value is a string unless written with := (an id "0123" stays "0123").
    expect(options(['--test', 'f.json', '--var', 'id=0123', 'node']).headless.vars).toEqual({ id: '0123' });
    expect(options(['--test', 'f.json', '--var', 'url=http://x/?a=b', 'node']).headless.vars).toEqual({ url: 'http://x/?a=b' });
  });

  it('a bad --var, --collection or --var without --test, and --test with another mode are usage errors in words', () => {
    expect(error(['--test', 'f.json', '--var', 'novalue', 'node'])).toBe('--var expects NAME=VALUE (or NAME:=JSON), where NAME is letters, digits, _, - and . starting with a letter or _; got "novalue".');
    expect(error(['--test', 'f.json', '--var', '1x=2', 'node'])).toMatch(/^--var expects NAME=VALUE/);
    expect(error(['--test', 'f.json', '--var', 'n:={', 'node'])).toMatch(/^--var n:= expects JSON, and "\{" is not JSON/);
    expect(error(['--collection', 'basics', 'node'])).toBe('--collection picks collections of the --test FILE: add --test.');
    expect(error(['--var', 'a=b', 'node'])).toBe('--var gives variables to the collections of --test FILE: add --test.');
    expect(error(['--test', 'f.json', '--smoke', 'node'])).toBe("--test runs the collections' own calls: run it without --smoke.");
    expect(error(['--test', 'f.json', '--mock', 'r.jsonl'])).toBe("--test runs the collections' own calls: run it without --mock.");
    expect(error(['--test', '', 'node'])).toBe('--test needs the collection file.');
  });

  it('is in the usage text', () => {
    expect(USAGE).toContain('mcp-loupe --test <file> [--collection <name>]... [--var NAME=VALUE]... [--junit <file>] <target>');
  });
});
