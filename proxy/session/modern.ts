/**
 * The 2026-07-28 half of a session (issue 12): the probe that decides the generation, the v2 SDK
 * Client that holds a stateless connection, and the `subscriptions/listen` stream. Loaded only when
 * a session asks for `2026-07-28` or `Auto`, so that a 2025 session never loads the v2 packages.
 *
 * Why the 1.x SDK keeps the 2025 generation (measured in bench/protocol.mjs, README "Two protocol
 * generations"): Loupe's 2025 sessions run on its own stdio tap and the router, so the Client only
 * initializes and answers server→client requests; v2's legacy era would do the same work through a
 * second set of handler types, and costs more to load than the 1.x Client that is loaded anyway.
 */
import { Client as ModernClient, StreamableHTTPClientTransport, type DiscoverResult, type McpSubscription } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpConfig } from '../../lib/model/server-config.ts';
import type { ListenState, LoupeError, SessionInfo, SubscriptionFilter } from '../../lib/wire/wire.ts';
import { judge, sendProbe, type Verdict } from './era-probe.ts';
import { MODERN_VERSION, SERVER_INFO_KEY, type EnvelopeParts } from './modern-envelope.ts';
import { createHttpTap, type HttpTap } from '../upstream/http/tap.ts';
import { IGNORE_NOTIFICATION } from './raw-router.ts';
import { userHeaderFetch } from '../upstream/http/user-headers.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';
import type { ProtocolChoice } from '../../lib/model/server-config.ts';

/** How long the probe may take on stdio before silence counts as "a 2025 server" (capped by the connect timeout). */
export const STDIO_PROBE_MS = 5_000;

export type Opened<T> = { ok: true; value: T } | { ok: false; error: LoupeError };

/** A connected 2026-07-28 session: the v2 Client over the session's transport. */
export interface ModernConnection {
  client: ModernClient;
  transport: Transport;
  tap?: HttpTap;
}

/** Judges the server on a started transport; the verdict's reason goes into the trace. */
export async function probe(transport: Transport, mode: ProtocolChoice, kind: 'stdio' | 'http', parts: EnvelopeParts, timeoutMs: number, trace: TraceRecorder): Promise<Verdict> {
  const answer = await sendProbe(transport, parts, timeoutMs);
  const verdict = judge(mode, answer, kind);
  trace.record({ kind: 'transport', level: 'info', message: `Protocol: ${verdict.reason}` });
  return verdict;
}

/** The page's words when `2026-07-28` was asked for and the server does not speak it. */
export function notModernError(verdict: Verdict): LoupeError {
  if (verdict.unreachable) {
    return {
      code: 'UNREACHABLE',
      message: `Loupe could not ask the server which protocol it speaks (server/discover: ${verdict.answer ?? 'no answer'}).`,
      hint: 'Check that the server is running and reachable. A server behind OAuth can be signed in to with Protocol 2025-11-25 or Auto for now.',
    };
  }
  return {
    code: 'VERSION_MISMATCH',
    message: `This server does not speak ${MODERN_VERSION}: ${verdict.answer ?? 'server/discover failed'}.`,
    hint: 'Choose 2025-11-25 (sessions) or Auto in Protocol (--protocol 2025-11-25|auto) to open a 2025 session.',
  };
}

/** Adopts the discover result with the v2 Client (no second round trip). */
export async function adoptModern(transport: Transport, verdict: Verdict, clientInfo: EnvelopeParts['clientInfo'], capabilities: Record<string, unknown>, onClose: (client: ModernClient) => void): Promise<Opened<ModernClient>> {
  const client = new ModernClient(clientInfo, { capabilities: capabilities as never, inputRequired: { autoFulfill: false } });
  // Every notification is in the trace already; the page reads them there.
  client.fallbackNotificationHandler = IGNORE_NOTIFICATION;
  // A server→client request on a modern session is dropped by the v2 Client; the History marks it.
  client.onerror = () => {};
  client.onclose = () => onClose(client);
  try {
    await client.connect(transport, { prior: { kind: 'modern', discover: verdict.discover as DiscoverResult } });
    return { ok: true, value: client };
  } catch (error) {
    await client.close().catch(() => undefined);
    return { ok: false, error: { code: 'INIT_FAILED', message: `Loupe could not use the server's server/discover answer: ${error instanceof Error ? error.message : String(error)}` } };
  }
}

