/**
 * `mcp-loupe --cli` (issue 10) run in this process against real servers: the command line is
 * parsed as the CLI parses it, and what would reach stdout and stderr is captured with the exit code.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTrace } from '../../../lib/trace/read-trace.ts';
import { EVERYTHING, runCli } from '../../testing/headless.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const run = runCli;

const cli = (...args: string[]) => run(['--cli', ...args, ...EVERYTHING]);

describe('mcp-loupe --cli', () => {
  it('lists tools as pretty JSON, and the official CLI word order (options after the target) works too', async () => {
    const before = await cli('--method', 'tools/list');
    expect(before.code).toBe(0);
    const tools = JSON.parse(before.stdout).tools as { name: string }[];
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(before.stdout).toContain('\n  "tools": [');
    const after = await run(['--cli', ...EVERYTHING, '--method', 'tools/list', '--format', 'json']);
    expect(after.code).toBe(0);
    expect(after.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(after.stdout).tools).toHaveLength(tools.length);
  });

  it('prints an MCP Apps view read with resources/read as its HTML, and as JSON with --format json (issue 24)', async () => {
    const APPS = ['node', join(ROOT, 'e2e/fixtures/apps-server.mjs')];
    const html = await run(['--cli', '--method', 'resources/read', '--uri', 'ui://apps/counter', ...APPS]);
    expect(html.code).toBe(0);
    expect(html.stdout.trimStart().toLowerCase()).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain('Add one');
    const json = await run(['--cli', '--method', 'resources/read', '--uri', 'ui://apps/counter', '--format', 'json', ...APPS]);
    expect(JSON.parse(json.stdout).contents[0].mimeType).toBe('text/html;profile=mcp-app');
  });

  it('calls a tool with --tool-arg and prints the result; --format text prints the text alone', async () => {
    const json = await cli('--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hello there');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).content[0].text).toBe('Echo: hello there');
    const text = await cli('--method', 'tools/call', '--tool-name', 'get-sum', '--tool-arg', 'a=2', '--tool-arg', 'b:=40', '--format', 'text');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/42/);
    expect(text.stdout).not.toContain('{');
  });

  it('keeps a number-like value a string where the schema wants a string', async () => {
    const out = await cli('--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=007', '--format', 'text');
    expect(out.stdout.trim()).toBe('Echo: 007');
  });

  it('exit 1 for a tool result with isError, and says so on stderr', async () => {
    const out = await cli('--method', 'tools/call', '--tool-name', 'echo', '--args', '{}');
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).isError).toBe(true);
    expect(out.stderr).toContain('isError');
  });

  it('exit 2 with the closest names for a tool that does not exist', async () => {
    const out = await cli('--method', 'tools/call', '--tool-name', 'ecko');
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/No tool named "ecko"\. Closest: echo/);
    expect(out.stdout).toBe('');
  });

  it('exit 2 for usage errors, in one sentence', async () => {
    expect((await run(['--cli', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'novalue', ...EVERYTHING])).stderr).toMatch(/expects key=value/);
    const bad = await run(['--cli', '--method', 'tools/call', '--tool-name', 'echo', '--args', '{nope', ...EVERYTHING]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not JSON/);
    expect((await run(['--cli', ...EVERYTHING])).stderr).toMatch(/--cli needs --method/);
    expect((await run(['--cli', '--method', 'frobnicate', ...EVERYTHING])).stderr).toMatch(/expects one of tools\/list/);
  });

  it('exit 3 with the plain message when the server cannot start', async () => {
    const missing = await run(['--cli', '--method', 'tools/list', 'definitely-not-a-command-loupe']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/not found|No such file|ENOENT/i);
    const crash = await run(['--cli', '--method', 'tools/list', 'node', '-e', 'console.error("boom: bad config"); process.exit(7)']);
    expect(crash.code).toBe(3);
    expect(crash.stderr).toContain('exited with code 7');
    expect(crash.stderr).toContain('boom: bad config');
    const url = await run(['--cli', '--method', 'tools/list', 'http://127.0.0.1:9/mcp']);
    expect(url.code).toBe(3);
  });

  it('exit 4 when a request outlives --timeout', async () => {
    // 2 s: enough for server-everything to start on a busy machine (the limit holds for initialize too), far below the call's 10 s.
    const out = await cli('--timeout', '2000', '--method', 'tools/call', '--tool-name', 'trigger-long-running-operation', '--tool-arg', 'duration=10', '--tool-arg', 'steps=5');
    expect(out.code).toBe(4);
    expect(out.stderr).toMatch(/timed out/);
  });

  it('initialize prints the server info, negotiated version and capabilities', async () => {
    const out = await cli('--method', 'initialize');
    expect(out.code).toBe(0);
    const info = JSON.parse(out.stdout);
    expect(info.serverInfo.name).toMatch(/everything/);
    expect(info.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(info.capabilities.tools).toBeDefined();
  });

  it('reads a resource and gets a prompt with arguments', async () => {
    const resource = await cli('--method', 'resources/read', '--uri', 'demo://resource/static/document/architecture.md', '--format', 'text');
    expect(resource.code).toBe(0);
    expect(resource.stdout.length).toBeGreaterThan(20);
    const prompt = await cli('--method', 'prompts/get', '--prompt-name', 'args-prompt', '--prompt-args', 'city=Lisbon', '--prompt-args', 'state=none');
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('Lisbon');
    const missing = await cli('--method', 'prompts/get', '--prompt-name', 'arg-prompt');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Closest: args-prompt');
  });

  it('answers sampling with --sample, and roots with --root', async () => {
    const sampled = await cli('--sample', 'a canned reply from CI', '--method', 'tools/call', '--tool-name', 'trigger-sampling-request', '--tool-arg', 'prompt=hi');
    expect(sampled.code).toBe(0);
    expect(sampled.stdout).toContain('a canned reply from CI');
    const refused = await cli('--method', 'tools/call', '--tool-name', 'trigger-sampling-request', '--tool-arg', 'prompt=hi');
    expect(refused.stdout + refused.stderr).toContain('--sample');
    const roots = await cli('--root', 'file:///tmp/loupe-root-a', '--method', 'tools/call', '--tool-name', 'get-roots-list', '--format', 'text');
    expect(roots.stdout).toContain('file:///tmp/loupe-root-a');
  });

  it('calls a tool that requires a task as a task, and prints its result', async () => {
    const out = await cli('--method', 'tools/call', '--tool-name', 'simulate-research-query', '--tool-arg', 'topic=lenses', '--format', 'text');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/lenses/i);
  }, 90_000);

  it('--verbose writes the protocol trace to stderr, frames as sent', async () => {
    const out = await cli('--verbose', '--method', 'ping');
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/→ \{"method":"initialize"|→ \{"jsonrpc":"2.0","id":0,"method":"initialize"/);
    expect(out.stderr).toMatch(/← .*"result"/);
    expect(JSON.parse(out.stdout)).toEqual({});
  });

  it('--record writes the session as a Loupe trace that reads back, secrets masked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-record-'));
    const file = join(dir, 'session.jsonl');
    const out = await run(['--cli', '--record', file, '-e', 'API_TOKEN=supersecretvalue123', '--method', 'tools/call', '--tool-name', 'get-env', ...EVERYTHING]);
    expect(out.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('supersecretvalue123');
    const parsed = parseTrace(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const methods = parsed.trace.events.filter((e) => e.kind === 'frame').map((e) => (e.kind === 'frame' ? e.method : undefined));
    expect(methods).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call']));
    // A recording cut short mid-line still reads, and says which line.
    writeFileSync(file, text.slice(0, text.length - 40));
    const cut = parseTrace(readFileSync(file, 'utf8'));
    expect(cut.ok && cut.trace.truncatedLine).toBe(text.trimEnd().split('\n').length);
  });
});
