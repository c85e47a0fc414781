/**
 * The engine (issue 10, docs/architecture.md "One engine, several faces"): the sessions of the
 * workspace, the broker for the server's requests, recording, shutdown, and one typed event
 * source. It knows nothing of WebSockets, HTTP servers or terminals: the WebSocket gateway the
 * page uses (hub.ts) and the headless modes (face-session.ts, cli-run.ts) are faces on top of it.
 * Request timing and progress live in the session (session.ts), so every face gets the same outcomes.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { ServerRequest, SessionInfo, TraceEvent, WorkspaceState } from '../../lib/wire/wire.ts';
import type { Workspace } from '../../lib/workspace/types.ts';
import { OAuthCallbacks } from '../oauth/callback.ts';
import type { OAuthOptions } from '../oauth/provider/provider.ts';
import type { OAuthContext } from '../session/oauth.ts';
import { HEADLESS_REDIRECT_URL } from '../oauth/callback.ts';
import { recordingPath, startRecording, type Recording } from './record.ts';
import { ServerRequestBroker, type DoneHow, type ServerRequestOutcome } from '../session/server-requests.ts';
import { Session, type ClientSideOptions } from '../session/session.ts';
import { attachSpecValidator } from '../pipeline/spec-validator.ts';
import { DEFAULT_TRACE_LIMITS, TraceRecorder, type TraceLimits } from '../pipeline/trace-recorder.ts';
import { hashText } from './workspace-file.ts';
import { WorkspaceModel, type EntryInit } from './workspace-model.ts';
import type { HeldFrame, HoldEnd, Rule } from '../../lib/model/rules.ts';
import { HoldBroker } from '../pipeline/hold-broker.ts';
import { observeRelay } from './relay-observer.ts';
import { EndedRelays } from './ended-relays.ts';
import { captureSurface, SurfaceHistory } from './surface.ts';
import type { SurfacePoint } from '../../lib/wire/surface.ts';
import type { PipelineContext, RuleSet } from '../pipeline/context.ts';

export type EngineEvent =
  | { type: 'trace'; event: TraceEvent }
  | { type: 'session'; session: SessionInfo }
  | { type: 'session-created'; id: string }
  | { type: 'session-removed'; id: string }
  | { type: 'server-request'; request: ServerRequest }
  | { type: 'server-request-done'; session: string; requestId: string; how: DoneHow }
  /** The workspace model changed in a way every face should show (a server enabled, waiting, removed, loaded). */
  | { type: 'workspace' }
  /** Interception (issue 13): the rules in force changed; a frame is held; a hold ended. */
  | { type: 'rules'; rules: Rule[]; source?: string }
  | { type: 'hold'; frame: HeldFrame }
  | { type: 'hold-done'; session: string; holdId: string; how: HoldEnd }
  /** A server connected (first, again, after a restart) and its surface was listed (issue 25). */
  | { type: 'surface-point'; session: string; point: SurfacePoint };

/**
 * How a face without a user answers the server's requests (sampling, elicitation). Without one,
 * they wait in the broker for a person (the page), or their timeout.
 */
export type ServerRequestPolicy = (request: ServerRequest) => ServerRequestOutcome | Promise<ServerRequestOutcome>;

export interface EngineOptions {
  traceLimits?: TraceLimits;
  /** The `--connect-timeout` of the launch, for every session (a connect may override it). */
  connectTimeoutMs?: number;
  /** Loupe's own environment, for `${env:X}` (default process.env). */
  env?: Record<string, string | undefined>;
  /** The folder Loupe was started in: relative save paths and project config files are found from it. */
  cwd?: string;
  /**
   * `--record FILE`: every session's trace is written there as it happens; with `perSession` (a
   * workspace of several servers) each to FILE with the server's name before `.jsonl`.
   */
  record?: { path: string; perSession: boolean };
  policy?: ServerRequestPolicy;
  /** No page to sign in from: OAuth follows the authorization server's redirect (issue 11). */
  headless?: boolean;
  /** The command line's OAuth options, for every session (the page may change a session's). */
  oauth?: OAuthOptions;
  /** `--remember-credentials`: tokens and registered clients kept across launches (oauth-store.ts). */
  rememberCredentials?: boolean;
  /** `--rules FILE` (issue 13): the interception rules from the start, and the file's name for the page. */
  rules?: { rules: Rule[]; source: string };
  /** How many ended watched sessions (gateway, tap) are kept with their traces (default 20; ended-relays.ts). */
  endedRelaysKept?: number;
}

