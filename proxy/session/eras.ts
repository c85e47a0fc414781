/**
 * How a session opens a connection in each protocol generation (issue 12), split from session.ts,
 * which keeps the state and the lifecycle. `2025-11-25` (the default) is the `initialize`
 * handshake on the 1.x SDK Client; `Auto` and `2026-07-28` first probe the server with
 * `server/discover` (era-probe.ts), and a 2026 verdict hands the transport to the v2 SDK Client
 * (session-modern.ts, loaded only then) with the page's requests on the 2026 router. A 2025
 * verdict under `Auto` goes on to `initialize`, its reason kept for the page.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilityChoice, LoupeError, Root, SessionInfo } from '../../lib/wire/wire.ts';
import { DEFAULT_PROTOCOL, type HttpConfig, type StdioConfig } from '../../lib/model/server-config.ts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RawRouter } from './raw-router.ts';
import type { RemoteSession } from './remote-connect.ts';
import { createSessionClient, initializedInfo, LEGACY_CHOSEN } from './client.ts';
import { exitError, initError } from './errors.ts';
import type { SessionOAuth } from './oauth.ts';
import { modernCapabilities } from '../../lib/client/capabilities.ts';
import type { Verdict } from './era-probe.ts';
import type { EnvelopeParts } from './modern-envelope.ts';
import { ModernRouter } from './modern-router.ts';
import type { ServerRequestBroker } from './server-requests.ts';
import type { Listener } from './modern.ts';
import { CLIENT_INFO } from './client.ts';
import type { HttpTap } from '../upstream/http/tap.ts';
import { StdioTapTransport, TransportStartError } from '../upstream/stdio/transport.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';
import type { PipelineContext } from '../pipeline/context.ts';
import { httpRuleOptions, stdioRuleOptions, withoutRules, withRules } from '../pipeline/pipeline.ts';

type Opened = { ok: true } | { ok: false; error: LoupeError };

const SUPERSEDED: Opened = { ok: false, error: { code: 'CANCELLED', message: 'Superseded by a newer connect or a disconnect.' } };

/** What of the session the 2026 connect reads and sets. */
export interface EraHost {
  id: string;
  trace: TraceRecorder;
  broker: ServerRequestBroker;
  /** Transports being opened: a disconnect closes them. */
  opening: Set<Transport>;
  isCurrent(generation: number): boolean;
  envelope(): EnvelopeParts;
  roots(): Root[];
  choice(): ClientCapabilityChoice;
  connectTimeoutMs(): number;
  serverRequestTimeoutMs(): number;
  onClosed(client: unknown): void;
  announce(): void;
  info(): Partial<SessionInfo>;
  take(taken: { client: { close(): Promise<void> }; transport: Transport; router: RawRouter; listener?: Listener; tap?: HttpTap }): void;
  setStdio(transport: StdioTapTransport): void;
  oauth?: SessionOAuth;
  /** True once, for the connect that replaces a session the server ended (a second 404 then fails it). */
  takeRenewing(): boolean;
  /** Still this connection, and connected: a stale transport's news is ignored. */
  isLive(generation: number): boolean;
  /** The server ended the session: fail what waits, then connect anew. */
  renew(error: LoupeError): void;
  /** The connection is lost: fail what waits and the session. */
  drop(error: LoupeError): void;
  /** The session's frame pipeline context (issue 13: interception rules), where the engine gave one. */
  pipeline(): PipelineContext | undefined;
}

export class SessionEras {
  constructor(private readonly host: EraHost) {}

