import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from './options.ts';
import { modeOf } from './headless.ts';

const parse = (...argv: string[]) => parseCliArgs(argv);
const error = (...argv: string[]) => {
  const parsed = parseCliArgs(argv);
  return parsed.ok ? undefined : parsed.error;
};

describe('the headless command line', () => {
  it('reads the official inspector CLI words before the target', () => {
    const parsed = parse('--cli', '--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'a=1', '--tool-arg', 'b:=2', 'node', 'srv.js');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.options.headless).toMatchObject({ cli: true, method: 'tools/call', toolName: 'add', toolArgs: ['a=1', 'b:=2'] });
    expect(parsed.options.target).toEqual(['node', 'srv.js']);
    expect(modeOf(parsed.options.headless)).toBe('cli');
  });

  it('takes request options after the target too, up to a --, which goes', () => {
    const parsed = parse('--cli', 'node', 'srv.js', '--port', '9', '--method', 'tools/list', '--format=json', '--', '--method', 'x');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.options.headless.method).toBe('tools/list');
    expect(parsed.options.headless.format).toBe('json');
    // The server's own flags (and everything after --) reach it untouched.
    expect(parsed.options.target).toEqual(['node', 'srv.js', '--port', '9', '--method', 'x']);
  });

  it('leaves the target alone in the UI mode', () => {
    const parsed = parse('node', 'srv.js', '--method', 'tools/list');
    expect(parsed.ok && parsed.options.target).toEqual(['node', 'srv.js', '--method', 'tools/list']);
  });

  it('names what is missing or does not fit, in one sentence', () => {
    expect(error('--cli', 'node', 's.js')).toMatch(/--cli needs --method/);
    expect(error('--cli', '--method', 'tools/call', 'node', 's.js')).toMatch(/needs --tool-name/);
    expect(error('--cli', '--method', 'resources/read', 'node', 's.js')).toMatch(/needs --uri/);
    expect(error('--cli', '--method', 'prompts/get', 'node', 's.js')).toMatch(/needs --prompt-name/);
    expect(error('--cli', '--method', 'tools/lis', 'node', 's.js')).toMatch(/expects one of tools\/list/);
    expect(error('--cli', '--method', 'tools/call', '--tool-name', 'x', '--tool-arg', 'novalue', 'node')).toMatch(/expects key=value/);
    expect(error('--cli', '--method', 'tools/call', '--tool-name', 'x', '--args', '[1]', 'node')).toMatch(/JSON object/);
    expect(error('--cli', '--method', 'tools/call', '--tool-name', 'x', '--args', '{"a":1}', '--tool-arg', 'b=2', 'node')).toMatch(/cannot be combined/);
    expect(error('--cli', '--method', 'ping', '--timeout', 'soon', 'node')).toMatch(/milliseconds/);
    expect(error('--cli', '--method', 'ping', '--elicit', 'maybe', 'node')).toMatch(/accept-defaults, decline or cancel/);
    expect(error('--mock', 't.jsonl', 'node', 'srv.js')).toMatch(/starts no server/);
    expect(error('--mock', 't.jsonl', '--mock-no-auth')).toBe('--mock-no-auth is for the HTTP mock (--mock-port N): over stdio, only the process that started the mock can talk to it.');
    expect(error('--mock-no-auth', '--cli', '--method', 'tools/list', 'node')).toBe('--mock-port and --mock-no-auth are for --mock <trace.jsonl>.');
    expect(error('--junit', 'r.xml', 'node')).toMatch(/--junit writes the report of --smoke, --test or --eval/);
    expect(error('--allow-writes', '--cli', '--method', 'tools/list', 'node')).toBe('--allow-writes lets --smoke call the tools that may change data: add --smoke.');
    expect(error('--ignore', '$.x', 'node')).toMatch(/--ignore is for --verify/);
    expect(error('--smoke', '--config', 'f.json', '--server', 'a', '--server', 'b')).toMatch(/one server/);
  });

  it('picks the mode: smoke wins over --cli (the conformance command), mock needs no target', () => {
    const smoke = parse('--cli', '--smoke', '--elicit', 'accept-defaults', '--sample', 'TEXT', '--root', 'file:///tmp', 'http://localhost:3000/mcp');
    expect(smoke.ok && modeOf(smoke.options.headless)).toBe('smoke');
    expect(smoke.ok && smoke.options.headless).toMatchObject({ elicit: 'accept-defaults', sample: 'TEXT', roots: ['file:///tmp'] });
    const mock = parse('--mock', 't.jsonl', '--mock-port', '0');
    expect(mock.ok && modeOf(mock.options.headless)).toBe('mock');
    expect(mock.ok && mock.options.headless.mockNoAuth).toBe(false);
    const open = parse('--mock', 't.jsonl', '--mock-port', '0', '--mock-no-auth');
    expect(open.ok && open.options.headless).toMatchObject({ mock: 't.jsonl', mockPort: 0, mockNoAuth: true });
    const lock = parse('--lock', 'tools.lock.json', 'node', 's.js');
    expect(lock.ok && modeOf(lock.options.headless)).toBe('lock');
    const verify = parse('--verify', 't.jsonl', '--ignore', '$..id', '--lock', 'l.json', 'node', 's.js');
    expect(verify.ok && modeOf(verify.options.headless)).toBe('verify');
  });

  it('documents every option in --help', () => {
    for (const name of ['--cli', '--method', '--tool-name', '--tool-arg', '--args', '--uri', '--prompt-name', '--prompt-args', '--format', '--verbose', '--timeout', '--elicit', '--sample', '--root', '--record', '--smoke', '--junit', '--mock', '--mock-port', '--mock-no-auth', '--verify', '--ignore', '--lock', '--update-lock', '--no-negative', '--allow-writes']) {
      expect(USAGE).toContain(name);
    }
  });
});