/** A session Loupe watches rather than makes (issue 13): a tapped host session or a gateway client's. */
export interface RelayInit {
  kind: 'tap' | 'gateway';
  /** What the relay runs or reaches (the tap's command, the gateway's target). */
  config: ServerConfig;
  label?: string;
  pid?: number;
  transport: 'stdio' | 'http';
  /** Ends the watching: a tap detaches (the host goes on), a gateway closes that client's session. */
  stop(): Promise<void>;
}

export class Engine {
  private readonly sessions = new Map<string, Session>();
  private readonly unsubscribe = new Map<string, () => void>();
  private readonly specValidators = new Map<string, () => void>();
  private readonly recordings = new Map<string, Recording>();
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  private readonly endedRelays: EndedRelays;
  private nextId = 1;
  primary?: string;
  readonly model: WorkspaceModel;
  readonly cwd: string;
  readonly broker: ServerRequestBroker;
  /** Sign-ins waiting for the authorization server's redirect to Loupe's `/oauth/callback` (issue 11). */
  readonly callbacks = new OAuthCallbacks();
  /**
   * Where authorization servers send the user back: `http://127.0.0.1:PORT/oauth/callback` once the
   * UI listens (launch.ts sets it). Headless, nothing listens there: the redirect is followed and
   * read without a browser (oauth-headless.ts).
   */
  redirectUrl = HEADLESS_REDIRECT_URL;
  private readonly traceLimits: TraceLimits;
  /** Frames held by `pause` rules, of every session (issue 13). */
  readonly holds: HoldBroker;
  private ruleSet: RuleSet = { version: 0, rules: [] };
  /** Set by tracing (proxy/otel/, issue 28): a request Loupe sends gets its `traceparent` here. */
  stampRequest?: (session: string, message: JSONRPCMessage) => JSONRPCMessage;
  private rulesSource?: string;

  constructor(private readonly options: EngineOptions = {}) {
    this.holds = new HoldBroker({
      added: (frame) => this.emit({ type: 'hold', frame }),
      done: (session, holdId, how) => this.emit({ type: 'hold-done', session, holdId, how }),
    });
    if (options.rules) {
      this.ruleSet = { version: 1, rules: options.rules.rules };
      this.rulesSource = options.rules.source;
    }
    this.traceLimits = options.traceLimits ?? DEFAULT_TRACE_LIMITS;
    this.endedRelays = new EndedRelays(options.endedRelaysKept);
    this.model = new WorkspaceModel(options.env ?? process.env);
    this.model.rules = [...this.ruleSet.rules];
    this.cwd = options.cwd ?? process.cwd();
    const policy = options.policy;
    this.broker = new ServerRequestBroker({
      added: (request) => {
        this.emit({ type: 'server-request', request });
        if (policy) this.answerByPolicy(policy, request);
      },
      done: (session, requestId, how) => this.emit({ type: 'server-request-done', session, requestId, how }),
    });
  }

