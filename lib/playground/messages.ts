/**
 * The Playground's conversation as data: messages, tool calls and results, usage, provider
 * settings, as zod schemas (the wire's Playground messages are built from them). Apart from the
 * adapters' helpers (types.ts) so that the wire does not load what those need (the schema checks
 * and Ajv; issue 23).
 */
import { z } from 'zod';

/** An MCP content block as a server sent it (text, image, audio, resource, resource_link, or newer). */
export const ContentBlockSchema = z.looseObject({ type: z.string() });
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

export const ToolCallSchema = z.object({
  /** The provider's id for the call (`tool_use.id` / `tool_calls[].id`); results refer to it. */
  id: z.string(),
  /** The name the model used: the exposed name, `server__tool` when several servers are in play. */
  name: z.string(),
  /** The arguments as an object (`{}` when they could not be read; then `argumentsError` says why). */
  arguments: z.record(z.string(), z.unknown()),
  /** The arguments exactly as the model wrote them (streamed fragments joined). */
  argumentsText: z.string(),
  argumentsError: z.string().optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const AssistantPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('tool_call'), call: ToolCallSchema }),
]);
export type AssistantPart = z.infer<typeof AssistantPartSchema>;

export const ToolResultSchema = z.object({
  callId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

export const MessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), text: z.string() }),
  z.object({ role: z.literal('assistant'), parts: z.array(AssistantPartSchema) }),
  /** The results of one assistant turn's calls, in the order of the calls. */
  z.object({ role: z.literal('tool'), results: z.array(ToolResultSchema) }),
]);
export type Message = z.infer<typeof MessageSchema>;
export type AssistantMessage = Extract<Message, { role: 'assistant' }>;

export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** What the call cost, when the provider says (OpenRouter's `usage.cost`, in US dollars); evals add it up (issue 27). */
  cost: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const ProviderKindSchema = z.enum(['anthropic', 'openai-compatible']);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

export const ProviderConfigSchema = z.object({
  kind: ProviderKindSchema,
  /** Up to the API's version prefix, e.g. `https://api.anthropic.com/v1`, `http://127.0.0.1:11434/v1`. */
  baseUrl: z.string(),
  model: z.string(),
  /** Which key the proxy uses: an environment variable (`env:OPENAI_API_KEY`) or one typed into the page and held in memory (`memory:<id>`). */
  apiKeyRef: z.string().optional(),
  maxTokens: z.number().int().positive().optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
