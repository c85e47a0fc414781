/**
 * The vocabulary of the 2026-07-28 generation (issue 12), in one place for the page, the proxy and
 * the headless modes: the first modern version and the reserved `_meta` keys, which the v2 SDK
 * exports as PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, … Written out because the page
 * imports this module and the SDK would come with it; lib/modern-meta.test.ts checks them.
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
export const MODERN_VERSION = '2026-07-28';
export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
/** The tasks extension's identifier (SEP-2663): on 2026-07-28, tasks are an extension, not a capability. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Versions are dates (YYYY-MM-DD): string order is time order. */
export function isModernVersion(version: unknown): version is string {
  return typeof version === 'string' && version >= MODERN_VERSION;
}
