import { z } from 'zod';
import { DEFAULT_PROTOCOL, PROTOCOL_CHOICES, type ProtocolChoice } from './protocol.ts';

/**
 * How to reach one MCP server, after normalisation (see `server-config.ts`).
 * This is what travels in a `connect` envelope and what the proxy acts on.
 */

/** Which protocol generation a session speaks: see protocol.ts, which holds the values without zod. */
export const ProtocolChoiceSchema = z.enum(PROTOCOL_CHOICES);
export { DEFAULT_PROTOCOL, type ProtocolChoice };

/** A server the proxy starts as a child process and talks to over stdin/stdout. */
export const StdioConfigSchema = z.object({
  kind: z.literal('stdio'),
  /** Display name (from mcp.json, or derived from the command). */
  name: z.string().optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Added to the safe default environment (the SDK's `getDefaultEnvironment()`). */
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  protocol: ProtocolChoiceSchema.optional(),
});
export type StdioConfig = z.infer<typeof StdioConfigSchema>;

/**
 * `auto`: Streamable HTTP, falling back to legacy SSE where the server answers the first POST
 * with a 4xx/405 (the backwards-compatibility rule of the 2025-03-26 spec).
 */
export const HttpTransportSchema = z.enum(['auto', 'http', 'sse']);
export type HttpTransport = z.infer<typeof HttpTransportSchema>;

/** A remote server reached over Streamable HTTP or legacy SSE. */
export const HttpConfigSchema = z.object({
  kind: z.literal('http'),
  name: z.string().optional(),
  url: z.string().url(),
  transport: HttpTransportSchema.default('auto'),
  headers: z.record(z.string(), z.string()).default({}),
  protocol: ProtocolChoiceSchema.optional(),
});
export type HttpConfig = z.infer<typeof HttpConfigSchema>;

export const ServerConfigSchema = z.discriminatedUnion('kind', [StdioConfigSchema, HttpConfigSchema]);
export type ServerConfig = z.infer<typeof ServerConfigSchema>;
