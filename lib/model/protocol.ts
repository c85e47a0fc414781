/**
 * The protocol generations a session may speak (issue 12), as plain values: the command line reads
 * them before anything else is loaded, so this file stays free of zod (loading zod's classic API
 * costs a launch tens of milliseconds before the port listens; issue 23).
 * `2025-11-25` is the `initialize` handshake and its session; `2026-07-28` is stateless, with the
 * version, client info and capabilities in every request's `_meta`; `auto` asks the server
 * (`server/discover`) and says what it concluded and why. Absent means `2025-11-25`: what most
 * servers speak today, and the SDK v2 docs warn debugging tools against negotiating silently.
 */
export const PROTOCOL_CHOICES = ['2025-11-25', '2026-07-28', 'auto'] as const;
export type ProtocolChoice = (typeof PROTOCOL_CHOICES)[number];
export const DEFAULT_PROTOCOL: ProtocolChoice = '2025-11-25';

export function isProtocolChoice(value: string): value is ProtocolChoice {
  return (PROTOCOL_CHOICES as readonly string[]).includes(value);
}
