/**
 * The Streamable HTTP face of a mock that replays a 2026-07-28 recording (issue 12): stateless,
 * as a 2026-07-28 server is. Each POST's messages go to the one conversation of the mock (there is
 * no session to tell clients apart, so the recording is replayed in order across them); a request
 * is answered with JSON, or with an SSE stream when the recording has messages during it
 * (progress, logs) before the answer; a notification gets 202; GET and DELETE get 405.
 *
 * Written here rather than on the 1.x SDK's server transport, which refuses the 2026-07-28
 * `MCP-Protocol-Version` header and wants a session, and not on the v2 one, whose handler runs a
 * server of its own where a mock must send what was recorded, as recorded. A request passes the
 * same guard as the 2025 mock's and the gateway's (mcp-endpoint-guard.ts) before its body is read,
 * within the same bounds (gateway-body.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MockConversation, type AnswerTable } from '../../../lib/headless/mock-match.ts';
import { BodyReader } from '../../listen/body-limits.ts';
import { answerError, MOCK, refused } from '../../listen/endpoint-guard.ts';
import type { HttpSetup } from './options.ts';

export interface ModernMockHttp {
  url: string;
  close(): Promise<void>;
}

export async function startModernHttp(table: AnswerTable, { port, host, log, token }: HttpSetup): Promise<ModernMockHttp> {
  const conversation = new MockConversation(table);
  const bodies = new BodyReader(MOCK);
  const handle = async (req: IncomingMessage, res: ServerResponse, listening: number) => {
    if (refused(req, res, { endpoint: MOCK, port: listening, token })) return;
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return answerError(res, 404, 'Loupe mock: the MCP endpoint is /mcp.');
    if (req.method !== 'POST') return answerError(res, 405, 'Loupe mock: a 2026-07-28 server is stateless: POST each request (subscriptions/listen replaces the GET stream).');
    const body = await bodies.readOrRefuse(req, res);
    if (!body) return;
    const parsed = body.value;
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
      if (!res.headersSent) answerError(res, 500, 'Loupe mock: this request failed inside the mock.');
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
