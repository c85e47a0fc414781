/** Trace events on the wire (lib/wire/wire.ts). */
import { z } from 'zod';
import { RequestIdSchema } from './base.ts';
import { SpanDataSchema } from '../otel/schema.ts';

// ---------------------------------------------------------------------------------------------
// Trace events: what the tap recorded, in order. Each kind has its own shape.

/** What the proxy could tell about a JSON-RPC frame without trusting it. */
export const RpcKindSchema = z.enum(['request', 'response', 'error', 'notification', 'invalid']);
export type RpcKind = z.infer<typeof RpcKindSchema>;

const eventBase = {
  session: z.string(),
  /** Per-session sequence number, strictly increasing, starting at 1. */
  seq: z.number(),
  /** Wall-clock milliseconds since the epoch, with sub-millisecond precision where available. */
  ts: z.number(),
};

/** A JSON-RPC frame exactly as it crossed the upstream wire. `out` = Loupe → server. */
export const FrameEventSchema = z.object({
  ...eventBase,
  kind: z.literal('frame'),
  dir: z.enum(['out', 'in']),
  raw: z.string(),
  size: z.number(),
  rpc: RpcKindSchema,
  method: z.string().optional(),
  id: RequestIdSchema.optional(),
  /** Set on frames the user sent by hand: a replay as is, an edited replay, or the raw composer. */
  origin: z.enum(['replay', 'edited', 'composer']).optional(),
  /**
   * Set on a request Loupe re-sent after an `input_required` result (2026-07-28 multi round
   * trip): `call` is the JSON-RPC id of the first request of the logical call, `n` the round
   * (2 for the first re-send). The History folds the rounds of one call by it.
   */
  round: z.object({ call: RequestIdSchema, n: z.number() }).optional(),
  /** This frame is what went on after an intervention (issue 13): the seq of that `intervention` event. */
  intervention: z.number().optional(),
  /**
   * Set on a frame between Loupe and an MCP Apps view (issue 24), not the server: the view's id
   * (`v1`, `v2`…). `in` is view→host, `out` host→view; requests pair with responses per view.
   */
  view: z.string().optional(),
  /** Set on a request Loupe sent the server for an MCP Apps view (its `tools/call`, `resources/read`): that view's id. */
  byView: z.string().optional(),
});
export type FrameEvent = z.infer<typeof FrameEventSchema>;

/** A chunk of the child's stderr (never dressed up as a log notification). */
export const StderrEventSchema = z.object({ ...eventBase, kind: z.literal('stderr'), text: z.string() });
export type StderrEvent = z.infer<typeof StderrEventSchema>;

/** A stdout line that was not JSON-RPC. The session goes on. */
export const NoiseEventSchema = z.object({ ...eventBase, kind: z.literal('noise'), text: z.string() });
export type NoiseEvent = z.infer<typeof NoiseEventSchema>;

/** The child process ended. */
export const ExitEventSchema = z.object({
  ...eventBase,
  kind: z.literal('exit'),
  code: z.number().nullable(),
  signal: z.string().nullable(),
});
export type ExitEvent = z.infer<typeof ExitEventSchema>;

/** One HTTP exchange of a remote transport (secrets in headers masked). */
export const HttpEventSchema = z.object({
  ...eventBase,
  kind: z.literal('http'),
  method: z.string(),
  url: z.string(),
  status: z.number().optional(),
  contentType: z.string().optional(),
  requestHeaders: z.record(z.string(), z.string()),
  responseHeaders: z.record(z.string(), z.string()).optional(),
  durationMs: z.number(),
  bodySize: z.number().optional(),
  error: z.string().optional(),
});
export type HttpEvent = z.infer<typeof HttpEventSchema>;

/** Something the transport or the proxy noticed (connected, fallback to SSE, parse error …). */
export const TransportEventSchema = z.object({
  ...eventBase,
  kind: z.literal('transport'),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
  /** `restart`: the server was restarted here (issue 25); the History draws a line across. */
  marker: z.literal('restart').optional(),
});
export type TransportEvent = z.infer<typeof TransportEventSchema>;

/**
 * A step of signing in with OAuth (issue 11): discovery, registration, authorization, token,
 * refresh, step-up. Its HTTP exchanges are `http` events beside it; no token or secret is here.
 */
