/**
 * One connected MCP server: an SDK `Client` over a tapped transport, its status, and its trace.
 * The browser is only a view of this; a page reload finds the session as it was.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from '../lib/server-config-types.ts';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { ClientCapabilityChoice, LoupeError, Root, RpcError, SessionInfo, SessionStatus } from '../lib/wire.ts';
import { DEFAULT_CHOICE, declaredCapabilities } from '../lib/client-capabilities.ts';
import { registerClientHandlers } from './client-side.ts';
import { RawRouter, type RawOutcome } from './raw-router.ts';
import { DEFAULT_SERVER_REQUEST_TIMEOUT_MS, type ServerRequestBroker } from './server-requests.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, RequestTimer } from './request-timer.ts';
import { StdioTapTransport, TransportStartError } from './stdio-transport.ts';
import { TraceRecorder, now } from './trace-recorder.ts';

export const CLIENT_INFO = { name: 'mcp-loupe', title: 'MCP Loupe', version: '0.1.0' };
const INITIALIZE_TIMEOUT_MS = 30_000;


export type RequestOutcome = ({ ok: true; result: unknown } | { ok: false; error: RpcError | LoupeError }) & { rpcId?: string | number };

export interface RequestOptions {
  timeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** How Loupe plays the client's part on a connection (issue 4): chosen at connect time. */
export interface ClientSideOptions {
  clientCapabilities?: ClientCapabilityChoice;
  roots?: Root[];
  serverRequestTimeoutMs?: number;
}

export class Session {
  private client?: Client;
  private transport?: Transport;
  private stdio?: StdioTapTransport;
  private info: Omit<SessionInfo, 'id' | 'config' | 'status' | 'since'> = {};
  private statusValue: SessionStatus = 'disconnected';
  private since = Date.now();
  private closing = false;
  private readonly inFlight = new Map<string, AbortController>();
  private raw?: RawRouter;
  private choice: ClientCapabilityChoice = DEFAULT_CHOICE;
  private roots: Root[] = [];
  private serverRequestTimeoutMs = DEFAULT_SERVER_REQUEST_TIMEOUT_MS;
  /** Bumped by every connect/disconnect so a stale attempt cannot overwrite a newer one. */
  private generation = 0;

  constructor(
    readonly id: string,
    private configValue: ServerConfig,
    readonly trace: TraceRecorder,
    private readonly onChange: (info: SessionInfo) => void,
    private readonly broker: ServerRequestBroker,
  ) {}

  get config(): ServerConfig {
    return this.configValue;
  }

  get status(): SessionStatus {
    return this.statusValue;
  }

  snapshot(): SessionInfo {
    return {
      id: this.id,
      config: this.configValue,
      status: this.statusValue,
      since: this.since,
      ...this.info,
      pid: this.stdio?.exit ? undefined : this.stdio?.pid,
      clientCapabilities: this.choice,
      roots: this.roots,
      serverRequestTimeoutMs: this.serverRequestTimeoutMs,
    };
  }

  /** Connects (closing any current connection first). Never throws: failure is a status. */
  async connect(config: ServerConfig = this.configValue, options: ClientSideOptions = {}): Promise<void> {
    await this.disconnect({ quiet: true });
    const generation = ++this.generation;
    this.configValue = config;
    if (options.clientCapabilities) this.choice = options.clientCapabilities;
    if (options.roots) this.roots = options.roots;
    if (options.serverRequestTimeoutMs) this.serverRequestTimeoutMs = options.serverRequestTimeoutMs;
    this.info = {};
    this.setStatus('connecting');
    this.trace.record({ kind: 'transport', level: 'info', message: `Connecting to ${describe(config)}` });
    const outcome = config.kind === 'stdio' ? await this.connectStdio(config) : await this.connectHttp(config);
    if (generation !== this.generation) return;
    if (!outcome.ok) {
      this.fail(outcome.error);
      return;
    }
    this.trace.record({ kind: 'transport', level: 'info', message: 'Initialized' });
    this.setStatus('connected');
  }

  async disconnect(options: { quiet?: boolean } = {}): Promise<void> {
    this.generation++;
    const client = this.client;
    this.client = undefined;
    for (const controller of this.inFlight.values()) controller.abort('Disconnected');
    this.inFlight.clear();
    this.raw?.closeAll();
    this.raw = undefined;
    this.broker.dropSession(this.id);
    if (client) {
      this.closing = true;
      try {
        await client.close();
      } finally {
        this.closing = false;
      }
      this.trace.record({ kind: 'transport', level: 'info', message: 'Disconnected' });
    }
    if (!options.quiet || this.statusValue === 'connected') this.setStatus('disconnected');
  }

  /** A request from the page, sent through the router (see raw-router.ts for why not the SDK's). */
  async request(uiId: string, method: string, params: Record<string, unknown> | undefined, options: RequestOptions = {}): Promise<RequestOutcome> {
    const raw = this.raw;
    if (!raw || this.statusValue !== 'connected') {
      return { ok: false, error: { code: 'NOT_CONNECTED', message: 'The session is not connected.' } };
    }
    const controller = new AbortController();
    this.inFlight.set(uiId, controller);
    const timer = new RequestTimer(controller, options);
    const onProgress = options.onProgress;
    try {
      return await raw.request(method, params, {
        signal: controller.signal,
        onProgress: onProgress
          ? (p) => {
              timer.progressed();
              onProgress(p);
            }
          : undefined,
      });
    } finally {
      timer.stop();
      this.inFlight.delete(uiId);
    }
  }

