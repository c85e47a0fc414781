/**
 * The gateway's connection to its target for one client session (issue 13): a stdio child through
 * Loupe's own StdioTapTransport, or a remote server through the SDK's Streamable HTTP client with
 * Loupe's recording fetch tap — the same transports Loupe's own sessions use, so a gateway
 * session's trace reads like any other, and the same interception rules apply (RuledTransport). No
 * SDK `Client` on top: the gateway relays the client's messages as they are, initialize included.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import type { LoupeError } from '../../../lib/wire/wire.ts';
import { RuledTransport, httpRuleOptions, stdioRuleOptions } from '../../pipeline/pipeline.ts';
import { describeHttpFailure } from '../../session/remote-connect.ts';
import { createHttpTap, type HttpTap } from '../../upstream/http/tap.ts';
import { userHeaderFetch } from '../../upstream/http/user-headers.ts';
import { exitError } from '../../session/errors.ts';
import { StdioTapTransport, TransportStartError } from '../../upstream/stdio/transport.ts';
import type { PipelineContext } from '../../pipeline/context.ts';

export interface Upstream {
  /** The target's transport with the interception rules on it (frame-pipeline.ts). */
  transport: Transport;
  /** The child's pid once started (stdio). */
  pid(): number | undefined;
  /** Why the target failed to start or answer, in plain words, from what the transport saw. */
  describe(error: unknown, when: string): LoupeError;
  /** After the initialize answer: an HTTP target wants the version in every later request's header. */
  negotiated(protocolVersion: string): void;
  /** Ends the target's side: the child's process group stopped, or the remote session deleted. */
  close(): Promise<void>;
}

export interface UpstreamHooks {
  /** The remote server ended its session (404): the client must start a new one. */
  onSessionEnded(): void;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300);

/** `ctx`: the session's rules and trace; the transports record into `ctx.trace`. */
export async function openUpstream(config: ServerConfig, ctx: PipelineContext, hooks: UpstreamHooks): Promise<Upstream> {
  const trace = ctx.trace;
  if (config.kind === 'stdio') {
    const stdio = new StdioTapTransport(config, trace);
    return stdioUpstream(stdio, new RuledTransport(stdio, ctx, stdioRuleOptions(stdio)));
  }
  // Loaded on first use, as for Loupe's own sessions: a stdio gateway need not hold the HTTP client.
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const tap = createHttpTap(
    trace,
    'http',
    {
      // Passed on (undefined): the request fails with the 404, and the client's session is closed so it starts anew.
      onSessionEnded: () => void hooks.onSessionEnded(),
    },
    config.url,
  );
  const transport = new StreamableHTTPClientTransport(new URL(config.url), { fetch: userHeaderFetch(tap, config) });
  return httpUpstream(config.url, transport, tap, new RuledTransport(transport, ctx, httpRuleOptions(tap, transport, trace)));
}

function stdioUpstream(transport: StdioTapTransport, ruled: Transport): Upstream {
  return {
    transport: ruled,
    pid: () => transport.pid,
    describe(error, when) {
      if (error instanceof TransportStartError) return error.loupeError;
      const exit = transport.exit;
      if (exit) return exitError(exit.code, exit.signal, exit.stderrTail, when);
      return { code: 'INIT_FAILED', message: `The server could not be reached ${when}: ${messageOf(error)}.` };
    },
    negotiated: (version) => transport.setProtocolVersion(version),
    close: () => ruled.close(),
  };
}

function httpUpstream(url: string, transport: import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport, tap: HttpTap, ruled: Transport): Upstream {
  return {
    transport: ruled,
    pid: () => undefined,
    describe(error) {
      const failure = tap.lastFailure();
      return describeHttpFailure(url, {
        ok: false,
        error: { code: 'UNREACHABLE', message: `Could not reach ${url}: ${messageOf(error)}.` },
        failure,
        waiting: tap.waiting(),
        versions: tap.versions(),
      });
    },
    negotiated: (version) => transport.setProtocolVersion(version),
    async close() {
      // The remote server is told the session is over (a DELETE), so it does not keep it for its own timeout.
      if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => undefined);
      await ruled.close();
    },
  };
}
