/**
 * The Streamable HTTP face of a mock that replays a 2026-07-28 recording (issue 12): stateless,
 * as a 2026-07-28 server is. Each POST's messages go to the one conversation of the mock (there is
 * no session to tell clients apart, so the recording is replayed in order across them); a request
 * is answered with JSON, or with an SSE stream when the recording has messages during it
 * (progress, logs) before the answer; a notification gets 202; GET and DELETE get 405.
 *
 * Written here rather than on the 1.x SDK's server transport, which refuses the 2026-07-28
 * `MCP-Protocol-Version` header and wants a session, and not on the v2 one, whose handler runs a
 * server of its own where a mock must send what was recorded, as recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MockConversation, type AnswerTable } from '../lib/mock-match.ts';
import { isAllowedHost } from './security.ts';

/** The same bound as the v2 SDK's handler: a body larger than this is refused unread. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function refuse(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export interface ModernMockHttp {
  url: string;
  close(): Promise<void>;
}

export async function startModernHttp(table: AnswerTable, port: number, host: string, log: (line: string) => void, originAllowed: (origin: string | undefined) => boolean): Promise<ModernMockHttp> {
  const conversation = new MockConversation(table);
  const handle = async (req: IncomingMessage, res: ServerResponse, listening: number) => {
    if (!isAllowedHost(req.headers.host, { port: listening })) return refuse(res, 403, 'Loupe mock: this Host header is not allowed; use http://127.0.0.1:<port>/mcp (only loopback names are accepted, against DNS rebinding).');
    if (!originAllowed(req.headers.origin)) return refuse(res, 403, 'Loupe mock: requests from a web page on another machine are not allowed.');
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return refuse(res, 404, 'Loupe mock: the MCP endpoint is /mcp.');
    if (req.method !== 'POST') return refuse(res, 405, 'Loupe mock: a 2026-07-28 server is stateless: POST each request (subscriptions/listen replaces the GET stream).');
    const body = await readBody(req);
    if (body === undefined) return refuse(res, 413, `Loupe mock: the request body is over ${MAX_BODY_BYTES / 1024 / 1024} MiB.`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return refuse(res, 400, 'Loupe mock: the request body is not JSON.', -32700);
    }
    const messages = (Array.isArray(parsed) ? parsed : [parsed]).filter((m): m is JSONRPCMessage => m !== null && typeof m === 'object');
    const out: JSONRPCMessage[] = [];
    for (const message of messages) {
      const reply = conversation.receive(message);
      for (const line of reply.log) log(line);
      out.push(...reply.send.map((s) => s.message));
    }
    const hasRequest = messages.some((m) => 'method' in m && 'id' in m);
    if (!hasRequest) return void res.writeHead(202).end();
    if (out.length === 1) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out[0]));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const message of out) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    res.end();
  };
  const server = createServer((req, res) => {
    handle(req, res, (server.address() as AddressInfo).port).catch((error: unknown) => {
      log(`Loupe mock: a request failed (${error instanceof Error ? error.message : String(error)}).`);
      if (!res.headersSent) refuse(res, 500, 'Loupe mock: this request failed inside the mock.');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, close };
}
