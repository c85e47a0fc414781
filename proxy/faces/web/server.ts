/**
 * One HTTP server on one port: the static UI, the token-guarded API, and the WebSocket at `/ws`.
 * Every request is checked for a loopback Host and a same-origin Origin before anything else.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Hub } from './hub.ts';
import { isAllowedHost, isAllowedOrigin, tokenMatches, type HostPolicy } from '../../listen/security.ts';
import { SECURITY_HEADERS, serveStatic } from './static-files.ts';

export interface ServerOptions {
  token: string;
  uiRoot: string;
  /** The hub may still be loading (it pulls in the SDK) when the first request arrives. */
  hub: () => Promise<Hub>;
  extraHosts?: string[];
  version: string;
  /** The OTLP receiver at `/v1/traces` (issue 28): its per-launch token, and tracing once it is on. */
  receiver?: { token: string; tracing(): import('../../otel/tracing.ts').Tracing | undefined };
}

export interface LoupeServer {
  server: Server;
  /** Set once listening. */
  policy: HostPolicy;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(message + '\n');
}

function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${message}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${message.length + 1}\r\n\r\n${message}\n`);
}

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7) : undefined;
}

/** Returns a refusal (status and reason) or undefined when the request may go on. */
function checkOrigin(req: IncomingMessage, policy: HostPolicy): [number, string] | undefined {
  if (!isAllowedHost(req.headers.host, policy)) return [403, 'Forbidden: this server only answers to 127.0.0.1/localhost'];
  if (!isAllowedOrigin(req.headers.origin, policy)) return [403, 'Forbidden: foreign Origin'];
  return undefined;
}

/**
 * `ws` by `require`, not `import()`: it is CommonJS, and imported from ESM its wrapper brings five
 * CommonJS modules in through Node's ESM loader (each read, scanned for its exports, then compiled
 * by the CommonJS loader), which left an idle Loupe 2–4 MB larger and bimodal (bench/memory.mjs:
 * 68.4–72.1 MB → 67.1–68.2 MB, the process alone, three launches each on Node 20).
 */
function requireWs(): typeof import('ws') {
  return createRequire(import.meta.url)('ws') as typeof import('ws');
}

export function createLoupeServer(options: ServerOptions): LoupeServer {
  const policy: HostPolicy = { port: 0, extraHosts: options.extraHosts };
  // `ws` is loaded with the first upgrade, with the hub: the page's first HTTP answer does not wait for it.
  let wss: Promise<WebSocketServer> | undefined;
  const sockets = () => (wss ??= Promise.resolve().then(() => new (requireWs().WebSocketServer)({ noServer: true, maxPayload: 256 * 1024 * 1024, perMessageDeflate: false })));

  const server = createServer((req, res) => {
    const refusal = checkOrigin(req, policy);
    if (refusal) return refuse(res, ...refusal);
    const url = new URL(req.url ?? '/', 'http://loupe.invalid');
    if (url.pathname.startsWith('/api/')) {
      if (!tokenMatches(options.token, url.searchParams.get('token') ?? bearer(req))) return refuse(res, 401, 'Unauthorized: missing or wrong token');
      return void handleApi(url.pathname, res, options);
    }
    if (url.pathname === '/ws') return refuse(res, 426, 'Upgrade required');
    // Loupe as an OTLP receiver (issue 28): its own credential check; the code loads with the first export.
    const receiver = options.receiver;
    if (url.pathname === '/v1/traces' && receiver) {
      return void import('../../otel/receiver.ts').then(
        ({ receiveTraces }) => receiveTraces(req, res, { launchToken: options.token, receiverToken: receiver.token, tracing: receiver.tracing }),
        () => refuse(res, 500, 'Internal Server Error'),
      );
    }
    // The authorization server's redirect (issue 11): guarded by its single-use state, not the token
    // (proxy/oauth/callback.ts decides; oauth-page.ts draws what the person is told).
    if (url.pathname === '/oauth/callback') {
      // The page's drawing is loaded with the first callback: a launch does not need it to listen.
      return void Promise.all([options.hub(), import('./oauth-page.ts')]).then(
        ([hub, { sendCallbackPage }]) => sendCallbackPage(res, hub.engine.callbacks.receive(url.searchParams)),
        () => refuse(res, 500, 'Internal Server Error'),
      );
    }
    serveStatic(options.uiRoot, req, res, url.pathname);
  });

  server.on('upgrade', (req, socket, head) => {
    const refusal = checkOrigin(req, policy);
    if (refusal) return refuseUpgrade(socket, refusal[0], 'Forbidden');
    const url = new URL(req.url ?? '/', 'http://loupe.invalid');
    // `/tap`: a `mcp-loupe --tap` process attaching its host's session (issue 13, tap-endpoint.ts).
    if (url.pathname !== '/ws' && url.pathname !== '/tap') return refuseUpgrade(socket, 404, 'Not Found');
    if (!tokenMatches(options.token, url.searchParams.get('token'))) return refuseUpgrade(socket, 401, 'Unauthorized');
    const accept = url.pathname === '/tap' ? import('./tap-endpoint.ts').then(({ acceptTap }) => (hub: Hub, ws: import('ws').WebSocket) => acceptTap(hub.engine, ws)) : Promise.resolve((hub: Hub, ws: import('ws').WebSocket) => hub.attach(ws, url.searchParams.get('frames') === 'seq'));
    Promise.all([options.hub(), sockets(), accept]).then(
      ([hub, server, onSocket]) => server.handleUpgrade(req, socket, head, (ws) => onSocket(hub, ws)),
      () => refuseUpgrade(socket, 500, 'Internal Server Error'),
    );
  });

  server.on('listening', () => {
    const address = server.address();
    if (address && typeof address === 'object') policy.port = address.port;
  });

  return { server, policy };
}

async function handleApi(pathname: string, res: ServerResponse, options: ServerOptions): Promise<void> {
  if (pathname !== '/api/health') return refuse(res, 404, 'Not found');
  const hub = await options.hub();
  const body = JSON.stringify({ ok: true, name: 'mcp-loupe', version: options.version, primary: hub.primary ?? null });
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
}
