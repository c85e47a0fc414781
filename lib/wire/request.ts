/**
 * The hot path's message, `request` (every request the page makes): its schema. Its reader by hand
 * is in quick-read.ts, which needs no zod; parseClientMessage in wire.ts composes both.
 */
import { z } from 'zod';

/** An MCP request addressed to a session; `id` is the UI's own correlation id, not the JSON-RPC id. */
export const RequestMessageSchema = z.object({
  type: z.literal('request'),
  session: z.string(),
  id: z.string(),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  /** Milliseconds; default 60 000. */
  timeoutMs: z.number().positive().optional(),
  /** Restart the timeout whenever the server reports progress (default true). */
  resetTimeoutOnProgress: z.boolean().optional(),
  /** Hard cap in ms regardless of progress (default: none). */
  maxTotalTimeoutMs: z.number().positive().optional(),
});

export type RequestMessage = z.infer<typeof RequestMessageSchema>;
