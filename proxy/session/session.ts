/**
 * One connected MCP server: an SDK `Client` over a tapped transport, its status, and its trace.
 * The browser is only a view of this; a page reload finds the session as it was. How a connection
 * is opened in each protocol generation is in session-eras.ts (issue 12).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { ClientCapabilityChoice, LoupeError, Root, SessionInfo, SessionStatus, SubscriptionFilter } from '../../lib/wire/wire.ts';
import { DEFAULT_CHOICE, modernCapabilities } from '../../lib/client/capabilities.ts';
import { CLIENT_INFO } from './client.ts';
import { SessionEras } from './eras.ts';
import type { Listener } from './modern.ts';
import type { HttpTap } from '../upstream/http/tap.ts';
import type { RawRouter, RawOutcome } from './raw-router.ts';
import { DEFAULT_SERVER_REQUEST_TIMEOUT_MS, type ServerRequestBroker } from './server-requests.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './request-timer.ts';
import { InFlight } from './in-flight.ts';
import type { StdioTapTransport } from '../upstream/stdio/transport.ts';
import { TraceRecorder, now } from '../pipeline/trace-recorder.ts';
import { describeTarget, exitError, notConnectedError } from './errors.ts';
import { SessionOAuth, type OAuthContext } from './oauth.ts';
import type { OAuthSettings } from '../../lib/wire/oauth.ts';
import type { PipelineContext } from '../pipeline/context.ts';

export { DEFAULT_CONNECT_TIMEOUT_MS, type ClientSideOptions, type RequestOptions, type RequestOutcome, type SessionView } from './types.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, type ClientSideOptions, type RequestOptions, type RequestOutcome, type SessionView } from './types.ts';

/** The SDK Client of either generation, as far as the session uses it. */
type AnyClient = Pick<Client, 'close'>;

export class Session {
  private client?: AnyClient;
  /** A 2026-07-28 session's `subscriptions/listen` stream (issue 12). */
  private listener?: Listener;
  /** The log level put in each request's `_meta` on a 2026-07-28 session. */
  private logLevel?: string;
  /** The HTTP tap of a remote session, for the raw composer's headers. */
  private httpTap?: HttpTap;
  private transport?: Transport;
  private stdio?: StdioTapTransport;
  private info: Omit<SessionInfo, 'id' | 'name' | 'config' | 'status' | 'since'> = {};
  private view?: SessionView;
  private statusValue: SessionStatus = 'disconnected';
  private since = Date.now();
  private closing = false;
  private readonly inFlight = new InFlight();
  private raw?: RawRouter;
  private choice: ClientCapabilityChoice = DEFAULT_CHOICE;
  private roots: Root[] = [];
  private serverRequestTimeoutMs = DEFAULT_SERVER_REQUEST_TIMEOUT_MS;
  private connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
  /** Bumped by every connect/disconnect so a stale attempt cannot overwrite a newer one. */
  private generation = 0;
  /** Bumped by every connect call: a connect superseded while it waited for the old child to stop starts nothing. */
  private connectTicket = 0;
  /**
   * Transports still being initialized (not yet this.transport): a disconnect, a reconnect or the
   * shutdown closes them too, so that a server still initializing is killed (issue 8).
   */
  private readonly opening = new Set<Transport>();
  /** Loupe is exiting: nothing more is started. */
  private stopped = false;
  /** The next HTTP connect replaces a session the server ended (a second 404 then fails it). */
  private renewing = false;

  /** Interception (issue 13): what the session's frame pipeline reads; the engine sets it. */
  pipeline?: PipelineContext;
  private relayStop?: () => Promise<void>;

  /** OAuth for a remote server (issue 11); absent where the engine gives no context (tests). */
  readonly oauth?: SessionOAuth;