  async connectStdio(config: StdioConfig, generation: number): Promise<Opened> {
    let transport = new StdioTapTransport(config, this.host.trace);
    this.host.setStdio(transport);
    const mode = config.protocol ?? DEFAULT_PROTOCOL;
    if (mode !== '2025-11-25') {
      const judged = await this.probeStdio(transport, mode, generation);
      if (judged.kind === 'done') return judged.outcome;
      // A 2025 verdict: the server that died of the probe is started again for initialize.
      if (transport.exit) {
        transport = new StdioTapTransport(config, this.host.trace);
        this.host.setStdio(transport);
      }
    }
    const outcome = await this.initialize(withRules(transport, this.host.pipeline(), stdioRuleOptions(transport)), generation);
    if (outcome.ok) {
      Object.assign(this.host.info(), { transport: 'stdio', protocolVersion: transport.protocolVersion });
      return outcome;
    }
    // Did the child end by itself? (The exit is recorded before the SDK sees the closed pipe.)
    const exit = transport.exit;
    await transport.close();
    if (!exit || (outcome.error.code !== 'INIT_FAILED' && outcome.error.code !== 'TIMEOUT')) return outcome;
    return { ok: false, error: exitError(exit.code, exit.signal, exit.stderrTail, 'before it finished initializing') };
  }

  async connectHttp(config: HttpConfig, generation: number): Promise<Opened> {
    const mode = config.protocol ?? DEFAULT_PROTOCOL;
    if (mode !== '2025-11-25') {
      const outcome = await this.probeHttp(config, mode, generation);
      if (outcome) return outcome;
    }
    // Loaded on first use: the HTTP/SSE transports pull in the SDK's OAuth code and an EventSource,
    // which a stdio-only session (the common case) need not hold in memory.
    const { openHttpTransport, describeHttpFailure } = await import('./remote-connect.ts');
    const remote = this.remoteSession(generation);
    const attempt = await openHttpTransport(config, this.host.trace, (transport) => this.initialize(transport, generation), remote, this.host.oauth, this.host.pipeline());
    if (attempt.ok) {
      Object.assign(this.host.info(), { transport: attempt.transport, protocolVersion: attempt.protocolVersion });
      if (this.legacy) this.host.take({ ...this.legacy, tap: attempt.tap });
      return { ok: true };
    }
    return { ok: false, error: describeHttpFailure(config.url, attempt) };
  }

  /**
   * What a remote session does when the server ends it (404 on `Mcp-Session-Id`) or a response
   * stream drops (issue 8); http-connect.ts decides which, the session acts.
   */
  private remoteSession(generation: number): RemoteSession {
    const host = this.host;
    return { renewed: host.takeRenewing(), isCurrent: () => host.isLive(generation), renew: (error) => host.renew(error), drop: (error) => host.drop(error) };
  }

  /** The 2025 connection being adopted: the session takes it (with its HTTP tap, for a remote one). */
  private legacy?: { client: Client; transport: Transport; router: RawRouter };

