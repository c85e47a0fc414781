/**
 * The session registry and the proxy side of the wire protocol (lib/wire.ts): one session per
 * server of the workspace (issue 9), each tab subscribed to the sessions it shows
 * (hub-subscriptions.ts, which also batches trace events: a flood costs one message per window).
 * The workspace messages (add/update/remove servers, save, inputs) are in hub-workspace.ts.
 */
import type { RawData, WebSocket } from 'ws';
import type { ServerConfig } from '../lib/server-config-types.ts';
import { parseClientMessage, SNAPSHOT_TAIL_EVENTS, WIRE_VERSION, type ClientMessage, type LoupeError, type ServerMessage, type SessionInfo } from '../lib/wire.ts';
import type { Workspace } from '../lib/workspace.ts';
import { internalError, serialise } from './hub-messages.ts';
import { relayRawMessage, relayRequest } from './hub-requests.ts';
import { TabFeed } from './hub-subscriptions.ts';
import { dispatchWorkspace, isWorkspaceMessage } from './hub-workspace.ts';
import { ServerRequestBroker } from './server-requests.ts';
import { Session, type ClientSideOptions } from './session.ts';
import { TraceRecorder, type TraceLimits, DEFAULT_TRACE_LIMITS } from './trace-recorder.ts';
import { recordingPath, startRecording, type Recording } from './record.ts';
import { hashText } from './workspace-file.ts';
import { WorkspaceModel, type EntryInit } from './workspace-model.ts';

/** A tab that cannot keep up is disconnected (it reconnects and gets a fresh snapshot) rather than growing our memory without bound. */
const MAX_BUFFERED_BYTES = 512 * 1024 * 1024;

export interface HubDefaults {
  /** The `--connect-timeout` of the launch, for every session (the page's connect may override it). */
  connectTimeoutMs?: number;
  /** Loupe's own environment, for `${env:X}` (default process.env). */
  env?: Record<string, string | undefined>;
  /** The folder Loupe was started in: relative save paths and project config files are found from it. */
  cwd?: string;
  /**
   * `--record FILE` (issue 10): every session's trace is written there as it happens; with
   * `perSession` (a workspace of several servers) each to FILE with the server's name before `.jsonl`.
   */
  record?: { path: string; perSession: boolean };
}

export class Hub {
  private readonly sessions = new Map<string, Session>();
  private readonly unsubscribe = new Map<string, () => void>();
  private readonly feed: TabFeed;
  private nextId = 1;
  primary?: string;
  readonly model: WorkspaceModel;
  readonly cwd: string;
  private readonly broker = new ServerRequestBroker({
    added: (request) => this.broadcastNow({ type: 'server-request', request }),
    done: (session, requestId, how) => this.broadcastNow({ type: 'server-request-done', session, requestId, how }),
  });

  constructor(
    private readonly traceLimits: TraceLimits = DEFAULT_TRACE_LIMITS,
    private readonly defaults: HubDefaults = {},
  ) {
    this.model = new WorkspaceModel(defaults.env ?? process.env);
    this.cwd = defaults.cwd ?? process.cwd();
    this.feed = new TabFeed({
      sendText: (ws, text) => this.sendText(ws, text),
      stats: (id) => this.sessions.get(id)?.trace.stats(),
      events: (id) => this.sessions.get(id)?.trace.all(),
      sessionIds: () => [...this.sessions.keys()],
    });
  }

  /** A session for a server (not connected yet, not announced: the caller connects or announces it). */
  createSession(config: ServerConfig, init: Omit<EntryInit, 'config'> = {}): Session {
    const id = `s${this.nextId++}`;
    const trace = new TraceRecorder(id, this.traceLimits);
    this.unsubscribe.set(id, trace.subscribe((event) => this.feed.queue(event)));
    const session = new Session(id, config, trace, (info) => this.onSessionChange(info), this.broker, this.defaults.connectTimeoutMs);
    this.sessions.set(id, session);
    this.model.add(id, { ...init, config });
    session.setView(this.model.view(id)!);
    this.feed.sessionCreated(id);
    if (this.defaults.record) this.recordSession(session, this.defaults.record);
    return session;
  }

