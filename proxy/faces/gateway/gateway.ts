/**
 * `mcp-loupe --gateway` (issue 13): any target (a stdio command or a remote URL) served as a
 * Streamable HTTP endpoint on 127.0.0.1 that any MCP client can use. Each client session gets a
 * connection of its own to the target and is a session in Loupe's page (gateway-session.ts); idle
 * ones are closed, and their number is capped, so that a client that never sends DELETE cannot
 * leave servers running. Every request passes mcp-endpoint-guard.ts first (loopback Host, no foreign
 * Origin, the per-launch bearer token, a JSON body), and bodies are read within bounds
 * (gateway-body.ts): nothing is parsed or started for a request that fails either.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import { DEFAULT_GATEWAY_IDLE_MS, DEFAULT_GATEWAY_MAX_SESSIONS } from '../../command-line/relay.ts';
import type { Engine } from '../../engine/engine.ts';
import { BodyReader, type BodyLimits } from '../../listen/body-limits.ts';
import { GatewaySession, refuse } from './session.ts';
import { GATEWAY, newEndpointToken, refused } from '../../listen/endpoint-guard.ts';
import { isLoopbackAddress } from '../../listen/security.ts';

export interface GatewayOptions {
  /** The target every client session gets a connection of its own to. */
  config: ServerConfig;
  /** undefined: a free port near 6290; 0: any. */
  port?: number;
  host?: string;
  idleMs?: number;
  maxSessions?: number;
  label?: string;
  /** The bearer token clients must send; undefined: a new random one (32 bytes, base64url). */
  token?: string;
  /** `--gateway-no-auth`: no token asked (Host, Origin and Content-Type are still checked). */
  noAuth?: boolean;
  /** Bounds on request bodies (gateway-body.ts); the defaults otherwise. */
  bodies?: Partial<BodyLimits>;
}

export interface RunningGateway {
  /** The endpoint clients use: `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** What clients send as `Authorization: Bearer <token>`; undefined under `noAuth`. */
  token?: string;
  close(): Promise<void>;
}

export const DEFAULT_GATEWAY_PORT = 6290;
const PORT_TRIES = 20;

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

  const token = options.noAuth ? undefined : (options.token ?? newEndpointToken());
  const bodies = new BodyReader(GATEWAY, options.bodies);

  const openSession = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await bodies.readOrRefuse(req, res);
    if (!body) return;
    if (!isInitialize(body.value)) return refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required (start a session with a POST of initialize).');
    if (live.size >= maxSessions && !(await makeRoom(live, maxSessions))) {
      return refuse(res, 503, `Loupe's gateway has ${live.size} sessions open, each with a request in flight, its limit (--gateway-max-sessions); wait for one to finish, close one or raise the limit.`, -32000, body.value.id);
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
    if (refused(req, res, { endpoint: GATEWAY, port, token })) return;
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp.');
    if (closing) return refuse(res, 503, 'Loupe is stopping: its gateway takes no more requests.');
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = byId.get(id);
      // The spec's "session expired": the client starts a new session.
      if (!session) return refuse(res, 404, 'Session not found: it was closed (idle, ended, or Loupe restarted). Initialize again.', -32001);
      if (req.method !== 'POST') return session.handle(req, res);
      const body = await bodies.readOrRefuse(req, res);
      return body && session.handle(req, res, body.value);
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
  return { url, token, close };
}

/**
 * At the cap, the session unused longest that has nothing in flight is ended to make room, and its
 * page session says why (issue 29: clients such as the conformance suite never send DELETE, and
 * refusing the newest session punished the client still working). None idle: false (refused).
 */
async function makeRoom(live: ReadonlySet<GatewaySession>, maxSessions: number): Promise<boolean> {
  let oldest: GatewaySession | undefined;
  for (const s of live) if (s.idle && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
  if (!oldest) return false;
  await oldest.end({ note: `Closed to make room for a new client session: the gateway keeps ${maxSessions} at most (--gateway-max-sessions), and this one had gone unused longest with nothing in flight.` });
  return true;
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
