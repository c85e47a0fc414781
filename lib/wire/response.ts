/** A request's answer, its progress, and the batched trace events (lib/wire/wire.ts). */
import { z } from 'zod';
import { LoupeErrorSchema, RequestIdSchema, RpcErrorSchema } from './base.ts';
import { TraceEventSchema, TraceStatsSchema } from './events.ts';

/**
 * The answer to a `request` or `send-raw`. On the wire the proxy may send, instead of `result` /
 * `error`, `frame`: the server's JSON-RPC response exactly as it arrived, spliced in as JSON (never
 * re-serialised: a result nested 20,000 deep passes, issue 8). `parseServerMessage` lifts its
 * `result` / `error` into the fields below, so consumers see one shape.
 */
export const ResponseMessageSchema = z.discriminatedUnion('ok', [
  z.object({
    type: z.literal('response'),
    id: z.string(),
    session: z.string(),
    ok: z.literal(true),
    /** Absent only where `frameSeq` stands in for it. */
    result: z.unknown().optional(),
    durationMs: z.number(),
    /** The JSON-RPC id the request went out with (find its frames in the trace). */
    rpcId: RequestIdSchema.optional(),
    /**
     * Instead of `result`, to a tab that asked for it (`/ws?frames=seq`) and has the session's
     * trace: the seq of the trace frame that holds the server's response, which came before this
     * envelope (this envelope is then the `response` of the `events` message that carries the
     * frame). The result crosses to the page once, in the frame (issue 23).
     */
    frameSeq: z.number().optional(),
  }),
  z.object({
    type: z.literal('response'),
    id: z.string(),
    session: z.string(),
    ok: z.literal(false),
    /** A JSON-RPC error from the server, or a local failure. */
    error: z.union([RpcErrorSchema, LoupeErrorSchema]),
    durationMs: z.number(),
    rpcId: RequestIdSchema.optional(),
  }),
]);
export type ResponseMessage = z.infer<typeof ResponseMessageSchema>;

/** Trace events, batched: the proxy coalesces what arrives within one tick into one message. */
export const EventsMessageSchema = z.object({
  type: z.literal('events'),
  events: z.array(TraceEventSchema),
  stats: z.array(TraceStatsSchema).optional(),
  /**
   * The answer (`frameSeq`) to a request of this tab whose frame is among these events: one
   * message instead of two (issue 23). Its reader takes it after the events (`messagesOf`).
   */
  response: ResponseMessageSchema.optional(),
});

/** Progress the server reported for a request of this tab (`notifications/progress`). */
export const ProgressMessageSchema = z.object({
  type: z.literal('progress'),
  id: z.string(),
  session: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});
export type ProgressMessage = z.infer<typeof ProgressMessageSchema>;
