/**
 * One client session of the gateway (issue 13): the SDK's Streamable HTTP server transport toward
 * the client, a connection of its own to the target (gateway-upstream.ts), and the relay between
 * them. Messages go through as the SDK parsed them — initialize and its answer included, so that
 * protocol version negotiation stays the client's and the server's business. In Loupe's page it is
 * a watched session (engine.openRelay) whose trace the upstream transport records.
 *
 * Where a server message goes: answers by their id (the SDK does that); a notification or request
 * of the server to the request in flight it belongs to (progress by its token; otherwise, when
 * exactly one request is in flight, that one — a stdio server does not say); else the client's GET
 * stream. The session ends on DELETE, when the target goes, from the page, or once idle: no HTTP
 * exchange of the client open and none started for `idleMs` (a client that went away has closed
 * its connections; one that waits on a long call or holds its GET stream is still there).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import type { LoupeError } from '../../../lib/wire/wire.ts';
import type { Engine } from '../../engine/engine.ts';
import { openUpstream, type Upstream } from './upstream.ts';
import { StandaloneStream } from './standalone.ts';
import type { Session } from '../../session/session.ts';
import { describeDuration } from '../../listen/body-limits.ts';

export interface GatewaySessionInit {
  engine: Engine;
  config: ServerConfig;
  label?: string;
  idleMs: number;
  /** The SDK named the session: later requests with this id come to it. */
  onRegistered(id: string, session: GatewaySession): void;
  /** It ended (once): forget it. */
  onEnded(session: GatewaySession): void;
}

interface Ending {
  /** A line for the trace (why it was closed). */
  note?: string;
  /** The target failed: the page shows it, and requests in flight are answered with it. */
  error?: LoupeError;
}

const key = (id: unknown): string => `${typeof id}:${String(id)}`;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isResponse = (message: JSONRPCMessage): boolean => 'id' in message && !('method' in message);
const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => 'method' in message && 'id' in message;

/** A refusal in the shape of the SDK's own (a JSON-RPC error body), so that a client shows it the same way. */
export function refuse(res: ServerResponse, status: number, message: string, code = -32000, id: RequestId | null = null, data?: unknown): void {
  if (res.headersSent) return void res.end();
  const error = { code, message, ...(data === undefined ? {} : { data }) };
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error }));
}

/** The sentence a client gets when the target could not be started or reached. */
function unreachable(error: LoupeError): { message: string; data?: unknown } {
  // An exit's hint points at the stderr "below" (the page); the client gets the tail itself.
  const hint = error.code === 'EXITED' ? '' : error.hint ? ` ${error.hint}` : '';
  const tail = error.detail?.stderrTail?.trim();
  return { message: `Loupe's gateway could not open a session with its server: ${error.message}${hint}`, data: tail ? { stderrTail: tail } : undefined };
}

export class GatewaySession {
  /** The session in Loupe's page. */
  readonly relay: Session;
  private server?: StreamableHTTPServerTransport;
  private upstream?: Upstream;
  private link?: Transport;
  private readonly standalone: StandaloneStream;
  /** Client requests waiting for the server's answer, by id key; with their progress tokens. */
  private readonly inFlight = new Map<string, RequestId>();
  private readonly progress = new Map<string, RequestId>();
  private initialize?: { key: string; answer?: JSONRPCMessage; resolve(answer: JSONRPCMessage | undefined): void };
  /** What the server sent before the client's side existed (while initialize was on its way). */
  private early: JSONRPCMessage[] = [];
  private exchanges = 0;
  /** POSTs of the client still open: requests in flight or streaming their answers (a GET stream is not one). */
  private posts = 0;
  /** When the client last sent a request (performance.now()): the gateway's cap ends the longest unused first. */
  lastUsed = performance.now();
  private idleTimer?: ReturnType<typeof setTimeout>;
  private ending?: Promise<void>;

  constructor(private readonly init: GatewaySessionInit) {
    const { config, label } = init;
    this.relay = init.engine.openRelay({ kind: 'gateway', config, label, transport: config.kind === 'stdio' ? 'stdio' : 'http', stop: () => this.end({ note: 'Stopped from Loupe’s page.' }) });
    this.standalone = new StandaloneStream(
      (message) => this.server?.send(message) ?? Promise.resolve(),
      (held) => this.note('warn', `The client has not opened its GET stream; server messages beyond ${held} that belong to no request were dropped.`),
    );
  }

