/**
 * A Playground conversation as a file (issue 15, "a conversation can be exported and re-run"): the
 * settings it ran with, the tools the model saw, the messages and the tokens used, one entry per
 * model when two were compared. It is built from ProviderConfig's fields one by one, so that no
 * key reference (let alone a key) can ride along: the file is meant to be shared.
 */
import { z } from 'zod';
import { MessageSchema, ProviderKindSchema, UsageSchema, type Message, type PlaygroundTool, type ProviderConfig, type Usage } from './types.ts';
import { ModelRequestSchema } from '../wire/playground.ts';

export const PLAYGROUND_EXPORT_FORMAT = 'mcp-loupe-playground/1';

const ExportedProviderSchema = z.object({ kind: ProviderKindSchema, baseUrl: z.string(), model: z.string() });
export type ExportedProvider = z.infer<typeof ExportedProviderSchema>;

const ExportedTurnSchema = z.object({ step: z.number(), latencyMs: z.number().optional(), usage: UsageSchema.optional(), error: z.string().optional() });

const ExportedConversationSchema = z.object({
  provider: ExportedProviderSchema,
  messages: z.array(MessageSchema),
  usage: UsageSchema,
  turns: z.array(ExportedTurnSchema),
});
export type ExportedConversation = z.infer<typeof ExportedConversationSchema>;

export const PlaygroundExportSchema = z.object({
  format: z.literal(PLAYGROUND_EXPORT_FORMAT),
  exportedAt: z.string(),
  system: z.string().optional(),
  options: z.object({ maxSteps: z.number().int().positive(), approveEvery: z.boolean(), autoApproveReadOnly: z.boolean() }),
  /** The servers whose tools the model saw, by name. */
  servers: z.array(z.string()),
  tools: ModelRequestSchema.shape.tools,
  conversations: z.array(ExportedConversationSchema).min(1),
});
export type PlaygroundExport = z.infer<typeof PlaygroundExportSchema>;

export interface ExportInput {
  system?: string;
  options: PlaygroundExport['options'];
  tools: readonly PlaygroundTool[];
  conversations: readonly { config: ProviderConfig; messages: readonly Message[]; usage: Usage; turns: readonly { step: number; latencyMs?: number; usage?: Usage; error?: string }[] }[];
  at?: Date;
}

/** Only the fields named here leave the page: `apiKeyRef` and whatever ProviderConfig grows later stay out. */
function provider(config: ProviderConfig): ExportedProvider {
  return { kind: config.kind, baseUrl: config.baseUrl, model: config.model };
}

export function buildExport(input: ExportInput): PlaygroundExport {
  return {
    format: PLAYGROUND_EXPORT_FORMAT,
    exportedAt: (input.at ?? new Date()).toISOString(),
    ...(input.system ? { system: input.system } : {}),
    options: { maxSteps: input.options.maxSteps, approveEvery: input.options.approveEvery, autoApproveReadOnly: input.options.autoApproveReadOnly },
    servers: [...new Set(input.tools.map((t) => t.server))],
    tools: input.tools.map((t) => ({ name: t.name, server: t.server, tool: t.tool, ...(t.description !== undefined ? { description: t.description } : {}), inputSchema: t.inputSchema, readOnly: t.readOnly })),
    conversations: input.conversations.map((c) => ({
      provider: provider(c.config),
      messages: [...c.messages],
      usage: { inputTokens: c.usage.inputTokens, outputTokens: c.usage.outputTokens },
      turns: c.turns.map((t) => ({ step: t.step, ...(t.latencyMs !== undefined ? { latencyMs: t.latencyMs } : {}), ...(t.usage ? { usage: t.usage } : {}), ...(t.error ? { error: t.error } : {}) })),
    })),
  };
}

/** A file read back, or why it cannot be used, in words. */
export function parseExport(text: string): { ok: true; value: PlaygroundExport } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The file is not JSON (${error instanceof Error ? error.message : String(error)}): choose a conversation exported by Loupe's Playground.` };
  }
  const parsed = PlaygroundExportSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
    return { ok: false, error: `The file is not a Playground conversation (${first?.message ?? 'unexpected shape'}${where}): choose one exported by Loupe's Playground.` };
  }
  return { ok: true, value: parsed.data };
}

/** The user's messages of a conversation, in order: what Re-run sends again. */
export function userMessages(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => (m.role === 'user' ? [m.text] : []));
}