  constructor(
    readonly id: string,
    private configValue: ServerConfig,
    readonly trace: TraceRecorder,
    private readonly onChange: (info: SessionInfo) => void,
    private readonly broker: ServerRequestBroker,
    connectTimeoutMs?: number,
    oauthContext?: OAuthContext,
  ) {
    if (connectTimeoutMs) this.connectTimeoutMs = connectTimeoutMs;
    if (oauthContext) this.oauth = new SessionOAuth(oauthContext, trace, () => this.announce());
    this.eras = new SessionEras({
      id: this.id,
      trace: this.trace,
      broker: this.broker,
      opening: this.opening,
      isCurrent: (generation) => generation === this.generation,
      envelope: () => ({ clientInfo: CLIENT_INFO, capabilities: modernCapabilities(this.choice), logLevel: this.logLevel }),
      roots: () => this.roots,
      choice: () => this.choice,
      connectTimeoutMs: () => this.connectTimeoutMs,
      serverRequestTimeoutMs: () => this.serverRequestTimeoutMs,
      onClosed: (client) => this.onTransportClosed(client),
      announce: () => this.announce(),
      info: () => this.info,
      take: (taken) => {
        this.client = taken.client;
        this.transport = taken.transport;
        this.raw = taken.router;
        this.listener = taken.listener;
        if (taken.tap) this.httpTap = taken.tap;
      },
      setStdio: (transport) => (this.stdio = transport),
      oauth: this.oauth,
      takeRenewing: () => {
        const renewing = this.renewing;
        this.renewing = false;
        return renewing;
      },
      isLive: (generation) => generation === this.generation && this.statusValue === 'connected',
      renew: (error) => {
        this.failPending(error);
        this.trace.record({ kind: 'transport', level: 'warn', message: error.message });
        this.renewing = true;
        void this.connect();
      },
      pipeline: () => this.pipeline,
      drop: (error) => {
        this.failPending(error);
        this.fail(error);
        void this.disconnect({ quiet: true });
      },
    });
  }

  setOAuthSettings(settings: OAuthSettings): Promise<void> {
    return this.oauth?.setSettings(settings) ?? Promise.resolve();
  }

  forgetOAuth(): Promise<void> {
    return this.oauth?.forget() ?? Promise.resolve();
  }

  /** The settings as held, client secret included: for the guided flow, in the proxy only. */
  oauthSettings(): OAuthSettings & { idTokenFile?: string } {
    return this.oauth?.settingsWithSecret() ?? {};
  }

  get config(): ServerConfig {
    return this.configValue;
  }

  get status(): SessionStatus {
    return this.statusValue;
  }

  /** The generation and version in use, without building a snapshot (the spec validator asks every batch). */
  get era(): SessionInfo['era'] {
    return this.info.era;
  }

  get protocolVersion(): string | undefined {
    return this.info.protocolVersion;
  }

  /** Sets what the page is shown (the snapshot's name and config); announced by the next change or by `announce`. */
  setView(view: SessionView): void {
    this.view = view;
  }

  announce(): void {
    this.onChange(this.snapshot());
  }

  snapshot(): SessionInfo {
    return {
      id: this.id,
      name: this.configValue.name ?? this.id,
      ...this.view,
      // Never the resolved config when there is a view: that one holds the secrets' values.
      config: this.view?.config ?? this.configValue,
      status: this.statusValue,
      since: this.since,
      ...this.info,
      pid: this.stdio?.exit ? undefined : this.stdio?.pid,
      clientCapabilities: this.choice,
      roots: this.roots,
      serverRequestTimeoutMs: this.serverRequestTimeoutMs,
      connectTimeoutMs: this.connectTimeoutMs,
      auth: this.authView(),
      logLevel: this.logLevel,
      listen: this.listener?.state,
    };
  }

  /** What the page may know of the sign-in: the provider's state and the settings without the secret. */
  private authView(): SessionInfo['auth'] {
    if (!this.oauth || this.configValue.kind !== 'http') return undefined;
    return { ...(this.oauth.state() ?? { phase: 'none' }), settings: this.oauth.settingsView() };
  }