  get ended(): boolean {
    return this.ending !== undefined;
  }

  /**
   * Open, answered initialize, and nothing of the client's in flight: ending it loses no answer.
   * An open GET stream does not count (a client may hold one for as long as the session lives).
   */
  get idle(): boolean {
    return !this.ended && this.server !== undefined && this.initialize === undefined && this.posts === 0 && this.inFlight.size === 0;
  }

  /**
   * The client's initialize (a POST without a session id): the target is started (or reached) and
   * asked first, so that a target that cannot start is a 502 in plain words rather than a session
   * that never answers. Then the SDK's transport takes the request, and the answer goes back.
   */
  async open(req: IncomingMessage, res: ServerResponse, message: JSONRPCRequest): Promise<void> {
    this.track(res);
    const failed = (error: LoupeError) => {
      const words = unreachable(error);
      refuse(res, 502, words.message, -32000, message.id, words.data);
      void this.end({ error });
    };
    const resolved = this.init.engine.model.resolve(this.relay.id);
    this.relay.trace.secretValues = this.init.engine.model.secretValuesOf(this.relay.id);
    const upstream = await openUpstream(resolved?.config ?? this.init.config, this.init.engine.pipelineContext(this.relay), {
      // After the failing request was answered: then the client's next request meets the 404 and starts anew.
      onSessionEnded: () => void setImmediate(() => void this.end({ note: 'The server ended its session (404): the gateway closed this client’s session, so that the client starts a new one.' })),
    });
    this.upstream = upstream;
    const link = upstream.transport;
    this.link = link;
    link.onmessage = (m) => this.fromServer(m);
    link.onclose = () => this.upstreamClosed();
    link.onerror = (error) => this.note('warn', `The connection to the server reported: ${error.message}`);
    const answered = new Promise<JSONRPCMessage | undefined>((resolve) => (this.initialize = { key: key(message.id), resolve }));
    const clientGone = new Promise<'gone'>((resolve) => res.once('close', () => resolve('gone')));
    try {
      await link.start();
      const pid = upstream.pid();
      const relay = this.relay.snapshot().relay;
      if (pid !== undefined && relay) this.relay.updateRelay({ relay: { ...relay, pid } });
      await link.send(message);
    } catch (error) {
      return failed(upstream.describe(error, 'before it answered initialize'));
    }
    const answer = await Promise.race([answered, clientGone]);
    if (answer === 'gone') return void this.end({ note: 'The client went away before the server answered initialize.' });
    if (answer === undefined) return failed(upstream.describe(new Error('the connection closed'), 'before it answered initialize'));
    this.initialize!.answer = answer;
    const version = 'result' in answer && isObject(answer.result) ? answer.result.protocolVersion : undefined;
    if (typeof version === 'string') upstream.negotiated(version);
    await this.serve(req, res, message);
  }

