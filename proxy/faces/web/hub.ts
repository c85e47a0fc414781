/**
 * The proxy side of the wire protocol (lib/wire/wire.ts) over the engine's sessions (engine.ts): each
 * tab subscribed to the sessions it shows (subscriptions.ts, which also batches trace events:
 * a flood costs one message per window). The workspace, OAuth, interception and Playground messages,
 * and the relayed requests, are handled in workspace.ts, oauth.ts, intercept.ts, playground.ts and
 * requests.ts, which see the hub only as a HubContext (context.ts).
 */
import type { RawData, WebSocket } from 'ws';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import type { ClientMessage, LoupeError, ServerMessage } from '../../../lib/wire/wire.ts';
import { SNAPSHOT_TAIL_EVENTS, WIRE_VERSION } from '../../../lib/wire/constants.ts';
import { readClientText } from '../../../lib/wire/quick-read.ts';
import type { Workspace } from '../../../lib/workspace/workspace.ts';
import type { HubContext } from './context.ts';
import { internalError, serialise } from './messages.ts';
import { relayRawMessage, relayRequest } from './requests.ts';
import { TabFeed } from './subscriptions.ts';
import { dispatchOAuth, guidedFlows, isOAuthMessage } from './oauth.ts';
import { dispatchWorkspace, isWorkspaceMessage } from './workspace.ts';
import { dispatchIntercept, interceptBroadcast, interceptSnapshot, isInterceptMessage } from './intercept.ts';
import { dispatchPlayground, isPlaygroundMessage, playgroundSnapshot } from './playground.ts';
import { closeApps, dispatchApps, isAppsMessage } from './apps.ts';
import { Engine, type EngineEvent, type EngineOptions } from '../../engine/engine.ts';
import type { Session, ClientSideOptions } from '../../session/session.ts';
import { type TraceLimits, DEFAULT_TRACE_LIMITS } from '../../pipeline/trace-recorder.ts';
import type { WorkspaceModel, EntryInit } from '../../engine/workspace-model.ts';

/** A tab that cannot keep up is disconnected (it reconnects and gets a fresh snapshot) rather than growing our memory without bound. */
const MAX_BUFFERED_BYTES = 512 * 1024 * 1024;

export type HubDefaults = Omit<EngineOptions, 'traceLimits' | 'policy'>;

/**
 * The WebSocket gateway (issue 10): the page's face on the engine. It parses and dispatches what
 * tabs send, batches trace events per tab, applies back-pressure and sends snapshots; the sessions
 * themselves are the engine's. The session methods below are the engine's, for the launch and the
 * tests; the message handlers take the narrower HubContext, which the hub implements.
 */
export class Hub implements HubContext {
  readonly engine: Engine;
  private readonly feed: TabFeed;

  constructor(traceLimits: TraceLimits = DEFAULT_TRACE_LIMITS, defaults: HubDefaults = {}, engine?: Engine) {
    this.engine = engine ?? new Engine({ ...defaults, traceLimits });
    this.feed = new TabFeed({
      sendText: (ws, text) => this.sendText(ws, text),
      sendBinary: (ws, bytes) => this.sendBinary(ws, bytes),
      stats: (id) => this.engine.session(id)?.trace.stats(),
      events: (id) => this.engine.session(id)?.trace.all(),
      sessionIds: () => this.engine.sessionList().map((s) => s.id),
    });
    this.engine.on((event) => this.onEngineEvent(event));
  }

  private onEngineEvent(event: EngineEvent): void {
    switch (event.type) {
      case 'trace':
        return this.feed.queue(event.event);
      case 'session':
        return this.broadcastNow({ type: 'session', session: event.session });
      case 'session-created':
        return this.feed.sessionCreated(event.id);
      case 'session-removed':
        this.feed.sessionRemoved(event.id);
        return this.broadcast({ type: 'session-removed', session: event.id });
      case 'server-request':
        return this.broadcastNow({ type: 'server-request', request: event.request });
      case 'server-request-done':
        return this.broadcastNow({ type: 'server-request-done', session: event.session, requestId: event.requestId, how: event.how });
      case 'workspace':
        return this.broadcastWorkspace();
      case 'surface-point':
        return this.broadcastNow({ type: 'surface-point', session: event.session, point: event.point });
      case 'rules':
      case 'hold':
      case 'hold-done':
        // After the trace events queued so far: a held frame's row comes before its card.
        return this.broadcastNow(interceptBroadcast(event));
    }
  }

  get model(): WorkspaceModel {
    return this.engine.model;
  }

  get cwd(): string {
    return this.engine.cwd;
  }

  get primary(): string | undefined {
    return this.engine.primary;
  }

  set primary(id: string | undefined) {
    this.engine.primary = id;
  }

  createSession(config: ServerConfig, init: Omit<EntryInit, 'config'> = {}): Session {
    return this.engine.createSession(config, init);
  }

  session(id: string): Session | undefined {
    return this.engine.session(id);
  }

  sessionList(): Session[] {
    return this.engine.sessionList();
  }

  openWorkspace(workspace: Workspace, file?: { path: string; text: string }, start?: readonly string[]): Session[] {
    return this.engine.openWorkspace(workspace, file, start);
  }

