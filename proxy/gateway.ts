/**
 * `mcp-loupe --gateway` (issue 13): any target (a stdio command or a remote URL) served as a
 * Streamable HTTP endpoint on 127.0.0.1 that any MCP client can use. Each client session gets a
 * connection of its own to the target and is a session in Loupe's page (gateway-session.ts); idle
 * ones are closed, and their number is capped, so that a client that never sends DELETE cannot
 * leave servers running. Like Loupe's own port, it accepts loopback Host names only and, from a
 * browser, loopback origins only (DNS rebinding: a page elsewhere must not start the user's server).
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../lib/server-config-types.ts';
import { DEFAULT_GATEWAY_IDLE_MS, DEFAULT_GATEWAY_MAX_SESSIONS } from './cli-relay.ts';
import type { Engine } from './engine.ts';
import { GatewaySession, refuse } from './gateway-session.ts';
import { isAllowedHost, isLoopbackAddress } from './security.ts';

export interface GatewayOptions {
  /** The target every client session gets a connection of its own to. */
  config: ServerConfig;
  /** undefined: a free port near 6290; 0: any. */
  port?: number;
  host?: string;
  idleMs?: number;
  maxSessions?: number;
  label?: string;
}

export interface RunningGateway {
  /** The endpoint clients use: `http://127.0.0.1:PORT/mcp`. */
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_GATEWAY_PORT = 6290;
const PORT_TRIES = 20;
/** The SDK's own bound for a POST body it reads itself; the initialize POST is read here. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A browser page may use the gateway only from this machine (a client under test may be one). */
function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackAddress(url.hostname);
  } catch {
    return false;
  }
}

/** Lets a client in a page of another loopback port (a web inspector) use the endpoint. */
function allowCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
}

function preflight(res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, DELETE',
    'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
    'access-control-max-age': '600',
  });
  res.end();
}

type Body = { ok: true; value: unknown } | { ok: false; status: number; message: string; code: number };

async function readBody(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, code: -32000, message: `Payload too large: the gateway reads at most ${MAX_BODY_BYTES} bytes.` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: Invalid JSON' };
  }
}

const isInitialize = (value: unknown): value is JSONRPCRequest =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { method?: unknown }).method === 'initialize' && (value as { id?: unknown }).id !== undefined;

export async function startGateway(engine: Engine, options: GatewayOptions): Promise<RunningGateway> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host)) throw new Error(`The gateway listens on loopback only (127.0.0.1), not ${host}: it starts the server for anyone who reaches it.`);
  const idleMs = options.idleMs ?? DEFAULT_GATEWAY_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_GATEWAY_MAX_SESSIONS;
  /** Every live client session, those still opening included (they count toward the cap). */
  const live = new Set<GatewaySession>();
  const byId = new Map<string, GatewaySession>();
  let closing = false;

  const openSession = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    if (!body.ok) return refuse(res, body.status, body.message, body.code);
    if (!isInitialize(body.value)) return refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required (start a session with a POST of initialize).');
    if (live.size >= maxSessions) {
      return refuse(res, 503, `Loupe's gateway has ${live.size} sessions open, its limit (--gateway-max-sessions); close one or raise the limit.`, -32000, body.value.id);
    }
    const session = new GatewaySession({
      engine,
      config: options.config,
      label: options.label,
      idleMs,
      onRegistered: (id, s) => void byId.set(id, s),
      onEnded: (s) => {
        live.delete(s);
        for (const [id, other] of byId) if (other === s) byId.delete(id);
      },
    });
    live.add(session);
    await session.open(req, res, body.value);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number): Promise<void> => {
    // DNS rebinding: a page on another name that resolves to 127.0.0.1 sends its own name as Host.
    if (!isAllowedHost(req.headers.host, { port })) return refuse(res, 403, `Forbidden: this Host header is not allowed; use http://127.0.0.1:${port}/mcp (only loopback names are accepted, against DNS rebinding).`);
    if (!originAllowed(req.headers.origin)) return refuse(res, 403, 'Forbidden: requests from a web page on another machine are not allowed.');
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp.');
    allowCors(req, res);
    if (req.method === 'OPTIONS') return preflight(res);
    if (closing) return refuse(res, 503, 'Loupe is stopping: its gateway takes no more requests.');
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = byId.get(id);
      // The spec's "session expired": the client starts a new session.
      if (!session) return refuse(res, 404, 'Session not found: it was closed (idle, ended, or Loupe restarted). Initialize again.', -32001);
      return session.handle(req, res);
    }
    if (req.method === 'POST') return openSession(req, res);
    if (req.method === 'GET' || req.method === 'DELETE') return refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required.');
    res.setHeader('allow', 'GET, POST, DELETE');
    return refuse(res, 405, 'Method not allowed: the MCP endpoint takes GET, POST and DELETE.');
  };

  const server = createServer((req, res) => {
    handle(req, res, (server.address() as AddressInfo).port).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, `Loupe's gateway failed on this request: ${error instanceof Error ? error.message : String(error)}`, -32603);
      else res.destroy();
    });
  });
  const port = await listenNear(server, options.port, host);
  const url = `http://127.0.0.1:${port}/mcp`;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      closing = true;
      await Promise.allSettled([...live].map((s) => s.end({ note: 'Loupe stopped.' })));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })());
  return { url, close };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function listenNear(server: Server, port: number | undefined, host: string): Promise<number> {
  if (port !== undefined) return listen(server, port, host);
  for (let p = DEFAULT_GATEWAY_PORT; p < DEFAULT_GATEWAY_PORT + PORT_TRIES; p++) {
    try {
      return await listen(server, p, host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return listen(server, 0, host);
}
