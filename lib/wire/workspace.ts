/** The workspace on the wire (lib/wire/wire.ts). */
import { z } from 'zod';
import { InputDeclSchema, SavedCallSchema, SavedQuerySchema } from '../model/workspace-schemas.ts';
import { CollectionSchema } from '../collections/schema.ts';
import { EvalFileSchema } from '../evals/schema.ts';

// ---------------------------------------------------------------------------------------------
// Workspace (issue 9): the servers of one file, Loupe's extras, and the inputs it still needs.

// One definition of each, shared with the file format (lib/model/workspace-schemas.ts is a zod-only leaf).
export { InputDeclSchema, SavedCallSchema, SavedQuerySchema };
export type WireSavedCall = z.infer<typeof SavedCallSchema>;
export type WireInputDecl = z.infer<typeof InputDeclSchema>;

export const WorkspaceStateSchema = z.object({
  /** The file the workspace was read from or saved to (absent: never saved). */
  path: z.string().optional(),
  flavour: z.enum(['mcpServers', 'servers']),
  /** Saved calls per session id. */
  savedCalls: z.record(z.string(), z.array(SavedCallSchema)),
  /** Named History queries of the workspace (issue 26); absent: none. */
  savedQueries: z.array(SavedQuerySchema).optional(),
  /** The workspace's test collections (issue 27), as the proxy checked them; absent: none. */
  collections: z.array(CollectionSchema).optional(),
  /** The workspace's model evals (issue 27), as the proxy checked them; absent: none. */
  evals: EvalFileSchema.optional(),
  /** Inputs some server waits for (its status is `disconnected` with a note until `provide-inputs`). */
  inputsNeeded: z.array(InputDeclSchema),
  /** Plain notes for the user, each naming its server (renames, ignored keys, placeholders). */
  notes: z.array(z.string()),
  /** How many ended watched sessions (gateway clients that left, detached taps) were forgotten beyond the cap. */
  prunedSessions: z.number().int().nonnegative().optional(),
});
export type WorkspaceState = z.infer<typeof WorkspaceStateSchema>;

/**
 * Replace the workspace's collections (issue 27); broadcast as `workspace`. Any JSON on the wire: the
 * proxy reads it as a collection file's list (lib/collections/read.ts), and answers a bad one with an
 * `error` naming where it is wrong, changing nothing.
 */
export const SetCollectionsMessageSchema = z.object({ type: z.literal('set-collections'), collections: z.array(z.unknown()) });

/**
 * Replace the workspace's model evals (issue 27; an eval file's object, lib/evals/schema.ts);
 * broadcast as `workspace`. A bad one is answered with an `error` naming where, changing nothing;
 * no case at all clears them.
 */
export const SetEvalsMessageSchema = z.object({ type: z.literal('set-evals'), evals: z.unknown() });

/** Issue 27's messages of the workspace (collections, evals), for the union of lib/wire/wire.ts. */
export const TESTS_CLIENT_MESSAGES = [SetCollectionsMessageSchema, SetEvalsMessageSchema] as const;

/** A known config file of an MCP host on this machine (read-only: Loupe never writes it). */
export const ConfigLocationSchema = z.object({
  app: z.string(),
  path: z.string(),
  /** How many servers it holds, when it parsed. */
  servers: z.number().optional(),
  /** Its text, to import from. */
  text: z.string().optional(),
  /** Why it could not be read or parsed. */
  error: z.string().optional(),
});
export type ConfigLocation = z.infer<typeof ConfigLocationSchema>;
