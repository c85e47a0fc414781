/**
 * The per-request `_meta` envelope of the 2026-07-28 generation (issue 12): every request and
 * notification says which version it speaks, who the client is and what it can do, since there is
 * no `initialize` to say it once. The v2 transport derives the `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` headers from it. The key names are lib/model/modern-meta.ts's.
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import { CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, MODERN_VERSION, PROTOCOL_VERSION_KEY } from '../../lib/model/modern-meta.ts';

export { MODERN_VERSION, SERVER_INFO_KEY } from '../../lib/model/modern-meta.ts';

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
