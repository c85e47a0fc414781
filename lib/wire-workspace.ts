/** The workspace on the wire (lib/wire.ts). */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Workspace (issue 9): the servers of one file, Loupe's extras, and the inputs it still needs.
// These mirror lib/workspace.ts's SavedCall and InputDecl (that file owns the file format).

export const SavedCallSchema = z.object({
  name: z.string(),
  kind: z.enum(['tool', 'resource', 'prompt']),
  /** Tool name, resource URI, or prompt name. */
  target: z.string(),
  /** Tool arguments or prompt arguments (absent for a resource read). */
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export type WireSavedCall = z.infer<typeof SavedCallSchema>;

/** A `${input:ID}` the user is asked for (VS Code's `inputs`). */
export const InputDeclSchema = z.object({
  id: z.string(),
  type: z.literal('promptString'),
  description: z.string().optional(),
  password: z.boolean().optional(),
});
export type WireInputDecl = z.infer<typeof InputDeclSchema>;

export const WorkspaceStateSchema = z.object({
  /** The file the workspace was read from or saved to (absent: never saved). */
  path: z.string().optional(),
  flavour: z.enum(['mcpServers', 'servers']),
  /** Saved calls per session id. */
  savedCalls: z.record(z.string(), z.array(SavedCallSchema)),
  /** Inputs some server waits for (its status is `disconnected` with a note until `provide-inputs`). */
  inputsNeeded: z.array(InputDeclSchema),
  /** Plain notes for the user, each naming its server (renames, ignored keys, placeholders). */
  notes: z.array(z.string()),
});
export type WorkspaceState = z.infer<typeof WorkspaceStateSchema>;

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
