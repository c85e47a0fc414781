/**
 * The Playground on the wire (issue 15; lib/wire/wire.ts): the page drives the agent loop
 * (playground-loop.ts), the proxy makes the HTTP calls to the model provider and holds the keys.
 *
 * A key typed into the page crosses the socket once, in `playground-set-key`; from then on the page
 * names it by the `apiKeyRef` it got back (`memory:<id>`), as it names an environment variable's
 * key (`env:OPENAI_API_KEY`). No message from the proxy carries a key: the key state is names only.
 */
import { z } from 'zod';
import { MessageSchema, ProviderConfigSchema, ProviderKindSchema } from '../playground/messages.ts';
import type { ModelInfo, ModelReply, ProviderErrorCode, StreamDelta } from '../playground/types.ts';

/**
 * A failure of a Playground call in plain words: the adapters' codes (playground-types.ts) and the
 * ones only the proxy can know of (the provider was unreachable or too slow, the call was stopped,
 * the key or the session named is gone).
 */
export type PlaygroundErrorCode = ProviderErrorCode | 'UNREACHABLE' | 'TIMEOUT' | 'CANCELLED' | 'NO_KEY' | 'NO_SESSION';
export interface PlaygroundError {
  code: PlaygroundErrorCode;
  /** One sentence: what happened and what to do. */
  message: string;
  status?: number;
}
const PlaygroundErrorSchema = z.object({ code: z.custom<PlaygroundErrorCode>((v) => typeof v === 'string'), message: z.string(), status: z.number().optional() });

// ---------------------------------------------------------------------------------------------
// UI → proxy

/** A key typed into the page: held in the proxy's memory for `baseUrl`'s origin only. */
export const PlaygroundSetKeyMessageSchema = z.object({
  type: z.literal('playground-set-key'),
  requestId: z.string(),
  provider: ProviderKindSchema,
  baseUrl: z.string(),
  key: z.string(),
});

export const PlaygroundForgetKeyMessageSchema = z.object({ type: z.literal('playground-forget-key'), apiKeyRef: z.string() });

export const PlaygroundModelsMessageSchema = z.object({
  type: z.literal('playground-models'),
  requestId: z.string(),
  config: ProviderConfigSchema,
  /** The trace the exchange is recorded in (absent: not recorded). */
  session: z.string().optional(),
});

/** A tool as the model sees it (playground-types.ts `PlaygroundTool`). */
const PlaygroundToolSchema = z.object({
  name: z.string(),
  server: z.string(),
  tool: z.string(),
  description: z.string().optional(),
  inputSchema: z.unknown(),
  readOnly: z.boolean(),
});

/** What the loop asks the model (playground-types.ts `ModelRequest`). */
export const ModelRequestSchema = z.object({ system: z.string().optional(), messages: z.array(MessageSchema), tools: z.array(PlaygroundToolSchema) });

/** One model call, as the loop's `call-model` effect asks for it. */
export const PlaygroundCallMessageSchema = z.object({
  type: z.literal('playground-call'),
  requestId: z.string(),
  /** The trace the exchange is recorded in: the first chosen server's session. */
  session: z.string(),
  config: ProviderConfigSchema,
  request: ModelRequestSchema,
  stream: z.boolean(),
});

/** Stop a `playground-call` or `playground-models` in flight: it is answered with a CANCELLED error. */
export const PlaygroundCancelMessageSchema = z.object({ type: z.literal('playground-cancel'), requestId: z.string() });

export type PlaygroundSetKeyMessage = z.infer<typeof PlaygroundSetKeyMessageSchema>;
export type PlaygroundForgetKeyMessage = z.infer<typeof PlaygroundForgetKeyMessageSchema>;
export type PlaygroundModelsMessage = z.infer<typeof PlaygroundModelsMessageSchema>;
export type PlaygroundCallMessage = z.infer<typeof PlaygroundCallMessageSchema>;
export type PlaygroundCancelMessage = z.infer<typeof PlaygroundCancelMessageSchema>;

// ---------------------------------------------------------------------------------------------
// proxy → UI

/** A key in Loupe's environment, by name (never its value), with the endpoint it is for. */
export const EnvKeySchema = z.object({ name: z.string(), provider: ProviderKindSchema, label: z.string(), baseUrl: z.string() });
export type EnvKey = z.infer<typeof EnvKeySchema>;

/** A key typed into a page, held in the proxy's memory: its reference and where it may be sent. */
export const MemoryKeySchema = z.object({ apiKeyRef: z.string(), provider: ProviderKindSchema, origin: z.string() });
export type MemoryKey = z.infer<typeof MemoryKeySchema>;

export const PlaygroundKeysSchema = z.object({ env: z.array(EnvKeySchema), memory: z.array(MemoryKeySchema).optional() });
export type PlaygroundKeys = z.infer<typeof PlaygroundKeysSchema>;

/** The keys the proxy can use: in the snapshot, and to every tab when a typed key is set or forgotten. */
export const PlaygroundKeysMessageSchema = z.object({ type: z.literal('playground-keys'), ...PlaygroundKeysSchema.shape });

export const PlaygroundKeySetMessageSchema = z.object({
  type: z.literal('playground-key-set'),
  requestId: z.string(),
  apiKeyRef: z.string().optional(),
  error: PlaygroundErrorSchema.optional(),
});

export const PlaygroundModelsResultMessageSchema = z.object({
  type: z.literal('playground-models-result'),
  requestId: z.string(),
  models: z.custom<ModelInfo[]>((v) => Array.isArray(v)).optional(),
  error: PlaygroundErrorSchema.optional(),
  exchangeSeq: z.number().optional(),
});

/** What a streamed reply added since the last of these (batched: one message per short window). */
export const PlaygroundDeltaMessageSchema = z.object({
  type: z.literal('playground-delta'),
  requestId: z.string(),
  deltas: z.array(z.custom<StreamDelta>((v) => v !== null && typeof v === 'object')),
});

export const PlaygroundReplyMessageSchema = z.object({
  type: z.literal('playground-reply'),
  requestId: z.string(),
  reply: z.custom<ModelReply>((v) => v !== null && typeof v === 'object').optional(),
  error: PlaygroundErrorSchema.optional(),
  latencyMs: z.number(),
  /** The seq of the `provider` trace event of this exchange, in the call's session. */
  exchangeSeq: z.number().optional(),
});

export type PlaygroundKeysMessage = z.infer<typeof PlaygroundKeysMessageSchema>;
export type PlaygroundKeySetMessage = z.infer<typeof PlaygroundKeySetMessageSchema>;
export type PlaygroundModelsResultMessage = z.infer<typeof PlaygroundModelsResultMessageSchema>;
export type PlaygroundDeltaMessage = z.infer<typeof PlaygroundDeltaMessageSchema>;
export type PlaygroundReplyMessage = z.infer<typeof PlaygroundReplyMessageSchema>;

/** The Playground's messages each way, for the unions of lib/wire/wire.ts. */
export const PLAYGROUND_CLIENT_MESSAGES = [PlaygroundSetKeyMessageSchema, PlaygroundForgetKeyMessageSchema, PlaygroundModelsMessageSchema, PlaygroundCallMessageSchema, PlaygroundCancelMessageSchema] as const;
export const PLAYGROUND_SERVER_MESSAGES = [PlaygroundKeysMessageSchema, PlaygroundKeySetMessageSchema, PlaygroundModelsResultMessageSchema, PlaygroundDeltaMessageSchema, PlaygroundReplyMessageSchema] as const;
