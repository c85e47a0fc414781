/**
 * The zod schemas of the workspace shapes that also travel on the wire (saved calls, input
 * declarations). A leaf module (zod only), so that lib/wire/wire.ts can import it without a cycle
 * (workspace-types.ts imports wire-base.ts for the client-capability choice).
 */
import { z } from 'zod';

export const SavedCallSchema = z.object({
  name: z.string().min(1),
  kind: z.enum(['tool', 'resource', 'prompt']),
  /** tool name, resource URI, or prompt name */
  target: z.string(),
  /** tool arguments or prompt arguments (absent for a resource read) */
  arguments: z.record(z.string(), z.unknown()).optional(),
});

/** A named History query (issue 26, lib/trace/query.ts), kept for the whole workspace. */
export const SavedQuerySchema = z.object({
  name: z.string().min(1).max(200),
  query: z.string().max(4000),
});

export const InputDeclSchema = z.object({
  id: z.string().min(1),
  type: z.literal('promptString'),
  description: z.string().optional(),
  password: z.boolean().optional(),
  default: z.string().optional(),
});