  start(session: Session, options: ClientSideOptions = {}): Promise<void> {
    return this.engine.start(session, options);
  }

  removeSession(id: string): Promise<void> {
    return this.engine.removeSession(id);
  }

  broadcastWorkspace(): void {
    this.broadcastNow({ type: 'workspace', workspace: this.engine.workspaceState() });
  }

  subscribe(ws: WebSocket, sessions: string[]): void {
    this.feed.subscribe(ws, sessions);
  }

  /** `joinsFrames`: the page asked for responses that refer to their trace frame (`/ws?frames=seq`). */
  attach(ws: WebSocket, joinsFrames = false): void {
    // What is queued is in the snapshot: it goes to the other tabs before this one joins them (else
    // this tab would get those events twice, in an `events` message and in its snapshot).
    this.flush();
    this.feed.add(ws, joinsFrames);
    this.sendTo(ws, this.snapshot());
    // The guided OAuth flows in progress (issue 11): a reload or a new tab finds their cards.
    for (const flow of guidedFlows(this)) this.sendTo(ws, { type: 'oauth-guided-state', flow });
    ws.on('message', (data, isBinary) => this.onSocketMessage(ws, data, isBinary));
    ws.on('close', () => this.feed.delete(ws));
    ws.on('error', () => this.feed.delete(ws));
  }

  /**
   * Stops every session in whatever state (connecting, connected, disconnecting) and so every
   * process group Loupe started (SIGKILL after the grace; stdio-transport.ts), in parallel.
   */
  async shutdown(): Promise<void> {
    await closeApps(this);
    await this.engine.shutdown();
    this.flush();
    for (const ws of this.feed.tabList()) ws.close(1001, 'Loupe is shutting down');
  }

  private snapshot(): ServerMessage {
    const sessions = this.engine.sessionList();
    return {
      type: 'snapshot',
      version: WIRE_VERSION,
      sessions: sessions.map((s) => s.snapshot()),
      // A tail only: the whole trace of a session comes when the tab subscribes to it (trace-reset).
      events: sessions.flatMap((s) => s.trace.tail(SNAPSHOT_TAIL_EVENTS)),
      stats: sessions.map((s) => s.trace.stats()),
      primary: this.primary,
      serverRequests: this.engine.broker.list(),
      workspace: this.engine.workspaceState(),
      ...interceptSnapshot(this),
      ...playgroundSnapshot(this),
      surfaces: this.engine.surfaces.all(),
    };
  }

  /** Nothing a page sends may take the proxy down: every failure becomes an `error` (or a failed `response`) to that tab. */
  private onSocketMessage(ws: WebSocket, data: RawData, isBinary: boolean): void {
    try {
      if (isBinary) return this.sendError(ws, { code: 'BAD_MESSAGE', message: 'Binary messages are not part of the protocol.' });
      const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
      // While the schemas load, what comes after waits behind them: the page's envelopes are read in the order sent.
      if (this.schemasLoading) this.afterSchemas(ws, this.schemasLoading, () => this.receive(ws, text));
      else this.receive(ws, text);
    } catch (error) {
      this.sendError(ws, internalError(error));
    }
  }

  /**
   * The zod schemas of every envelope (lib/wire/wire.ts), loaded on the first one that
   * quick-read.ts leaves to them: a page that only subscribes, lists and calls never needs them.
   */
  private schemas?: typeof import('../../../lib/wire/wire.ts');
  private schemasLoading?: Promise<unknown>;

  /** Whether the full schemas are loaded (for the tests: an idle page must not load them). */
  get schemasLoaded(): boolean {
    return this.schemas !== undefined;
  }

  /** Runs `step` once `loading` settles, after every step queued before it; the queue ends with its last step. */
  private afterSchemas(ws: WebSocket, loading: Promise<unknown>, step: () => void): void {
    const next = loading.then(step).catch((error: unknown) => this.sendError(ws, internalError(error)));
    this.schemasLoading = next;
    void next.then(() => {
      if (this.schemasLoading === next) this.schemasLoading = undefined;
    });
  }

  /** Reads one envelope and starts acting on it; a failure of the act goes to this tab. */
  private receive(ws: WebSocket, text: string): void {
    const read = readClientText(text);
    if (read.ok === 'schemas' && !this.schemas) {
      const load = import('../../../lib/wire/wire.ts').then((wire) => {
        this.schemas = wire;
      });
      return this.afterSchemas(ws, load, () => this.receive(ws, text));
    }
    const parsed = read.ok === 'schemas' ? this.schemas!.parseClientData(read.data) : read;
    if (!parsed.ok) return this.sendError(ws, { code: 'BAD_MESSAGE', message: `Could not read a message from the page: ${parsed.error.slice(0, 500)}` });
    void this.act(ws, parsed.message as ClientMessage);
  }

  private async act(ws: WebSocket, message: ClientMessage): Promise<void> {
    try {
      await this.dispatch(ws, message);
    } catch (error) {
      // A request's caller waits for its id: it gets the failure as its response.
      if (message.type === 'request' || message.type === 'send-raw') {
        this.sendTo(ws, { type: 'response', id: message.id, session: message.session, ok: false, error: internalError(error), durationMs: 0 });
      } else this.sendError(ws, internalError(error));
    }
  }