  /** Connects (closing any current connection first). Never throws: failure is a status. */
  async connect(config: ServerConfig = this.configValue, options: ClientSideOptions = {}): Promise<void> {
    const ticket = ++this.connectTicket;
    const restart = this.restarting;
    if (restart) this.trace.record({ kind: 'transport', level: 'info', message: `Restarted: ${restart}`, marker: 'restart' });
    // The old child (connected, or still initializing) is stopped before a new one starts.
    await this.disconnect({ quiet: true });
    if (ticket !== this.connectTicket || this.stopped) return;
    const generation = ++this.generation;
    this.configValue = config;
    if (options.clientCapabilities) this.choice = options.clientCapabilities;
    if (options.roots) this.roots = options.roots;
    if (options.serverRequestTimeoutMs) this.serverRequestTimeoutMs = options.serverRequestTimeoutMs;
    if (options.connectTimeoutMs) this.connectTimeoutMs = options.connectTimeoutMs;
    this.info = {};
    this.httpTap = undefined;
    this.setStatus('connecting');
    this.trace.record({ kind: 'transport', level: 'info', message: `Connecting to ${describeTarget(this.view?.config ?? config)}` });
    const outcome = config.kind === 'stdio' ? await this.eras.connectStdio(config, generation) : await this.eras.connectHttp(config, generation);
    if (generation !== this.generation) return;
    this.connectReason = restart ? `restarted: ${restart}` : 'connected';
    if (this.restarting === restart) this.restarting = undefined;
    if (!outcome.ok) {
      this.fail(outcome.error);
      return;
    }
    this.trace.record({ kind: 'transport', level: 'info', message: this.info.era === 'modern' ? 'Connected: 2026-07-28, stateless (no initialize)' : 'Initialized' });
    this.setStatus('connected');
  }

  /**
   * Stops the session in any state: a connected client, a transport still initializing (Cancel),
   * and the process group of a child that already exited. Resolves once they are stopped.
   */
  async disconnect(options: { quiet?: boolean } = {}): Promise<void> {
    this.generation++;
    // A disconnect from the user (or the shutdown) also stops a connect still waiting to start.
    if (!options.quiet) this.connectTicket++;
    const cancelled = this.statusValue === 'connecting';
    const client = this.client;
    this.client = undefined;
    const opening = [...this.opening];
    this.opening.clear();
    this.oauth?.cancelWaiting(cancelled ? 'Cancelled by you.' : 'The session was disconnected.');
    const relayStop = this.relayStop;
    this.relayStop = undefined;
    // A restart's requests fail with its reason, so that the page says why they got no answer.
    const restarted = this.restarting ? { code: 'RESTARTED' as const, message: `The server was restarted (${this.restarting}) before it answered.` } : undefined;
    this.inFlight.abortAll(restarted ?? 'Disconnected');
    this.raw?.closeAll(restarted);
    this.raw = undefined;
    this.listener?.reset();
    this.listener = undefined;
    this.broker.dropSession(this.id);
    this.closing = true;
    try {
      await Promise.allSettled([client?.close(), ...opening.map((t) => t.close()), this.stdio?.close(), relayStop?.()]);
    } finally {
      this.closing = false;
    }
    if (client || relayStop) this.trace.record({ kind: 'transport', level: 'info', message: relayStop ? 'Stopped watching' : 'Disconnected' });
    if (cancelled && !options.quiet) {
      this.info.error = { code: 'CANCELLED', message: 'Cancelled by you: Loupe stopped the server before it finished initializing.' };
      this.trace.record({ kind: 'transport', level: 'info', message: 'Connect cancelled; the server process was stopped' });
    }
    if (!options.quiet || this.statusValue === 'connected') this.setStatus('disconnected');
  }

  /** Loupe is exiting: stops everything of this session (in any state) and starts nothing more. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    await this.disconnect();
  }

  /**
   * Why the next connect replaces the running server (issue 25: `server.mjs changed`, `Restart in
   * the page`); the engine sets it. The trace marks it, and the requests in flight fail with it.
   */
  restarting?: string;
  /** Why the session last connected: `connected`, or `restarted: <reason>` (the surface history's points say it). */
  connectReason = 'connected';

  /** A request from the page, sent through the router (see raw-router.ts for why not the SDK's). */
  async request(uiId: string, method: string, params: Record<string, unknown> | undefined, options: RequestOptions = {}): Promise<RequestOutcome> {
    const raw = this.raw;
    if (!raw || this.statusValue !== 'connected') return { ok: false, error: this.notConnected() };
    return this.inFlight.run(uiId, options, async (cancel, onProgress) => {
      const told = options.onSettled;
      // An answer a new sign-in will retry is not final: only the retry's is told.
      const onSettled = told && ((outcome: RequestOutcome) => (outcome.ok || outcome.error.code !== 'UNAUTHORIZED' || !this.oauth ? told(outcome) : undefined));
      const send = () => raw.request(method, params, { cancel, byView: options.byView, onProgress, onSettled });
      const outcome = await send();
      // A step-up (403 insufficient_scope) or a refresh that failed: sign in again, then send once more.
      if (!outcome.ok && outcome.error.code === 'UNAUTHORIZED' && this.oauth && (await this.oauth.signInAgain(this.transport))) return await send();
      return outcome;
    });
  }