  /**
   * Runs `initialize` over a transport with a fresh 1.x Client. The transport is tracked while it
   * initializes (a disconnect closes it); an attempt that a disconnect or reconnect overtook
   * closes what it opened and adopts nothing.
   */
  private async initialize(transport: Transport, generation: number): Promise<Opened> {
    const host = this.host;
    if (!host.isCurrent(generation)) {
      await transport.close();
      return SUPERSEDED;
    }
    host.opening.add(transport);
    const client = createSessionClient({
      session: host.id,
      choice: host.choice(),
      roots: () => host.roots(),
      serverRequestTimeoutMs: () => host.serverRequestTimeoutMs(),
      broker: host.broker,
      onClose: (closed) => host.onClosed(closed),
    });
    const timeoutMs = host.connectTimeoutMs();
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      if (error instanceof TransportStartError) return { ok: false, error: error.loupeError };
      return { ok: false, error: initError(error, timeoutMs) };
    } finally {
      host.opening.delete(transport);
    }
    if (!host.isCurrent(generation)) {
      await client.close();
      return SUPERSEDED;
    }
    const router = new RawRouter(transport, host.trace);
    router.install(client);
    // The session keeps the transport under the rules: its exit and its sign-in are that one's.
    this.legacy = { client, transport: withoutRules(transport), router };
    host.take(this.legacy);
    const info = host.info();
    Object.assign(info, initializedInfo(client), { era: 'legacy' as const });
    info.negotiation ??= LEGACY_CHOSEN;
    return { ok: true };
  }

  /** On the session's own child: the probe, then the v2 Client, or a 2025 verdict (`legacy`). */
  async probeStdio(transport: StdioTapTransport, mode: '2026-07-28' | 'auto', generation: number): Promise<{ kind: 'done'; outcome: Opened } | { kind: 'legacy' }> {
    const modern = await import('./modern.ts');
    this.host.opening.add(transport);
    try {
      await transport.start();
    } catch (error) {
      if (error instanceof TransportStartError) return { kind: 'done', outcome: { ok: false, error: error.loupeError } };
      throw error;
    } finally {
      this.host.opening.delete(transport);
    }
    if (!this.host.isCurrent(generation)) return { kind: 'done', outcome: SUPERSEDED };
    const verdict = await modern.probe(transport, mode, 'stdio', this.host.envelope(), Math.min(modern.STDIO_PROBE_MS, this.host.connectTimeoutMs()), this.host.trace);
    if (!this.host.isCurrent(generation)) return { kind: 'done', outcome: SUPERSEDED };
    if (verdict.era === 'modern') {
      const outcome = await this.adopt(transport, verdict, generation, 'stdio');
      if (!outcome.ok) await transport.close();
      return { kind: 'done', outcome };
    }
    if (mode === '2026-07-28') {
      await transport.close();
      return { kind: 'done', outcome: { ok: false, error: modern.notModernError(verdict) } };
    }
    this.keepReason(verdict);
    return { kind: 'legacy' };
  }

  /** A remote server: the probe on a transport of its own; undefined means "connect as 2025". */
  async probeHttp(config: HttpConfig, mode: '2026-07-28' | 'auto', generation: number): Promise<Opened | undefined> {
    const modern = await import('./modern.ts');
    const { verdict, tap } = await modern.probeHttp(config, mode, this.host.envelope(), this.host.connectTimeoutMs(), this.host.trace);
    if (!this.host.isCurrent(generation)) return SUPERSEDED;
    if (verdict.era === 'modern') return this.adopt(modern.modernHttpTransport(config, tap), verdict, generation, 'http', tap);
    if (mode === '2026-07-28') return { ok: false, error: modern.notModernError(verdict) };
    this.keepReason(verdict);
    return undefined;
  }

  private keepReason(verdict: Verdict): void {
    this.host.info().negotiation = { mode: verdict.mode, era: verdict.era, reason: verdict.reason, probe: verdict.probe, answer: verdict.answer };
  }

  /** The v2 Client takes the discover result as it is; the page's requests go through the 2026 router. */
  private async adopt(plain: Transport, verdict: Verdict, generation: number, kind: 'stdio' | 'http', tap?: HttpTap): Promise<Opened> {
    const modern = await import('./modern.ts');
    const host = this.host;
    // The rules apply from here on: the probe (server/discover) went before them.
    const options = plain instanceof StdioTapTransport ? stdioRuleOptions(plain) : tap ? httpRuleOptions(tap, plain, host.trace) : undefined;
    const transport = withRules(plain, host.pipeline(), options);
    host.opening.add(transport);
    const opened = await modern.adoptModern(transport, verdict, CLIENT_INFO, modernCapabilities(host.choice()), (client) => host.onClosed(client));
    host.opening.delete(transport);
    if (!opened.ok) return opened;
    if (!host.isCurrent(generation)) {
      await opened.value.close();
      return SUPERSEDED;
    }
    const router = new ModernRouter(transport, host.trace, {
      envelope: () => host.envelope(),
      roots: () => host.roots(),
      ask: (method, params, via, signal) => host.broker.ask({ session: host.id, rpcId: via.call, method, params, via }, host.serverRequestTimeoutMs(), signal),
    });
    // Everything to the v2 Client: its subscriptions/listen stream is read through its own notification dispatch.
    router.install();
    host.take({ client: opened.value, transport: plain, router, listener: new modern.Listener(() => host.announce()), tap });
    Object.assign(host.info(), modern.discoveredInfo(verdict), { transport: kind });
    return { ok: true };
  }
}