  private async serve(req: IncomingMessage, res: ServerResponse, message: JSONRPCRequest): Promise<void> {
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const server = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => this.init.onRegistered(id, this),
      onsessionclosed: () => void this.end({ note: 'The client ended its session (DELETE).' }),
    });
    this.server = server;
    server.onmessage = (m) => this.fromClient(m);
    server.onclose = () => void this.end({});
    server.onerror = (error) => this.note('warn', `The client's side: ${error.message}`);
    await server.start();
    await server.handleRequest(req, res, message);
  }

  /** A later request of this client (POST, GET or DELETE with its session id); a POST's body read already (gateway-body.ts). */
  async handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const server = this.server;
    if (!server || this.ended) return refuse(res, 404, 'Session not found: it was closed. Initialize again.', -32001);
    this.track(res, req.method);
    if (req.method === 'GET') this.standalone.watch(res);
    await server.handleRequest(req, res, body);
  }

  /** Every HTTP exchange of the client holds off the idle timer until it closes. */
  private track(res: ServerResponse, method = 'POST'): void {
    this.exchanges++;
    const post = method === 'POST';
    if (post) {
      this.posts++;
      this.lastUsed = performance.now();
    }
    clearTimeout(this.idleTimer);
    res.once('close', () => {
      if (post) this.posts--;
      if (--this.exchanges === 0 && !this.ended) this.armIdle();
    });
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    const ms = this.init.idleMs;
    this.idleTimer = setTimeout(() => void this.end({ note: `Closed after ${describeDuration(ms)} without a request from the client.` }), ms);
    this.idleTimer.unref();
  }

  private fromClient(message: JSONRPCMessage): void {
    const init = this.initialize;
    if (init?.answer && isRequest(message) && message.method === 'initialize' && key(message.id) === init.key) {
      // Asked already (open()): the SDK's transport has the stream now, the answer goes on it.
      const answer = init.answer;
      this.initialize = undefined;
      void this.toClient(answer);
      for (const early of this.early.splice(0)) this.fromServer(early);
      return;
    }
    if (isRequest(message)) {
      this.inFlight.set(key(message.id), message.id);
      const token = isObject(message.params) && isObject(message.params._meta) ? message.params._meta.progressToken : undefined;
      if (token !== undefined) this.progress.set(key(token), message.id);
    } else if ('method' in message && message.method === 'notifications/cancelled' && isObject(message.params)) {
      this.settled(message.params.requestId);
    }
    void this.toServer(message);
  }

  private async toServer(message: JSONRPCMessage): Promise<void> {
    try {
      await this.link!.send(message);
    } catch (error) {
      if (!isRequest(message)) return this.note('warn', `Could not pass a ${'method' in message ? message.method : 'response'} to the server: ${error instanceof Error ? error.message : String(error)}`);
      const why = this.upstream!.describe(error, 'while this request was on its way');
      this.settled(message.id);
      await this.toClient({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `Loupe's gateway could not pass ${message.method} to the server: ${why.message}` } });
    }
  }

  private fromServer(message: JSONRPCMessage): void {
    const init = this.initialize;
    if (init && !init.answer && isResponse(message) && key((message as { id: unknown }).id) === init.key) return init.resolve(message);
    if (!this.server) return void this.early.push(message);
    if (isResponse(message)) {
      this.settled((message as { id: RequestId }).id);
      return void this.toClient(message);
    }
    const related = this.relatedRequest(message);
    if (related === undefined) return this.standalone.deliver(message);
    void this.toClient(message, related);
  }

  private relatedRequest(message: JSONRPCMessage): RequestId | undefined {
    const params = 'method' in message && isObject(message.params) ? message.params : undefined;
    if ('method' in message && message.method === 'notifications/progress' && params?.progressToken !== undefined) {
      const request = this.progress.get(key(params.progressToken));
      if (request !== undefined) return request;
    }
    return this.inFlight.size === 1 ? this.inFlight.values().next().value : undefined;
  }

  private async toClient(message: JSONRPCMessage, relatedRequestId?: RequestId): Promise<void> {
    try {
      await this.server?.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
    } catch (error) {
      // The client closed that request's stream: a notification still has the GET stream.
      if (relatedRequestId !== undefined && !isResponse(message)) return this.standalone.deliver(message);
      this.note('warn', `Could not deliver a message to the client: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private settled(id: unknown): void {
    const k = key(id);
    if (!this.inFlight.delete(k)) return;
    for (const [token, request] of this.progress) if (key(request) === k) this.progress.delete(token);
  }

  private upstreamClosed(): void {
    if (this.ended) return;
    if (this.initialize && !this.initialize.answer) return this.initialize.resolve(undefined);
    void this.end({ error: this.upstream!.describe(new Error('the connection closed'), 'while the client’s session was open') });
  }

  private note(level: 'info' | 'warn', message: string): void {
    this.relay.trace.record({ kind: 'transport', level, message: `Gateway: ${message}` });
  }

  /** Closes both sides (the child's process group is stopped) and ends the page's session. Idempotent. */
  end(ending: Ending): Promise<void> {
    this.ending ??= this.stop(ending);
    return this.ending;
  }

  private async stop({ note, error }: Ending): Promise<void> {
    clearTimeout(this.idleTimer);
    this.init.onEnded(this);
    if (note) this.note('info', note);
    if (this.server && this.inFlight.size > 0) {
      // The client hears why its requests will not be answered, before their streams close.
      const message = error ? `Loupe's gateway lost its server: ${error.message}` : `Loupe's gateway closed this session${note ? `: ${note}` : '.'}`;
      await Promise.allSettled([...this.inFlight.values()].map((id) => this.toClient({ jsonrpc: '2.0', id, error: { code: -32603, message } })));
    }
    this.inFlight.clear();
    this.initialize?.resolve(undefined);
    await Promise.allSettled([this.server?.close(), this.upstream?.close()]);
    this.relay.endRelay(error);
  }
}