  /** Called for every event from now on; returns the unsubscribe function. */
  on(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private answerByPolicy(policy: ServerRequestPolicy, request: ServerRequest): void {
    void Promise.resolve()
      .then(() => policy(request))
      .catch((error: unknown): ServerRequestOutcome => ({ ok: false, error: { code: -32603, message: error instanceof Error ? error.message : String(error) } }))
      .then((outcome) => this.broker.respond(request.session, request.requestId, outcome));
  }

  /** The interception rules in force (issue 13), for every session. */
  get rules(): Rule[] {
    return [...this.ruleSet.rules];
  }

  get rulesOrigin(): string | undefined {
    return this.rulesSource;
  }

  /** Replaces the rules (the page, a workspace file): every pipeline picks them up at its next frame. */
  setRules(rules: Rule[], source?: string): void {
    this.ruleSet = { version: this.ruleSet.version + 1, rules };
    this.rulesSource = source;
    this.model.rules = rules;
    this.emit({ type: 'rules', rules: [...rules], source });
  }

  /** What a session's frame pipeline reads: its trace, the rules in force, the hold broker. */
  pipelineContext(session: { id: string; trace: TraceRecorder }): PipelineContext {
    return {
      session: session.id,
      server: () => this.model.entry(session.id)?.name ?? session.id,
      trace: session.trace,
      rules: () => this.ruleSet,
      hold: (request) => this.holds.hold(request),
      stamp: (message) => (this.stampRequest ? this.stampRequest(session.id, message) : message),
    };
  }

  /**
   * A session Loupe watches (issue 13: `--tap --attach`, the gateway): in the Servers panel like
   * any other, connected at once, its trace fed by the relay. Removing it ends the watching.
   */
  openRelay(init: RelayInit): Session {
    const session = this.createSession(init.config, { name: init.label ?? init.config.name, relay: true });
    session.adoptRelay({ kind: init.kind, label: init.label, pid: init.pid }, init.transport, init.stop);
    const unobserve = observeRelay(session, session.trace, (label) => this.renameRelay(session, label));
    const unsubscribe = this.unsubscribe.get(session.id);
    this.unsubscribe.set(session.id, () => (unobserve(), unsubscribe?.()));
    this.emit({ type: 'workspace' });
    return session;
  }

  /** A watched session is named by its host once the host says who it is (`claude-ai 0.1.0`). */
  private renameRelay(session: Session, label: string): void {
    const entry = this.model.entry(session.id);
    if (!entry) return;
    this.model.update(session.id, { config: { ...entry.config, name: label } });
    session.setView(this.model.view(session.id)!);
    session.announce();
    this.emit({ type: 'workspace' });
  }

  /** A session for a server (not connected yet, not announced: the caller connects or announces it). */
  createSession(config: ServerConfig, init: Omit<EntryInit, 'config'> = {}): Session {
    const id = `s${this.nextId++}`;
    const trace = new TraceRecorder(id, this.traceLimits);
    this.unsubscribe.set(id, trace.subscribe((event) => this.emit({ type: 'trace', event })));
    const oauth: OAuthContext = { redirectUrl: () => this.redirectUrl, callbacks: this.callbacks, headless: this.options.headless === true, defaults: this.options.oauth, remember: this.options.rememberCredentials };
    const session = new Session(id, config, trace, (info) => this.onSessionChange(info), this.broker, this.options.connectTimeoutMs, oauth);
    session.pipeline = this.pipelineContext(session);
    this.sessions.set(id, session);
    // Every frame checked against its version's schema, off the hot path (issue 14).
    this.specValidators.set(id, attachSpecValidator(trace, () => session.era, () => session.protocolVersion));
    this.model.add(id, { ...init, config });
    session.setView(this.model.view(id)!);
    this.emit({ type: 'session-created', id });
    if (this.options.record) this.recordSession(session, this.options.record);
    return session;
  }

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

  /** The workspace as the faces show it, with how many ended watched sessions were forgotten. */
  workspaceState(): WorkspaceState {
    const state = this.model.state();
    const pruned = this.endedRelays.pruned;
    return pruned > 0 ? { ...state, prunedSessions: pruned } : state;
  }

  sessionList(): Session[] {
    return [...this.sessions.values()];
  }

  /**
   * A session per server of the file (`--config`), in its order; every one not disabled connects at
   * once, in parallel, and one that fails stops none of the others. `primary` is the first.
   */
  openWorkspace(workspace: Workspace, file?: { path: string; text: string }, start?: readonly string[]): Session[] {
    this.model.load(workspace, file?.path, file ? hashText(file.text) : undefined);
    // The file's rules, unless `--rules` gave the launch its own.
    if (workspace.rules && !this.options.rules) this.setRules(workspace.rules, file?.path);
    const created = workspace.servers.map((server) =>
      this.createSession(server.config, {
        name: server.name,
        disabled: server.disabled,
        secretEnv: server.secretEnv,
        secretHeaders: server.secretHeaders,
        clientCapabilities: server.extras.clientCapabilities,
        savedCalls: server.extras.savedCalls,
        toolPins: server.extras.toolPins,
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
    this.emit({ type: 'workspace' });
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
    if (this.model.enable(session.id)) this.emit({ type: 'workspace' });
    session.trace.secretValues = this.model.secretValuesOf(session.id);
    session.setView(this.model.view(session.id, resolved.missing)!);
    if (resolved.missing.length > 0) {
      session.announce();
      this.emit({ type: 'workspace' });
      return;
    }
    const clientCapabilities = options.clientCapabilities ?? this.model.entry(session.id)?.clientCapabilities;
    await session.connect(resolved.config, { ...options, clientCapabilities });
  }

  private async takeSurface(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    const point = await captureSurface(session, session.connectReason).catch(() => undefined);
    if (!point || !this.sessions.has(id)) return;
    this.surfaces.add(id, point);
    this.emit({ type: 'surface-point', session: id, point });
  }

  /** Forgets a session: every face hears `session-removed` at once; its process is stopped after. */
  async removeSession(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.endedRelays.forget(id);
    this.unsubscribe.get(id)?.();
    this.unsubscribe.delete(id);
    this.specValidators.get(id)?.();
    this.specValidators.delete(id);
    this.model.remove(id);
    this.surfaces.forget(id);
    this.tracked.delete(id);
    this.lastStatus.delete(id);
    this.holds.dropSession(id);
    if (this.primary === id) this.primary = this.sessions.keys().next().value;
    this.emit({ type: 'session-removed', id });
    this.emit({ type: 'workspace' });
    await session.shutdown();
    this.recordings.get(id)?.close();
    this.recordings.delete(id);
  }

  /**
   * Stops every session in whatever state (connecting, connected, disconnecting) and so every
   * process group Loupe started (SIGKILL after the grace; stdio-transport.ts), in parallel.
   */
  async shutdown(): Promise<void> {
    this.callbacks.cancelAll('Loupe is shutting down.');
    await Promise.allSettled([...this.sessions.values()].map((s) => s.shutdown()));
    for (const recording of this.recordings.values()) recording.close();
    this.recordings.clear();
  }

  /** Each session's surface each time it connected (issue 25), for the sessions tracked. */
  readonly surfaces = new SurfaceHistory();
  /**
   * The sessions whose surface is listed at each connect: a watched one from the start, any other
   * from its first restart. Not every session: listing costs requests the user did not make.
   */
  private readonly tracked = new Set<string>();
  private readonly lastStatus = new Map<string, SessionInfo['status']>();

  /** Lists this session's surface at each connect from now on (`--watch`). */
  track(session: Session): void {
    this.tracked.add(session.id);
    if (session.status === 'connected' && this.surfaces.of(session.id).length === 0) void this.takeSurface(session.id);
  }

  /**
   * Restarts a session's server (`--watch` saw its files change, or Restart in the page): the
   * trace marks it, requests in flight fail saying so, the server starts again with the same client
   * settings, and its surface is listed again so the page can say what changed (the first time, the
   * running server's is listed first).
   */
  async restart(session: Session, reason: string): Promise<void> {
    if (!this.tracked.has(session.id)) {
      this.tracked.add(session.id);
      if (session.status === 'connected' && this.surfaces.of(session.id).length === 0) await this.takeSurface(session.id);
    }
    session.restarting = reason;
    await this.start(session);
  }

  private onSessionChange(info: SessionInfo): void {
    // A removed session still stopping says nothing more (the faces have forgotten it).
    if (!this.sessions.has(info.id)) return;
    const was = this.lastStatus.get(info.id);
    this.lastStatus.set(info.id, info.status);
    this.emit({ type: 'session', session: info });
    if (info.status === 'connected' && was !== 'connected' && this.tracked.has(info.id)) void this.takeSurface(info.id);
    // Forgotten as the page's Remove forgets: every face hears `session-removed`, then the workspace with the count.
    for (const id of this.endedRelays.changed(info)) void this.removeSession(id);
  }
}
