/**
 * The client capabilities chosen for a connection, in a module of its own: the session reads them
 * at start, and base.ts (every session's and server request's schema, OAuth's with it) is not
 * loaded for that (issue 23: zod schemas the first screen does not need).
 */
import { z } from 'zod';

/**
 * The client capabilities the user chose for a connection; all on by default.
 * https://modelcontextprotocol.io/specification/2025-11-25/client
 */
export const ClientCapabilityChoiceSchema = z.object({
  sampling: z.boolean().default(true),
  samplingTools: z.boolean().default(true),
  elicitationForm: z.boolean().default(true),
  elicitationUrl: z.boolean().default(true),
  roots: z.boolean().default(true),
  rootsListChanged: z.boolean().default(true),
  tasks: z.boolean().default(true),
  /** MCP Apps (issue 24): the `io.modelcontextprotocol/ui` extension, with its one MIME type. */
  apps: z.boolean().default(true),
});
export type ClientCapabilityChoice = z.infer<typeof ClientCapabilityChoiceSchema>;