export const AuthEventSchema = z.object({
  ...eventBase,
  kind: z.literal('auth'),
  /** A guided step id (lib/wire/oauth.ts) or `refresh`, `step-up`, `forget`, `sign-in`. */
  step: z.string(),
  status: z.enum(['info', 'passed', 'failed']),
  message: z.string(),
});
export type AuthEvent = z.infer<typeof AuthEventSchema>;

/**
 * A frame that breaks the schema of its protocol version (issue 14), found by the proxy's spec
 * validator (proxy/pipeline/spec-validator.ts) after the frame was relayed: it belongs to the frame `of`
 * (its seq) and is shown on that frame's row, never as a row of its own. Only invalid frames
 * get one. `schema` names the type checked (`ListToolsResult`, `JSONRPCNotification`, …);
 * `issues` are short plain paths with what is wrong (`result.tools[2].inputSchema: required`).
 */
export const SpecEventSchema = z.object({
  ...eventBase,
  kind: z.literal('spec'),
  of: z.number(),
  version: z.string(),
  schema: z.string(),
  issues: z.array(z.string()),
});
export type SpecEvent = z.infer<typeof SpecEventSchema>;

/**
 * A rule or a person acted on a frame (issue 13: interception). `original` is the frame as it
 * came; `result` what went on instead (a rewrite, an edit) or the answer sent back to the sender
 * (`answered`), absent when nothing went on (dropped). `of` is the seq of the original frame
 * where it was recorded before the intervention (a frame from the server); the frame that went on
 * carries `intervention` = this event's seq. `message` says what happened in plain words.
 */
export const InterventionEventSchema = z.object({
  ...eventBase,
  kind: z.literal('intervention'),
  dir: z.enum(['out', 'in']),
  by: z.enum(['rule', 'person', 'timer']),
  rule: z.object({ id: z.string(), name: z.string(), action: z.string() }).optional(),
  /** held, delayed, dropped, rewritten, edited, answered, forwarded, closed, killed. */
  action: z.enum(['held', 'delayed', 'dropped', 'rewritten', 'edited', 'answered', 'forwarded', 'closed', 'killed']),
  message: z.string(),
  original: z.string(),
  result: z.string().optional(),
  of: z.number().optional(),
  method: z.string().optional(),
  heldMs: z.number().optional(),
});
export type InterventionEvent = z.infer<typeof InterventionEventSchema>;

/**
 * One HTTP exchange of the Playground with a model provider (issue 15), made by the proxy: a chat
 * call or a model list. The key is never here: its header reads `•••• (N chars, secret)` and it is
 * scrubbed from every other field. `responseBody` is the body as text (a stream's raw SSE text),
 * the first megabyte of it, with the cut said at its end.
 */
export const ProviderEventSchema = z.object({
  ...eventBase,
  kind: z.literal('provider'),
  exchange: z.enum(['chat', 'models']),
  provider: z.enum(['anthropic', 'openai-compatible']),
  url: z.string(),
  model: z.string().optional(),
  stream: z.boolean().optional(),
  status: z.number().optional(),
  durationMs: z.number(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseBody: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  error: z.string().optional(),
});
export type ProviderEvent = z.infer<typeof ProviderEventSchema>;

/**
 * Spans of OpenTelemetry (issue 28): a server's own, exported to Loupe's OTLP receiver
 * (`source: 'server'`, proxy/otel/receiver.ts), or read from an imported OTLP/Tempo/Jaeger file
 * (`import`). `of` is the seq of the request frame whose context (the `traceparent` Loupe put in
 * its `params._meta`) they joined; absent when none matched. Shown in that frame's detail.
 */
export const SpansEventSchema = z.object({
  ...eventBase,
  kind: z.literal('spans'),
  source: z.enum(['server', 'import']),
  of: z.number().optional(),
  spans: z.array(SpanDataSchema).max(20_000),
});
export type SpansEvent = z.infer<typeof SpansEventSchema>;

export const TraceEventSchema = z.discriminatedUnion('kind', [
  FrameEventSchema,
  StderrEventSchema,
  NoiseEventSchema,
  ExitEventSchema,
  HttpEventSchema,
  TransportEventSchema,
  AuthEventSchema,
  SpecEventSchema,
  InterventionEventSchema,
  ProviderEventSchema,
  SpansEventSchema,
]);
export type TraceEvent = z.infer<typeof TraceEventSchema>;

/** Per-session counts of what the proxy's bounded trace buffer let go. */
export const TraceStatsSchema = z.object({
  session: z.string(),
  kept: z.number(),
  dropped: z.number(),
});
export type TraceStats = z.infer<typeof TraceStatsSchema>;