  /** Sends a hand-written JSON-RPC message (raw composer, replay) beside the SDK. */
  async sendRaw(message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', timeoutMs?: number): Promise<RawOutcome> {
    if (!this.raw || this.statusValue !== 'connected') return { ok: false, error: { code: 'NOT_CONNECTED', message: 'The session is not connected.' } };
    return this.raw.send(message, origin, timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  }

  /** Replaces the roots; tells the server when Loupe declared `roots.listChanged`. */
  async setRoots(roots: Root[]): Promise<void> {
    this.roots = roots;
    this.onChange(this.snapshot());
    if (this.client && this.statusValue === 'connected' && this.choice.roots && this.choice.rootsListChanged) {
      await this.client.sendRootsListChanged().catch(() => undefined);
    }
  }

  /** Cancels an in-flight request; the SDK sends `notifications/cancelled`. */
  cancel(uiId: string): boolean {
    const controller = this.inFlight.get(uiId);
    controller?.abort('Cancelled by the user (notifications/cancelled sent)');
    return controller !== undefined;
  }

  private async connectStdio(config: Extract<ServerConfig, { kind: 'stdio' }>): Promise<{ ok: true } | { ok: false; error: LoupeError }> {
    const transport = new StdioTapTransport(config, this.trace);
    this.stdio = transport;
    const outcome = await this.initialize(transport);
    if (outcome.ok) {
      this.info.transport = 'stdio';
      this.info.protocolVersion = transport.protocolVersion;
      return outcome;
    }
    // Did the child end by itself? (The exit is recorded before the SDK sees the closed pipe.)
    const exit = transport.exit;
    await transport.close();
    if (!exit || (outcome.error.code !== 'INIT_FAILED' && outcome.error.code !== 'TIMEOUT')) return outcome;
    return { ok: false, error: exitError(exit.code, exit.signal, exit.stderrTail, 'before it finished initializing') };
  }

  private async connectHttp(config: Extract<ServerConfig, { kind: 'http' }>): Promise<{ ok: true } | { ok: false; error: LoupeError }> {
    // Loaded on first use: the HTTP/SSE transports pull in the SDK's OAuth code and an EventSource,
    // which a stdio-only session (the common case) need not hold in memory.
    const { openHttpTransport, describeHttpFailure } = await import('./http-connect.ts');
    const attempt = await openHttpTransport(config, this.trace, (transport) => this.initialize(transport));
    if (attempt.ok) {
      this.info.transport = attempt.transport;
      this.info.protocolVersion = attempt.protocolVersion;
      return { ok: true };
    }
    return { ok: false, error: describeHttpFailure(config.url, attempt) };
  }

  /** Runs `initialize` over a transport with a fresh Client. */
  private async initialize(transport: Transport): Promise<{ ok: true } | { ok: false; error: LoupeError }> {
    const client = new Client(CLIENT_INFO, {
      capabilities: declaredCapabilities(this.choice),
      ...(this.choice.tasks ? { taskStore: new InMemoryTaskStore() } : {}),
    });
    registerClientHandlers(client, {
      session: this.id,
      choice: this.choice,
      roots: () => this.roots,
      timeoutMs: () => this.serverRequestTimeoutMs,
      broker: this.broker,
    });
    // Every notification is in the trace already; accept them all so the SDK does not complain.
    client.fallbackNotificationHandler = async () => {};
    client.onclose = () => this.onTransportClosed(client);
    try {
      await client.connect(transport, { timeout: INITIALIZE_TIMEOUT_MS });
    } catch (error) {
      if (error instanceof TransportStartError) return { ok: false, error: error.loupeError };
      return { ok: false, error: initError(error) };
    }
    this.client = client;
    this.transport = transport;
    this.raw = new RawRouter(transport, this.trace);
    this.raw.install();
    const server = client.getServerVersion();
    this.info.serverInfo = server && {
      name: server.name,
      version: server.version,
      title: server.title,
      websiteUrl: server.websiteUrl,
      icons: Array.isArray(server.icons) ? (server.icons as Record<string, unknown>[]) : undefined,
    };
    this.info.capabilities = client.getServerCapabilities() as Record<string, unknown> | undefined;
    this.info.instructions = client.getInstructions();
    return { ok: true };
  }

  /** The transport closed without being asked to (the child died, the server went away). */
  private onTransportClosed(client: Client): void {
    if (client !== this.client || this.closing) return;
    this.client = undefined;
    const exit = this.stdio?.exit;
    if (exit && this.transport === this.stdio) {
      this.fail(exitError(exit.code, exit.signal, exit.stderrTail, ''));
    } else {
      this.fail({ code: 'UNREACHABLE', message: 'The connection to the server was closed.' });
    }
  }

  private fail(error: LoupeError): void {
    this.info.error = error;
    this.trace.record({ kind: 'transport', level: 'error', message: error.message });
    this.setStatus('failed');
  }

  private setStatus(status: SessionStatus): void {
    this.statusValue = status;
    this.since = Date.now();
    this.onChange(this.snapshot());
  }
}

function describe(config: ServerConfig): string {
  return config.kind === 'stdio' ? [config.command, ...config.args].join(' ') : config.url;
}

export function exitError(code: number | null, signal: string | null, stderrTail: string, when: string): LoupeError {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  return {
    code: 'EXITED',
    message: `The server ${how}${when ? ' ' + when : ''}.`,
    hint: stderrTail.trim() ? 'The end of its stderr is below.' : 'It wrote nothing to stderr.',
    detail: { exitCode: code, signal, stderrTail: stderrTail.slice(-4000) },
  };
}

function initError(error: unknown): LoupeError {
  if (error instanceof McpError && error.code === -32001) {
    return { code: 'TIMEOUT', message: `The server did not answer initialize within ${INITIALIZE_TIMEOUT_MS / 1000} s.` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INIT_FAILED', message: `Initialization failed: ${message}` };
}


export { now };
