/**
 * The per-request `_meta` envelope of the 2026-07-28 generation (issue 12): every request and
 * notification says which version it speaks, who the client is and what it can do, since there is
 * no `initialize` to say it once. The v2 transport derives the `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` headers from it.
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 *
 * The key names are the v2 SDK's (core's exported constants); written out here so that the
 * router of a 2025 session does not load the v2 packages.
 */
export const MODERN_VERSION = '2026-07-28';
export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

export interface EnvelopeParts {
  clientInfo: { name: string; version: string; title?: string };
  capabilities: Record<string, unknown>;
  logLevel?: string;
}

export function envelope(parts: EnvelopeParts): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_KEY]: MODERN_VERSION,
    [CLIENT_INFO_KEY]: parts.clientInfo,
    [CLIENT_CAPABILITIES_KEY]: parts.capabilities,
    ...(parts.logLevel ? { [LOG_LEVEL_KEY]: parts.logLevel } : {}),
  };
}

/** `params` with the envelope added under keys the caller did not set itself (theirs win). */
export function withEnvelope(params: Record<string, unknown> | undefined, parts: EnvelopeParts): Record<string, unknown> {
  const meta = params?._meta && typeof params._meta === 'object' ? (params._meta as Record<string, unknown>) : {};
  return { ...params, _meta: { ...envelope(parts), ...meta } };
}

/** True when a message already says which version it speaks (a hand-written 2026 frame). */
export function hasEnvelope(message: Record<string, unknown>): boolean {
  const params = message.params as { _meta?: Record<string, unknown> } | undefined;
  return typeof params?._meta?.[PROTOCOL_VERSION_KEY] === 'string';
}
