/**
 * A point of a session's surface history (issue 25, proxy/engine/surface.ts): what the server
 * listed when it connected, and why it connected. The page compares two with lib/surface/diff.ts.
 */
import { z } from 'zod';

export const SurfacePointSchema = z.object({
  /** Unique in this Loupe; ordered by time. */
  id: z.number(),
  /** Milliseconds since the epoch. */
  at: z.number(),
  /** The trace's last event number when it was taken (the History can scroll there). */
  seq: z.number(),
  /** `connected`, or `restarted: server.mjs changed`. */
  reason: z.string(),
  lists: z.object({
    tools: z.array(z.unknown()),
    resourceTemplates: z.array(z.unknown()),
    resources: z.array(z.unknown()),
    prompts: z.array(z.unknown()),
  }),
  /** What could not be listed (a failed or endless list), in plain words. */
  problems: z.array(z.string()).optional(),
});
export type SurfacePoint = z.infer<typeof SurfacePointSchema>;

/** A new point for a session, to every tab (the snapshot carries all of them). */
export const SurfacePointMessageSchema = z.object({ type: z.literal('surface-point'), session: z.string(), point: SurfacePointSchema });