  private async dispatch(ws: WebSocket, message: ClientMessage): Promise<void> {
    // The commonest envelope by far (every call the page makes) goes first.
    if (message.type === 'request') return this.withSession(ws, message.session, (s) => relayRequest(this, ws, s, message));
    if (isWorkspaceMessage(message)) return dispatchWorkspace(this, ws, message);
    if (isOAuthMessage(message)) return dispatchOAuth(this, ws, message);
    if (isInterceptMessage(message)) return dispatchIntercept(this, ws, message);
    if (isPlaygroundMessage(message)) return dispatchPlayground(this, ws, message);
    if (isAppsMessage(message)) return dispatchApps(this, ws, message);
    switch (message.type) {
      case 'connect': {
        // The config comes back as the page was shown it: secrets as references (kept values).
        const existing = message.session ? this.engine.session(message.session) : undefined;
        if (existing) this.model.update(existing.id, { config: message.config });
        const session = existing ?? this.createSession(message.config);
        const { clientCapabilities, roots, serverRequestTimeoutMs, connectTimeoutMs } = message;
        if (clientCapabilities) this.model.update(session.id, { config: this.model.entry(session.id)!.config, clientCapabilities });
        return this.start(session, { clientCapabilities, roots, serverRequestTimeoutMs, connectTimeoutMs });
      }
      case 'disconnect':
        return this.withSession(ws, message.session, (s) => s.disconnect());
      case 'cancel':
        return this.withSession(ws, message.session, (s) => void s.cancel(message.id));
      case 'set-roots':
        return this.withSession(ws, message.session, (s) => s.setRoots(message.roots));
      case 'respond':
        if (!this.engine.broker.respond(message.session, message.requestId, message.outcome)) {
          this.sendError(ws, {
            code: 'NOT_PENDING',
            message: 'That server request is no longer pending (answered elsewhere, timed out, or its session closed).',
            detail: { requestId: message.requestId },
          });
        }
        return;
      case 'send-raw':
        return this.withSession(ws, message.session, (s) => relayRawMessage(this, ws, s, message));
      case 'listen':
        return this.withSession(ws, message.session, async (s) => {
          const error = await s.listen(message.filter);
          if (error) this.sendError(ws, error);
        });
      case 'unlisten':
        return this.withSession(ws, message.session, (s) => s.unlisten());
      case 'set-log-level':
        return this.withSession(ws, message.session, (s) => s.setLogLevel(message.level));
      case 'run-doctor':
        return this.withSession(ws, message.session, async (s) => {
          // Loaded on first use: the rules (Ajv strict instances, provider data) are for the Doctor tab only.
          const { examinePinned } = await import('../../engine/doctor.ts');
          if (s.status !== 'connected') return this.sendTo(ws, { type: 'doctor-report', requestId: message.requestId, session: s.id, error: { code: 'NOT_CONNECTED', message: 'The doctor needs a connected server: connect it, then run the doctor again.' } });
          // Hash pinning (the engine's): compared with the tools as the doctor saw them last, then those are kept.
          const report = await examinePinned(s, this.model);
          this.sendTo(ws, { type: 'doctor-report', requestId: message.requestId, session: s.id, report });
        });
    }
  }

  async withSession(ws: WebSocket, id: string, act: (s: Session) => void | Promise<void>): Promise<void> {
    const session = this.engine.session(id);
    if (!session) return this.sendError(ws, { code: 'NO_SESSION', message: `No session ${id}.` });
    await act(session);
  }

  private flush(): void {
    this.feed.flush();
  }

  sendJoined(ws: WebSocket, session: string, response: ServerMessage & { type: 'response' }): boolean {
    if (!this.feed.joinsFramesOf(ws, session)) return false;
    this.feed.flush({ ws, text: serialise(response) });
    return true;
  }

  /** For messages that must not overtake the trace events already queued. */
  broadcastNow(message: ServerMessage): void {
    this.flush();
    this.broadcast(message);
  }

  broadcast(message: ServerMessage): void {
    if (this.feed.size === 0) return;
    const text = serialise(message);
    for (const ws of this.feed.tabList()) this.sendText(ws, text);
  }

  sendTo(ws: WebSocket, message: ServerMessage): void {
    this.sendText(ws, serialise(message));
  }

  sendText(ws: WebSocket, text: string): void {
    this.deliver(ws, text);
  }

  /** A frame's text apart from its `events` message (subscriptions.ts, RAW_APART_CHARS): a binary message. */
  sendBinary(ws: WebSocket, bytes: Buffer): void {
    this.deliver(ws, bytes);
  }

  private deliver(ws: WebSocket, data: string | Buffer): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'The page fell too far behind; reload to resume');
      return;
    }
    try {
      ws.send(data);
    } catch {
      // The socket went away between the check and the send: its 'close' handler removes it.
    }
  }

  sendError(ws: WebSocket, error: LoupeError): void {
    this.sendTo(ws, { type: 'error', error });
  }
}
