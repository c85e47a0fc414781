/**
 * `mcp-loupe --mock FILE [--mock-port N]` (issue 10): an MCP server that answers from a recording,
 * so that a client's test suite can point at it instead of the real server. Over stdio by default,
 * over Streamable HTTP at `http://127.0.0.1:N/mcp` with a port: then, as the gateway, it asks for
 * a per-launch bearer token, takes no request from a web page and only JSON bodies, within bounds
 * (mcp-endpoint-guard.ts, gateway-body.ts), since a recording may hold what its user would not
 * publish (issue 21).
 *
 * The SDK's server transports do the framing, the HTTP sessions and SSE; the answers come from
 * lib/headless/mock-match.ts. The SDK's `Server` is not used: it answers initialize, ping and unknown methods
 * itself and checks what it sends, where a mock must send what was recorded, as recorded.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { buildAnswerTable, MockConversation, type AnswerTable, type Outgoing } from '../../../lib/headless/mock-match.ts';
import { conversationOf } from '../../../lib/trace/exchanges.ts';
import type { ImportedTrace } from '../../../lib/trace/read-trace.ts';
import { BodyReader } from '../../listen/body-limits.ts';
import { answerError, MOCK, newEndpointToken, refused } from '../../listen/endpoint-guard.ts';
import { MockSessions } from './sessions.ts';
import type { HttpSetup, MockOptions, RunningMock } from './options.ts';

export type { MockOptions, RunningMock };
import { isLoopbackAddress } from '../../listen/security.ts';

/** Why a mock did not start: `BAD_TRACE` and `USAGE` are the user's to fix (exit 2), `LISTEN_FAILED` the machine's (exit 3). */
export class MockStartError extends Error {
  readonly code: 'BAD_TRACE' | 'USAGE' | 'LISTEN_FAILED';

  constructor(code: MockStartError['code'], message: string) {
    super(message);
    this.name = 'MockStartError';
    this.code = code;
  }
}

/** Starts a mock. Rejects with a MockStartError (one plain sentence) when it cannot. */
export async function startMock(trace: ImportedTrace, options: MockOptions = {}): Promise<RunningMock> {
  const built = buildAnswerTable(conversationOf(trace.events));
  if (!built.ok) throw new MockStartError('BAD_TRACE', built.error);
  const { table } = built;
  const log = options.log ?? (() => undefined);
  const recorded = { answers: table.answered, methods: [...table.byMethod.keys()], protocolVersion: table.protocolVersion };
  if (options.port === undefined) return { ...(await startStdio(table, options.input ?? process.stdin, options.output ?? process.stdout, log)), recorded };
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host)) throw new MockStartError('USAGE', `The mock listens on loopback only (127.0.0.1), not ${host}.`);
  const token = options.noAuth ? undefined : (options.token ?? newEndpointToken());
  return { ...(await startHttp(table, { port: options.port, host, log, token, idleMs: options.idleMs, maxSessions: options.maxSessions })), recorded, token };
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);

/** Feeds one transport's messages to one conversation and sends the replies in order. */
function serve(transport: Transport, conversation: MockConversation, log: (line: string) => void, standalone?: (message: JSONRPCMessage) => void): void {
  let queue = Promise.resolve();
  const deliver = async ({ message, relatedRequestId }: Outgoing) => {
    const isAnswer = 'result' in message || 'error' in message;
    // HTTP: what belongs to no request goes on the client's GET stream, which may not be open yet.
    if (standalone && !isAnswer && relatedRequestId === undefined) standalone(message);
    else await transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
  };
  transport.onmessage = (message) => {
    const reply = conversation.receive(message);
    for (const line of reply.log) log(line);
    for (const out of reply.send) {
      queue = queue.then(() => deliver(out)).catch((error: unknown) => log(`Loupe mock: could not send ${'method' in out.message ? out.message.method : 'an answer'} to the client (${firstLine(error)}).`));
    }
  };
}

type Started = Omit<RunningMock, 'recorded'>;

async function startStdio(table: AnswerTable, input: Readable, output: Writable, log: (line: string) => void): Promise<Started> {
  const transport = new StdioServerTransport(input, output);
  // Re-entered from the transport's onclose, which its own close() calls: closeOnce answers that.
  const { close, done } = closeOnce(() => transport.close());
  transport.onerror = (error) => log(`Loupe mock: skipped a line from the client that is not a JSON-RPC message (${firstLine(error)}).`);
  transport.onclose = () => void close();
  serve(transport, new MockConversation(table), log);
  // A client that went away leaves a broken pipe: that ends the mock, it does not crash it.
  output.on('error', (error) => {
    log(`Loupe mock: the client stopped reading (${firstLine(error)}).`);
    void close();
  });
  input.once('end', () => void close());
  input.once('close', () => void close());
  await transport.start();
  return { close, done };
}

/** The server messages of one HTTP session that belong to no request: held until its GET stream is open. */
class StandaloneStream {
  private open = false;
  private readonly held: JSONRPCMessage[] = [];
  private dropped = 0;
  private readonly transport: StreamableHTTPServerTransport;
  private readonly log: (line: string) => void;

  constructor(transport: StreamableHTTPServerTransport, log: (line: string) => void) {
    this.transport = transport;
    this.log = log;
  }

