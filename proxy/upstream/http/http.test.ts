/**
 * Integration: remote servers over Streamable HTTP and legacy SSE (server-everything in both
 * modes, as separate processes), and URLs that are not MCP endpoints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpEvent } from '../../../lib/wire/wire.ts';
import { LoupeHarness } from '../../testing/harness.ts';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (/listening|running/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, port };
}

let streamable: { child: ChildProcess; port: number };
let sse: { child: ChildProcess; port: number };
let html: Server;
let htmlPort: number;

beforeAll(async () => {
  [streamable, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  html = createServer((req, res) => {
    if (req.url === '/missing') res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Welcome</h1><script>alert(1)</script></body></html>');
  });
  await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
  htmlPort = (html.address() as { port: number }).port;
}, 90_000);

afterAll(async () => {
  streamable?.child.kill();
  sse?.child.kill();
  await new Promise((resolve) => html?.close(resolve));
});

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

async function connect(url: string, transport: 'auto' | 'http' | 'sse' = 'auto', headers: Record<string, string> = {}) {
  const { loupe, client } = await harness.start({ config: { kind: 'http', url, transport, headers } });
  const session = await client.waitForStatus(loupe.hub.primary!, ['connected', 'failed'], 20_000);
  return { loupe, client, session };
}

describe('remote servers', () => {
  it('connects over Streamable HTTP, calls a tool, records frames and HTTP exchanges (secrets masked)', async () => {
    const { client, session } = await connect(`http://127.0.0.1:${streamable.port}/mcp`, 'auto', { Authorization: 'Bearer sekrit-value-123' });
    expect(session.error).toBeUndefined();
    expect(session.transport).toBe('http');
    expect(session.protocolVersion).toBeTruthy();
    const call = await client.request(session.id, 'tools/call', { name: 'echo', arguments: { message: 'over http' } });
    expect(call).toMatchObject({ ok: true });
    await client.until(() => client.events.some((e) => e.kind === 'frame' && e.dir === 'in' && e.raw.includes('over http')));
    const exchanges = client.events.filter((e): e is HttpEvent => e.kind === 'http');
    expect(exchanges.some((e) => e.method === 'POST' && e.status === 200)).toBe(true);
    const auth = exchanges[0].requestHeaders.authorization;
    expect(auth).toContain('masked');
    expect(JSON.stringify(client.events)).not.toContain('sekrit-value-123');
    client.close();
  });

  it('falls back to legacy SSE when the server answers the POST with a 4xx', async () => {
    const { client, session } = await connect(`http://127.0.0.1:${sse.port}/sse`);
    expect(session.error).toBeUndefined();
    expect(session.transport).toBe('sse');
    const call = await client.request(session.id, 'tools/call', { name: 'echo', arguments: { message: 'over sse' } });
    expect(call).toMatchObject({ ok: true });
    expect(client.events.some((e) => e.kind === 'transport' && e.message.includes('trying legacy SSE'))).toBe(true);
    client.close();
  });

  it('says plainly when a URL serves an HTML page instead of MCP', async () => {
    const { client, session } = await connect(`http://127.0.0.1:${htmlPort}/`);
    expect(session.status).toBe('failed');
    expect(session.error?.code).toBe('NOT_MCP');
    expect(session.error?.message).toContain('does not look like an MCP endpoint');
    expect(session.error?.detail?.contentType).toContain('text/html');
    expect(session.error?.detail?.bodyStart).toContain('<h1>Welcome</h1>');
    client.close();
  });

  it('reports a 404 with its status and body', async () => {
    const { client, session } = await connect(`http://127.0.0.1:${htmlPort}/missing`);
    expect(session.status).toBe('failed');
    expect(session.error?.detail?.httpStatus).toBe(404);
    expect(session.error?.detail?.bodyStart).toBe('no such page');
    client.close();
  });

  it('reports an unreachable server', async () => {
    const port = await freePort();
    const { client, session } = await connect(`http://127.0.0.1:${port}/mcp`);
    expect(session.status).toBe('failed');
    expect(session.error?.code).toBe('UNREACHABLE');
    expect(session.error?.message).toContain('connection refused');
    client.close();
  });
});