/** A Streamable HTTP transport of the v2 SDK over Loupe's tap. */
export function modernHttpTransport(config: HttpConfig, tap: HttpTap): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(config.url), { fetch: userHeaderFetch(tap, config) });
}

/**
 * Probes a remote server on a transport of its own (stateless: nothing is lost by closing it),
 * then, on a 2026 verdict, connects the v2 Client on a fresh one through the same tap.
 */
export async function probeHttp(config: HttpConfig, mode: ProtocolChoice, parts: EnvelopeParts, timeoutMs: number, trace: TraceRecorder): Promise<{ verdict: Verdict; tap: HttpTap }> {
  const tap = createHttpTap(trace, 'http', {}, config.url);
  const probing = modernHttpTransport(config, tap);
  await probing.start();
  const verdict = await probe(probing, mode, 'http', parts, timeoutMs, trace);
  await probing.close().catch(() => undefined);
  return { verdict, tap };
}

/** What server/discover told, for the page (like initialize's info on a 2025 session). */
export function discoveredInfo(verdict: Verdict): Partial<SessionInfo> {
  const discover = verdict.discover ?? {};
  const meta = (discover._meta ?? {}) as Record<string, unknown>;
  const server = meta[SERVER_INFO_KEY] as Record<string, unknown> | undefined;
  const capabilities = discover.capabilities as Record<string, unknown> | undefined;
  const supported = Array.isArray(discover.supportedVersions) ? discover.supportedVersions.map(String) : [];
  const { discover: _discover, unreachable: _unreachable, ...negotiation } = verdict;
  return {
    era: 'modern',
    protocolVersion: MODERN_VERSION,
    negotiation,
    serverInfo: server && typeof server.name === 'string' ? { name: server.name, version: String(server.version ?? ''), title: typeof server.title === 'string' ? server.title : undefined } : undefined,
    capabilities,
    instructions: typeof discover.instructions === 'string' ? discover.instructions : undefined,
    discovery: { supportedVersions: supported, extensions: capabilities?.extensions as Record<string, unknown> | undefined },
  };
}

/** The session's `subscriptions/listen` stream, through the v2 Client (one at a time). */
export class Listener {
  private subscription?: McpSubscription;
  private ticket = 0;
  state?: ListenState;

  constructor(private readonly changed: () => void) {}

  async open(client: ModernClient, filter: SubscriptionFilter): Promise<void> {
    await this.close();
    const ticket = ++this.ticket;
    this.state = { state: 'opening', filter };
    this.changed();
    try {
      const subscription = await client.listen(filter, { timeout: 30_000 });
      if (ticket !== this.ticket) {
        await subscription.close();
        return;
      }
      this.subscription = subscription;
      this.state = { state: 'open', filter, honored: subscription.honoredFilter as SubscriptionFilter };
      this.changed();
      void subscription.closed.then((how) => {
        if (ticket !== this.ticket) return;
        this.subscription = undefined;
        this.state = { state: 'closed', filter, honored: this.state?.honored, closed: how };
        this.changed();
      });
    } catch (error) {
      if (ticket !== this.ticket) return;
      this.state = { state: 'closed', filter, closed: 'error', error: error instanceof Error ? error.message : String(error) };
      this.changed();
    }
  }

  async close(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    if (subscription) await subscription.close().catch(() => undefined);
  }

  /** The connection ended: nothing is listening any more. */
  reset(): void {
    this.ticket++;
    this.subscription = undefined;
    this.state = undefined;
  }
}