  send(message: JSONRPCMessage): void {
    if (this.open) return void this.transport.send(message).catch((error: unknown) => this.log(`Loupe mock: could not send a message on the GET stream (${firstLine(error)}).`));
    // Bounded: a client that never opens its GET stream must not make the mock grow.
    if (this.held.length < 1000) this.held.push(message);
    else if (this.dropped++ === 0) this.log('Loupe mock: this client never opened its GET stream; server messages beyond 1000 are dropped.');
  }

  /**
   * A GET is being handled: once its headers are out with a 200, the SDK has the stream and what
   * was held can go. (The transport does not say when the stream opens; the response does.)
   */
  watch(res: ServerResponse): void {
    res.once('close', () => (this.open = false));
    const deadline = Date.now() + 5000;
    const check = () => {
      if (res.destroyed || Date.now() > deadline) return;
      if (!res.headersSent) return void setTimeout(check, 2).unref();
      if (res.statusCode !== 200) return;
      this.open = true;
      for (const message of this.held.splice(0)) this.send(message);
    };
    check();
  }
}

interface HttpSession {
  number: number;
  transport: StreamableHTTPServerTransport;
  standalone: StandaloneStream;
  close(): Promise<void>;
}


async function startHttp(table: AnswerTable, setup: HttpSetup): Promise<Started> {
  if (table.era === 'modern') return startModern(table, setup);
  const { port, host, log, token } = setup;
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const sessions = new MockSessions<HttpSession>({ max: setup.maxSessions, idleMs: setup.idleMs, log });
  const bodies = new BodyReader(MOCK);
  let count = 0;

  const openSession = async (): Promise<HttpSession> => {
    const number = ++count;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.add(id, session);
        log(`Loupe mock: client ${number} connected (${sessions.size} open).`);
      },
      onsessionclosed: (id) => sessions.delete(id),
    });
    const session: HttpSession = { number, transport, standalone: new StandaloneStream(transport, log), close: () => transport.close() };
    transport.onclose = () => void (transport.sessionId && sessions.delete(transport.sessionId));
    transport.onerror = (error) => log(`Loupe mock: ${firstLine(error)}`);
    serve(transport, new MockConversation(table), log, (message) => session.standalone.send(message));
    await transport.start();
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, listening: number) => {
    if (refused(req, res, { endpoint: MOCK, port: listening, token })) return;
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return answerError(res, 404, 'Loupe mock: the MCP endpoint is /mcp.');
    const id = req.headers['mcp-session-id'];
    let session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string' && !session) return answerError(res, 404, 'Loupe mock: no such session (it was closed, idle, or the mock restarted); initialize again.', -32001);
    if (typeof id === 'string') sessions.busy(id, res);
    if (!session && req.method !== 'POST') return answerError(res, 400, 'Loupe mock: start a session with a POST of initialize first.');
    // Read here, within bounds, rather than by the SDK (one body's size only); before a session is made for it.
    const body = req.method === 'POST' ? await bodies.readOrRefuse(req, res) : { value: undefined };
    if (!body) return;
    if (!session) {
      if (!(await sessions.makeRoom())) return answerError(res, 503, `Loupe mock: every client session (${sessions.size}) has a request or stream open; end one (HTTP DELETE) before starting another.`);
      session = await openSession();
    }
    if (req.method === 'GET') session.standalone.watch(res);
    await session.transport.handleRequest(req, res, body.value);
    // A first POST that was not initialize opened no session: nothing will reach this transport again.
    if (session.transport.sessionId === undefined) await session.transport.close();
  };

  const server = createServer((req, res) => {
    handle(req, res, (server.address() as AddressInfo).port).catch((error: unknown) => {
      log(`Loupe mock: a request failed (${firstLine(error)}).`);
      if (!res.headersSent) answerError(res, 500, 'Loupe mock: this request failed inside the mock.');
      else res.destroy();
    });
  });
  await listen(server, port, host);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const { close, done } = closeOnce(async () => {
    await sessions.closeAll();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url, close, done };
}

/** A 2026-07-28 recording: stateless Streamable HTTP (mock-modern.ts). */
async function startModern(table: AnswerTable, setup: HttpSetup): Promise<Started> {
  const { startModernHttp } = await import('./modern.ts');
  let started: Awaited<ReturnType<typeof startModernHttp>>;
  try {
    started = await startModernHttp(table, setup);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'it is in use' : code === 'EACCES' ? 'permission denied' : firstLine(error);
    throw new MockStartError('LISTEN_FAILED', `The mock could not listen on ${setup.host}:${setup.port} (${why}): choose another --mock-port.`);
  }
  const { close, done } = closeOnce(started.close);
  return { url: started.url, close, done };
}

/** A close that stops once, however often it is called; `done` resolves when it has. */
function closeOnce(stop: () => Promise<void>): { close(): Promise<void>; done: Promise<void> } {
  let ended: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (ended = resolve));
  let closing = false;
  const close = async () => {
    if (closing) return done;
    closing = true;
    await stop();
    ended();
  };
  return { close, done };
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'it is in use' : error.code === 'EACCES' ? 'permission denied' : firstLine(error);
      reject(new MockStartError('LISTEN_FAILED', `The mock could not listen on ${host}:${port} (${why}): choose another --mock-port.`));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}
