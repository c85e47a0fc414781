/**
 * A session's failures in plain words (issue 8): how a stdio server died, why initialize failed.
 * Shared by stdio and HTTP sessions (http-failure.ts adds the HTTP-only causes).
 */
import { LATEST_PROTOCOL_VERSION, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { LoupeError } from '../../lib/wire/wire.ts';
import { isModernVersion } from '../../lib/model/modern-meta.ts';

/** The SDK's words when initialize answers a version it does not speak (client/index.js). */
const UNSUPPORTED_VERSION = /protocol version is not supported: (\S+)/;

export function describeTarget(config: ServerConfig): string {
  return config.kind === 'stdio' ? [config.command, ...config.args].join(' ') : config.url;
}

/** A request on a session that cannot take one: not connected, or one Loupe only watches (issue 13). */
export function notConnectedError(relay?: { kind: 'tap' | 'gateway' }): LoupeError {
  if (!relay) return { code: 'NOT_CONNECTED', message: 'The session is not connected.' };
  const whose = relay.kind === 'tap' ? 'a host’s, through --tap' : 'a client’s, through the gateway';
  return { code: 'NOT_CONNECTED', message: `Loupe watches this session (${whose}); it sends nothing of its own on it.` };
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

/** basic/lifecycle#version-negotiation: "server supports A, B; Loupe asked for C". */
export function versionMismatchError(supported: readonly string[], requested: string = LATEST_PROTOCOL_VERSION): LoupeError {
  return {
    code: 'VERSION_MISMATCH',
    message: `The server supports ${supported.join(', ') || 'no version it named'}; Loupe asked for ${requested}.`,
    // A 2026 server refusing initialize (issue 12): the other generation is one choice away.
    hint: supported.some(isModernVersion)
      ? 'This server speaks the stateless 2026-07-28 protocol: choose 2026-07-28 (stateless) or Auto in Protocol (--protocol 2026-07-28|auto).'
      : `Loupe speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
  };
}

/**
 * The versions a refusal names: the SDK's "not supported: X" (the server answered X), or an
 * initialize error whose `data.supported` lists them (the spec's suggested error shape).
 */
function refusedVersions(error: unknown): string[] | undefined {
  const data = error instanceof McpError ? (error.data as { supported?: unknown } | undefined) : undefined;
  if (Array.isArray(data?.supported)) return data.supported.map(String);
  const answered = error instanceof Error ? UNSUPPORTED_VERSION.exec(error.message)?.[1] : undefined;
  return answered ? [answered] : undefined;
}

export function initError(error: unknown, timeoutMs: number): LoupeError {
  if (error instanceof McpError && error.code === -32001) {
    return {
      code: 'TIMEOUT',
      message: `The server did not answer initialize within ${formatSeconds(timeoutMs)} s (--connect-timeout / the Connect timeout field).`,
      hint: 'Loupe stopped the server process. If the server is slow to start, allow it more time.',
    };
  }
  const supported = refusedVersions(error);
  if (supported) return versionMismatchError(supported);
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INIT_FAILED', message: `Initialization failed: ${message}` };
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