  /** Sends a hand-written JSON-RPC message (raw composer, replay) beside the SDK. */
  async sendRaw(message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', timeoutMs?: number, headers?: Record<string, string>): Promise<RawOutcome> {
    if (!this.raw || this.statusValue !== 'connected') return { ok: false, error: this.notConnected() };
    const tap = this.httpTap;
    const withHeaders = headers && Object.keys(headers).length > 0;
    if (withHeaders && !tap) return { ok: false, error: { code: 'BAD_MESSAGE', message: 'HTTP headers can be set only on a Streamable HTTP session.' } };
    return this.raw.send(message, origin, timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, withHeaders ? (body) => tap!.headersForBody(body, headers) : undefined);
  }

  private notConnected(): LoupeError {
    return notConnectedError(this.statusValue === 'connected' ? this.info.relay : undefined);
  }

  /** A session Loupe watches (issue 13): the tap endpoint or gateway feeds it; `stop` ends the watching. */
  adoptRelay(relay: NonNullable<SessionInfo['relay']>, transport: 'stdio' | 'http', stop: () => Promise<void>): void {
    this.relayStop = stop;
    this.info = { relay, transport };
    this.setStatus('connected');
  }

  updateRelay(patch: Partial<Omit<SessionInfo, 'id' | 'name' | 'config' | 'status' | 'since'>>): void {
    Object.assign(this.info, patch);
    this.announce();
  }

  endRelay(error?: LoupeError): void {
    if (!this.relayStop) return;
    this.relayStop = undefined;
    this.broker.dropSession(this.id);
    if (error) this.fail(error);
    else this.setStatus('disconnected');
  }

  /** Opens the `subscriptions/listen` stream of a 2026-07-28 session (replacing an open one). */
  async listen(filter: SubscriptionFilter): Promise<LoupeError | undefined> {
    const client = this.client;
    if (!this.listener || !client || this.statusValue !== 'connected') return { code: 'NOT_CONNECTED', message: 'Listening needs a connected 2026-07-28 session.' };
    await this.listener.open(client as never, filter);
    return undefined;
  }

  async unlisten(): Promise<void> {
    await this.listener?.close();
  }

  /** The log level of every later request on a 2026-07-28 session (null: none). */
  setLogLevel(level: string | null): void {
    this.logLevel = level ?? undefined;
    this.announce();
  }

  /** The 2026-07-28 half: the probe and the v2 Client (session-eras.ts). */
  private readonly eras: SessionEras;

  /** Replaces the roots; tells the server when Loupe declared `roots.listChanged`. */
  async setRoots(roots: Root[]): Promise<void> {
    this.roots = roots;
    this.onChange(this.snapshot());
    // A 2026-07-28 server is stateless: there is no session to tell (the next request carries the roots it asks for).
    if (this.client && this.info.era !== 'modern' && this.statusValue === 'connected' && this.choice.roots && this.choice.rootsListChanged) {
      await (this.client as Client).sendRootsListChanged().catch(() => undefined);
    }
  }

  /** Cancels an in-flight request; the SDK sends `notifications/cancelled`. */
  cancel(uiId: string): boolean {
    return this.inFlight.cancel(uiId, 'Cancelled by the user (notifications/cancelled sent)');
  }

  /** The transport closed without being asked to (the child died, the server went away). */
  private onTransportClosed(client: unknown): void {
    if (client !== this.client || this.closing) return;
    this.client = undefined;
    const exit = this.stdio?.exit;
    if (exit && this.transport === this.stdio) {
      this.failPending(exitError(exit.code, exit.signal, exit.stderrTail, 'while this request was pending'));
      this.fail(exitError(exit.code, exit.signal, exit.stderrTail, ''));
    } else {
      this.failPending({ code: 'UNREACHABLE', message: 'The connection to the server closed while this request was pending.' });
      this.fail({ code: 'UNREACHABLE', message: 'The connection to the server was closed.' });
    }
  }

  /**
   * The transport died: every request still waiting fails now with `error`, instead of at its
   * timeout (the SDK Client rejects its own pending requests itself when the transport closes).
   */
  private failPending(error: LoupeError): void {
    this.raw?.closeAll(error);
    this.raw = undefined;
    this.broker.dropSession(this.id);
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

export { now };