  private readonly recordings = new Map<string, Recording>();

  private recordSession(session: Session, record: { path: string; perSession: boolean }): void {
    const entry = this.model.entry(session.id)!;
    // A server added in the page later gets a file of its own, beside the first.
    const path = record.perSession || this.recordings.size > 0 ? recordingPath(record.path, entry.name) : record.path;
    try {
      this.recordings.set(session.id, startRecording(path, session.trace, session.snapshot(), { env: entry.secretEnv, headers: entry.secretHeaders }));
    } catch (error) {
      session.trace.record({ kind: 'transport', level: 'error', message: `Cannot write the recording ${path}: ${(error as Error).message}` });
    }
  }

  session(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  sessionList(): Session[] {
    return [...this.sessions.values()];
  }

  /**
   * A session per server of the file (`--config`), in its order; every one not disabled connects at
   * once, in parallel, and one that fails stops none of the others. `hub.primary` is the first.
   */
  openWorkspace(workspace: Workspace, file?: { path: string; text: string }, start?: readonly string[]): Session[] {
    this.model.load(workspace, file?.path, file ? hashText(file.text) : undefined);
    const created = workspace.servers.map((server) =>
      this.createSession(server.config, {
        name: server.name,
        disabled: server.disabled,
        secretEnv: server.secretEnv,
        secretHeaders: server.secretHeaders,
        clientCapabilities: server.extras.clientCapabilities,
        savedCalls: server.extras.savedCalls,
        other: server.other,
      }),
    );
    const starting = created.filter((s) => {
      const entry = this.model.entry(s.id);
      return entry !== undefined && (start ? start.includes(entry.name) : !entry.disabled);
    });
    this.primary ??= (starting[0] ?? created[0])?.id;
    for (const session of created) {
      if (starting.includes(session)) void this.start(session);
      else session.announce();
    }
    this.broadcastWorkspace();
    return created;
  }

  /**
   * Connects a session with its config as written, references resolved (`${env:X}` from Loupe's
   * environment, `${input:X}` from what the page provided). A server missing an input waits,
   * disconnected, with a note, until `provide-inputs`. Never throws: failure is a status.
   */
  async start(session: Session, options: ClientSideOptions = {}): Promise<void> {
    const resolved = this.model.resolve(session.id);
    if (!resolved) return;
    // Starting a server is enabling it: a later save writes it without `"disabled": true`.
    if (this.model.enable(session.id)) this.broadcastWorkspace();
    session.trace.secretValues = this.model.secretValuesOf(session.id);
    session.setView(this.model.view(session.id, resolved.missing)!);
    if (resolved.missing.length > 0) {
      session.announce();
      this.broadcastWorkspace();
      return;
    }
    const clientCapabilities = options.clientCapabilities ?? this.model.entry(session.id)?.clientCapabilities;
    await session.connect(resolved.config, { ...options, clientCapabilities });
  }

  /** Forgets a session: every tab hears `session-removed` at once; its process is stopped after. */
  async removeSession(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.feed.sessionRemoved(id);
    this.sessions.delete(id);
    this.unsubscribe.get(id)?.();
    this.unsubscribe.delete(id);
    this.model.remove(id);
    if (this.primary === id) this.primary = this.sessions.keys().next().value;
    this.broadcast({ type: 'session-removed', session: id });
    this.broadcastWorkspace();
    await session.shutdown();
    this.recordings.get(id)?.close();
    this.recordings.delete(id);
  }

  broadcastWorkspace(): void {
    this.broadcastNow({ type: 'workspace', workspace: this.model.state() });
  }

  subscribe(ws: WebSocket, sessions: string[]): void {
    this.feed.subscribe(ws, sessions);
  }

  attach(ws: WebSocket): void {
    // What is queued is in the snapshot: it goes to the other tabs before this one joins them (else
    // this tab would get those events twice, in an `events` message and in its snapshot).
    this.flush();
    this.feed.add(ws);
    this.sendTo(ws, this.snapshot());
    ws.on('message', (data, isBinary) => this.onSocketMessage(ws, data, isBinary));
    ws.on('close', () => this.feed.delete(ws));
    ws.on('error', () => this.feed.delete(ws));
  }

  /**
   * Stops every session in whatever state (connecting, connected, disconnecting) and so every
   * process group Loupe started (SIGKILL after the grace; stdio-transport.ts), in parallel.
   */
  async shutdown(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((s) => s.shutdown()));
    for (const recording of this.recordings.values()) recording.close();
    this.flush();
    for (const ws of this.feed.tabList()) ws.close(1001, 'Loupe is shutting down');
  }

