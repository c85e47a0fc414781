/**
 * A session's 2026-07-28 connect (issue 12), split from session.ts: `Auto` and `2026-07-28` probe
 * the server with `server/discover` (era-probe.ts), and a 2026 verdict hands the transport to the
 * v2 SDK Client (session-modern.ts, loaded only here) with the page's requests on the 2026 router.
 * A 2025 verdict under `Auto` returns to the session's 2025 connect, its reason kept.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilityChoice, LoupeError, Root, SessionInfo } from '../lib/wire.ts';
import type { HttpConfig } from '../lib/server-config-types.ts';
import { modernCapabilities } from '../lib/client-capabilities.ts';
import type { Verdict } from './era-probe.ts';
import type { EnvelopeParts } from './modern-envelope.ts';
import { ModernRouter } from './modern-router.ts';
import type { RawRouter } from './raw-router.ts';
import type { ServerRequestBroker } from './server-requests.ts';
import type { Listener } from './session-modern.ts';
import { CLIENT_INFO } from './session-client.ts';
import type { HttpTap } from './http-tap.ts';
import { TransportStartError, type StdioTapTransport } from './stdio-transport.ts';
import type { TraceRecorder } from './trace-recorder.ts';

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
  take(taken: { client: { close(): Promise<void> }; transport: Transport; router: RawRouter; listener: Listener; tap?: HttpTap }): void;
}

export class SessionEras {
  constructor(private readonly host: EraHost) {}

  /** On the session's own child: the probe, then the v2 Client, or a 2025 verdict (`legacy`). */
  async probeStdio(transport: StdioTapTransport, mode: '2026-07-28' | 'auto', generation: number): Promise<{ kind: 'done'; outcome: Opened } | { kind: 'legacy' }> {
    const modern = await import('./session-modern.ts');
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
    const modern = await import('./session-modern.ts');
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
  private async adopt(transport: Transport, verdict: Verdict, generation: number, kind: 'stdio' | 'http', tap?: HttpTap): Promise<Opened> {
    const modern = await import('./session-modern.ts');
    const host = this.host;
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
    router.install();
    host.take({ client: opened.value, transport, router, listener: new modern.Listener(() => host.announce()), tap });
    Object.assign(host.info(), modern.discoveredInfo(verdict), { transport: kind });
    return { ok: true };
  }
}
