/**
 * Integration: a real Loupe (in this process) against real stdio servers, driven over the wire
 * protocol exactly as the page drives it.
 */
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../lib/model/server-config.ts';
import type { FrameEvent } from '../lib/wire/wire.ts';
import { defaultServer } from './default-server.ts';
import { WireTestClient } from './testing/client.ts';
import { LoupeHarness } from './testing/harness.ts';

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

function start(config?: ServerConfig) {
  return harness.start({ config });
}

const nodeScript = (source: string): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: ['-e', source], env: {} });

function rawHttp(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('launch against server-everything over stdio', () => {
  it('connects by itself, lists tools, calls echo and records both directions', async () => {
    const { loupe, client } = await start(defaultServer());
    const primary = loupe.hub.primary!;
    const info = await client.waitForStatus(primary, ['connected', 'failed']);
    expect(info.error).toBeUndefined();
    expect(info.status).toBe('connected');
    expect(info.serverInfo?.name).toBeTruthy();
    expect(info.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(info.capabilities).toHaveProperty('tools');

    const list = await client.request(primary, 'tools/list', {});
    expect(list.ok).toBe(true);
    const tools = (list as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(tools).toContain('echo');

    const call = await client.request(primary, 'tools/call', { name: 'echo', arguments: { message: 'hi there' } });
    expect(call).toMatchObject({ ok: true, result: { content: [{ type: 'text', text: expect.stringContaining('hi there') }] } });

    // Trace events follow the response within a few milliseconds (they are batched).
    await client.until(() => client.events.some((e) => e.kind === 'frame' && e.dir === 'in' && e.raw.includes('hi there')));
    const frames = client.events.filter((e): e is FrameEvent => e.kind === 'frame');
    expect(frames.find((f) => f.dir === 'out' && f.method === 'initialize')).toBeTruthy();
    expect(frames.find((f) => f.dir === 'out' && f.method === 'notifications/initialized')).toBeTruthy();
    const callFrame = frames.find((f) => f.dir === 'out' && f.method === 'tools/call')!;
    expect(call.rpcId).toBe(callFrame.id);
    expect(frames.find((f) => f.dir === 'in' && f.rpc === 'response' && f.id === callFrame.id)?.raw).toContain('hi there');
    const seqs = client.events.filter((e) => e.session === primary).map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('keeps the session across a page reload: a second socket gets the same history', async () => {
    const { loupe, client } = await start(defaultServer());
    const primary = loupe.hub.primary!;
    await client.waitForStatus(primary, ['connected']);
    await client.request(primary, 'ping');
    const second = await harness.open(loupe);
    await second.until(() => second.messages.find((m) => m.type === 'snapshot'));
    expect(second.status(primary)?.status).toBe('connected');
    expect(second.events.some((e) => e.kind === 'frame' && e.method === 'ping')).toBe(true);
  });

  it('disconnect stops the child, connect starts it again on the same session', async () => {
    const { loupe, client } = await start(defaultServer());
    const primary = loupe.hub.primary!;
    const first = await client.waitForStatus(primary, ['connected']);
    const pid = first.pid!;
    expect(pid).toBeGreaterThan(0);
    client.send({ type: 'disconnect', session: primary });
    await client.waitForStatus(primary, ['disconnected']);
    expect(() => process.kill(pid, 0)).toThrow();
    client.send({ type: 'connect', session: primary, config: first.config });
    const again = await client.waitForStatus(primary, ['connected']);
    expect(again.pid).not.toBe(pid);
  });
});

describe('bounded trace', () => {
  it('drops the oldest events beyond --trace-limit and says so live', async () => {
    const { loupe, client } = await harness.start({ config: defaultServer(), traceLimit: 100 });
    const primary = loupe.hub.primary!;
    await client.waitForStatus(primary, ['connected']);
    for (let i = 0; i < 60; i++) await client.request(primary, 'ping');
    const withStats = await client.until(() => client.messages.find((m) => m.type === 'events' && m.stats?.some((s) => s.dropped > 0)));
    expect(withStats.type === 'events' && withStats.stats?.[0].kept).toBeLessThanOrEqual(100);
    expect(loupe.hub.session(primary)!.trace.all()).toHaveLength(100);
  });
});

describe('bad stdio servers', () => {
  it('reports a command that does not exist, with the PATH searched', async () => {
    const { client } = await start();
    client.send({ type: 'connect', config: { kind: 'stdio', command: 'definitely-not-a-command-xyz', args: [], env: {} } });
    const failed = await client.until(() => [...client.sessions.values()].find((s) => s.status === 'failed'));
    expect(failed.error?.code).toBe('COMMAND_NOT_FOUND');
    expect(failed.error?.message).toBe('Command not found: definitely-not-a-command-xyz');
    expect(failed.error?.detail?.pathSearched?.length).toBeGreaterThan(0);
  });

  it('reports the exit code and stderr tail of a server that dies before initialize', async () => {
    const { client } = await start();
    client.send({ type: 'connect', config: nodeScript('console.error("fatal: config file missing"); process.exit(3)') });
    const failed = await client.until(() => [...client.sessions.values()].find((s) => s.status === 'failed'));
    expect(failed.error?.code).toBe('EXITED');
    expect(failed.error?.detail?.exitCode).toBe(3);
    expect(failed.error?.detail?.stderrTail).toContain('fatal: config file missing');
    expect(client.events.some((e) => e.kind === 'exit' && e.code === 3)).toBe(true);
  });

  it('keeps a session whose server prints non-JSON on stdout, and shows the noise', async () => {
    const { loupe, client } = await start();
    const sdk = new URL('../node_modules/@modelcontextprotocol/sdk/dist/esm/', import.meta.url).href;
    const source = `
      const { McpServer } = await import('${sdk}server/mcp.js');
      const { StdioServerTransport } = await import('${sdk}server/stdio.js');
      process.stdout.write('hello from a stray console.log\\n');
      const server = new McpServer({ name: 'noisy', version: '1.0.0' });
      server.registerTool('shout', { description: 'Shouts' }, async () => {
        process.stdout.write('noise between messages\\n');
        return { content: [{ type: 'text', text: 'HEY' }] };
      });
      await server.connect(new StdioServerTransport());`;
    client.send({ type: 'connect', config: { kind: 'stdio', command: process.execPath, args: ['--input-type=module', '-e', source], env: {} } });
    const session = await client.until(() => [...client.sessions.values()].find((s) => s.status === 'connected' || s.status === 'failed'));
    expect(session.error).toBeUndefined();
    const call = await client.request(session.id, 'tools/call', { name: 'shout', arguments: {} });
    expect(call.ok).toBe(true);
    await client.until(() => client.events.filter((e) => e.kind === 'noise').length >= 2);
    expect(client.events.filter((e) => e.kind === 'noise').map((e) => (e as { text: string }).text)).toEqual(['hello from a stray console.log', 'noise between messages']);
    expect(loupe.hub.session(session.id)?.status).toBe('connected');
  });

  it('reports a server that crashes mid-session', async () => {
    const { client } = await start(defaultServer());
    const session = await client.until(() => [...client.sessions.values()].find((s) => s.status === 'connected'));
    process.kill(session.pid!, 'SIGKILL');
    const failed = await client.waitForStatus(session.id, ['failed']);
    expect(failed.error?.code).toBe('EXITED');
    expect(failed.error?.message).toContain('SIGKILL');
  });
});

describe('security', () => {
  it('refuses WebSockets without the token, with a wrong one, or from a foreign origin', async () => {
    const { loupe } = await start();
    const base = `ws://127.0.0.1:${loupe.port}/ws`;
    await expect(WireTestClient.open(base)).rejects.toThrow('HTTP 401');
    await expect(WireTestClient.open(`${base}?token=wrong`)).rejects.toThrow('HTTP 401');
    await expect(WireTestClient.open(`${base}?token=${loupe.token}`, { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    const ok = await WireTestClient.open(`${base}?token=${loupe.token}`, { Origin: `http://127.0.0.1:${loupe.port}` });
    ok.close();
  });

  it('refuses foreign Host headers (DNS rebinding) and API calls without the token', async () => {
    const { loupe } = await start();
    expect(await rawHttp(loupe.port, '/', { Host: `127.0.0.1:${loupe.port}` })).toBe(200);
    expect(await rawHttp(loupe.port, '/', { Host: 'evil.example' })).toBe(403);
    expect(await rawHttp(loupe.port, '/', { Host: `evil.example:${loupe.port}` })).toBe(403);
    expect(await rawHttp(loupe.port, '/api/health', { Host: `127.0.0.1:${loupe.port}` })).toBe(401);
    expect(await rawHttp(loupe.port, `/api/health?token=${loupe.token}`, { Host: `127.0.0.1:${loupe.port}` })).toBe(200);
    expect(await rawHttp(loupe.port, `/api/health?token=${loupe.token}`, { Host: `127.0.0.1:${loupe.port}`, Origin: 'http://evil.example' })).toBe(403);
  });

  it('starts no process for a refused connect', async () => {
    const { loupe } = await start();
    const marker = join(mkdtempSync(join(tmpdir(), 'loupe-')), 'started');
    const evil = new (await import('ws')).default(`ws://127.0.0.1:${loupe.port}/ws?token=nope`);
    evil.on('error', () => undefined);
    evil.on('open', () => evil.send(JSON.stringify({ type: 'connect', config: nodeScript(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`) })));
    await new Promise((resolve) => evil.on('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await import('node:fs').then((fs) => fs.existsSync(marker))).toBe(false);
  });
});