  private snapshot(): ServerMessage {
    const sessions = [...this.sessions.values()];
    return {
      type: 'snapshot',
      version: WIRE_VERSION,
      sessions: sessions.map((s) => s.snapshot()),
      // A tail only: the whole trace of a session comes when the tab subscribes to it (trace-reset).
      events: sessions.flatMap((s) => s.trace.tail(SNAPSHOT_TAIL_EVENTS)),
      stats: sessions.map((s) => s.trace.stats()),
      primary: this.primary,
      serverRequests: this.broker.list(),
      workspace: this.model.state(),
    };
  }

  /** Nothing a page sends may take the proxy down: every failure becomes an `error` (or a failed `response`) to that tab. */
  private onSocketMessage(ws: WebSocket, data: RawData, isBinary: boolean): void {
    try {
      if (isBinary) return this.sendError(ws, { code: 'BAD_MESSAGE', message: 'Binary messages are not part of the protocol.' });
      this.receive(ws, Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8')).catch((error: unknown) => this.sendError(ws, internalError(error)));
    } catch (error) {
      this.sendError(ws, internalError(error));
    }
  }

  private async receive(ws: WebSocket, text: string): Promise<void> {
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.sendError(ws, { code: 'BAD_MESSAGE', message: `Could not read a message from the page: ${parsed.error.slice(0, 500)}` });
    const message = parsed.message;
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
    if (isWorkspaceMessage(message)) return dispatchWorkspace(this, ws, message);
    switch (message.type) {
      case 'connect': {
        // The config comes back as the page was shown it: secrets as references (kept values).
        const existing = message.session ? this.sessions.get(message.session) : undefined;
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
        if (!this.broker.respond(message.session, message.requestId, message.outcome)) {
          this.sendError(ws, {
            code: 'NOT_PENDING',
            message: 'That server request is no longer pending (answered elsewhere, timed out, or its session closed).',
            detail: { requestId: message.requestId },
          });
        }
        return;
      case 'send-raw':
        return this.withSession(ws, message.session, (s) => relayRawMessage(this, ws, s, message));
      case 'request':
        return this.withSession(ws, message.session, (s) => relayRequest(this, ws, s, message));
    }
  }

  async withSession(ws: WebSocket, id: string, act: (s: Session) => void | Promise<void>): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return this.sendError(ws, { code: 'NO_SESSION', message: `No session ${id}.` });
    await act(session);
  }

  private onSessionChange(info: SessionInfo): void {
    // A removed session still stopping says nothing more (the page has forgotten it).
    if (!this.sessions.has(info.id)) return;
    this.broadcastNow({ type: 'session', session: info });
  }

  private flush(): void {
    this.feed.flush();
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
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'The page fell too far behind; reload to resume');
      return;
    }
    try {
      ws.send(text);
    } catch {
      // The socket went away between the check and the send: its 'close' handler removes it.
    }
  }

  sendError(ws: WebSocket, error: LoupeError): void {
    this.sendTo(ws, { type: 'error', error });
  }
}
