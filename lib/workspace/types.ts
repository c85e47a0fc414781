/**
 * The workspace model of issue 9: the servers of one mcp.json-style file, with Loupe's extras.
 * Types and the zod schemas that check Loupe's own key in a file; the logic is in workspace-*.ts.
 */
import { z } from 'zod';
import { ProtocolChoiceSchema, type ServerConfig } from '../model/server-config.ts';
import { ClientCapabilityChoiceSchema, type ClientCapabilityChoice } from '../wire/capability-choice.ts';
import { SavedCallSchema, SavedQuerySchema } from '../model/workspace-schemas.ts';
import type { Rule } from '../model/rules.ts';
import type { Collection } from '../collections/schema.ts';
import type { WorkspaceOtlp } from '../otel/workspace-otlp.ts';
import type { EvalFile } from '../evals/schema.ts';

export { InputDeclSchema, SavedCallSchema, SavedQuerySchema } from '../model/workspace-schemas.ts';

export type { Result } from '../config/server-config.ts';

/** A VS Code `inputs` entry: Loupe asks for it when a server uses `${input:id}`. */
export interface InputDecl {
  id: string;
  type: 'promptString';
  description?: string;
  password?: boolean;
  /** VS Code's `default` for the prompt. */
  default?: string;
}

export type SavedCall = z.infer<typeof SavedCallSchema>;
export type SavedQuery = z.infer<typeof SavedQuerySchema>;

/** Loupe's own extras for one server, under the file's "x-mcp-loupe" key (other hosts ignore it). */
export interface ServerExtras {
  clientCapabilities?: ClientCapabilityChoice;
  savedCalls?: SavedCall[];
  /** Content hashes of the tools as the doctor last saw them (issue 14: hash pinning), by tool name. */
  toolPins?: Record<string, string>;
}

export interface WorkspaceServer {
  /** Unique in the workspace. */
  name: string;
  /** References (`${input:X}`, `${env:X}`) left as written. */
  config: ServerConfig;
  /** `"disabled": true` in the entry (Windsurf, Cline, Claude Code): listed, not started. */
  disabled: boolean;
  /** Env names / header names whose values are secret: written as references, never as values. */
  secretEnv: string[];
  secretHeaders: string[];
  extras: ServerExtras;
  /**
   * Entry keys Loupe does not act on (`autoApprove`, `timeout`, `envFile`…), kept as written so
   * that saving the file does not lose them. Addition to the agreed interface; optional.
   */
  other?: Record<string, unknown>;
}

export interface Workspace {
  /** Which shape the file had (VS Code = servers). */
  flavour: 'mcpServers' | 'servers';
  servers: WorkspaceServer[];
  /** VS Code "inputs" (and ones Loupe adds for secrets). */
  inputs: InputDecl[];
  /** Plain notes for the user, each naming its server: ignored keys, renames, placeholders. */
  notes: string[];
  /** Top-level keys of the file other than the ones Loupe writes (Claude Desktop's "preferences"…), kept. Optional addition. */
  other?: Record<string, unknown>;
  /** The interception rules (issue 13), under `x-mcp-loupe.rules`. */
  rules?: Rule[];
  /** Named History queries (issue 26), under `x-mcp-loupe.queries`. */
  queries?: SavedQuery[];
  /** Test collections (issue 27), under `x-mcp-loupe.collections` (lib/collections/schema.ts). */
  collections?: Collection[];
  /** Model evals (issue 27), under `x-mcp-loupe.evals`: an eval file's object (lib/evals/schema.ts). */
  evals?: EvalFile;
  /** Tracing (issue 28), under `x-mcp-loupe.otlp`: where to export spans; never headers. */
  otlp?: WorkspaceOtlp;
}

/** The name of Loupe's key in a file, and the version of what is under it. */
export const EXTRAS_KEY = 'x-mcp-loupe';
export const EXTRAS_VERSION = 1;

/**
 * One server's block under `x-mcp-loupe.servers`. `transport: "http"` records Streamable HTTP
 * without SSE fallback in a VS Code file, whose `"type": "http"` means "with fallback".
 */
export const FileServerExtrasSchema = z.object({
  clientCapabilities: ClientCapabilityChoiceSchema.optional(),
  savedCalls: z.array(SavedCallSchema).optional(),
  transport: z.literal('http').optional(),
  /** The protocol generation to speak (issue 12); absent: 2025-11-25. */
  protocol: ProtocolChoiceSchema.optional(),
  toolPins: z.record(z.string(), z.string()).optional(),
});
export type FileServerExtras = z.infer<typeof FileServerExtrasSchema>;

export const FileExtrasSchema = z.object({
  version: z.literal(EXTRAS_VERSION),
  servers: z.record(z.string(), z.unknown()).default({}),
});
