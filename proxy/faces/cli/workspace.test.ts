/**
 * The built CLI with a workspace file (issue 9; `npm run build:proxy` first): `--config FILE`
 * connects every server of it at once, `--server` picks, and a bad file is an error on stderr
 * naming the file, the entry and why, with exit code 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WireTestClient } from '../../testing/client.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const FIXTURE = join(ROOT, 'e2e', 'fixtures', 'workspace-server.mjs');
const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

function file(text: string, name = 'mcp.json'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'loupe-cli-ws-')), name);
  writeFileSync(path, text);
  return path;
}

function runBad(text: string) {
  const path = file(text);
  const run = spawnSync(process.execPath, [CLI, '--no-open', '--port', '0', '--config', path], { encoding: 'utf8', timeout: 15_000 });
  return { path, status: run.status, stderr: run.stderr };
}

describe('mcp-loupe --config FILE', () => {
  it('connects every server of the file at once; a disabled one is listed, not started', async () => {
    const entry = (name: string, extra = {}) => ({ command: process.execPath, args: [FIXTURE, name], ...extra });
    const path = file(JSON.stringify({ mcpServers: { one: entry('one'), two: entry('two'), three: entry('three'), off: entry('off', { disabled: true }) } }));
    const child = spawn(process.execPath, [CLI, '--no-open', '--port', '0', '--config', path], { stdio: ['ignore', 'pipe', 'pipe'] });
    stops.push(() => child.kill('SIGTERM'));
    let out = '';
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL line: ${out}`)), 15_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /Open (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[1]);
        }
      });
    });
    expect(out).toMatch(/is inspecting 4 servers from .*mcp\.json \(one, two, three; not started: off\)/);
    const { port, searchParams } = new URL(url);
    const client = await WireTestClient.open(`ws://127.0.0.1:${port}/ws?token=${searchParams.get('token')}`);
    stops.unshift(() => client.close());
    await client.until(() => [...client.sessions.values()].filter((s) => s.status === 'connected').length === 3, 15_000, 'three connected');
    const names = [...client.sessions.values()].map((s) => `${s.name}:${s.status}`);
    expect(names).toEqual(['one:connected', 'two:connected', 'three:connected', 'off:disconnected']);
  });

  it('--server is repeatable and picks the servers to start', async () => {
    const entry = (name: string) => ({ command: process.execPath, args: [FIXTURE, name] });
    const path = file(JSON.stringify({ mcpServers: { one: entry('one'), two: entry('two'), three: entry('three') } }));
    const child = spawn(process.execPath, [CLI, '--no-open', '--port', '0', '--config', path, '--server', 'three', '--server', 'one'], { stdio: ['ignore', 'pipe', 'pipe'] });
    stops.push(() => child.kill('SIGTERM'));
    const out = await new Promise<string>((res) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('Open ')) res(text);
      });
    });
    expect(out).toMatch(/3 servers from .* \(three, one; not started: two\)/);
  });
});

describe('a bad workspace file: stderr names the file, the entry and why; exit 2', () => {
  it('not JSON(C)', () => {
    const run = runBad('{ "mcpServers": ');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(run.path);
  });

  it('no servers', () => {
    const run = runBad('{ "mcpServers": {} }');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(run.path);
    expect(run.stderr).toMatch(/no servers/i);
  });

  it('an entry that is neither a command nor a URL', () => {
    const run = runBad(JSON.stringify({ mcpServers: { fine: { command: 'x' }, strange: { args: ['--flag'] } } }));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(run.path);
    expect(run.stderr).toContain('"strange"');
    expect(run.stderr).toMatch(/command|url/i);
  });
});
