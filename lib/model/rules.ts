/**
 * Interception rules (issue 13): pure data, checked with zod, the same in the workspace file
 * (`x-mcp-loupe.rules`), a `--rules FILE`, the page's Intercept tab and the wire. One interpreter
 * applies them (lib/rules/rules.ts); the proxy's frame pipeline carries its decisions out
 * (proxy/pipeline/pipeline.ts). The format is documented in docs/rules.md.
 */
import { z } from 'zod';

/** Which way a frame goes: from the client (Loupe, a host) to the server, or back. */
export const DirectionSchema = z.enum(['to-server', 'to-client']);
export type Direction = z.infer<typeof DirectionSchema>;

export const RuleMatchSchema = z
  .object({
    /** Default `both`. */
    direction: z.enum(['to-server', 'to-client', 'both']).optional(),
    /** Default `any`. A response (or error) is a `response`. */
    kind: z.enum(['request', 'response', 'notification', 'any']).optional(),
    /** The method, `*` a wildcard (`tools/*`). A response matches by the method of its request. */
    method: z.string().min(1).optional(),
    /**
     * The tool of `tools/call`, the prompt of `prompts/get`, the URI of `resources/read` /
     * `resources/subscribe` (`*` a wildcard); a response matches by its request's.
     */
    name: z.string().min(1).optional(),
    /** A substring of the frame's exact text. */
    text: z.string().min(1).optional(),
    /** `tools/call` only: the argument at this dotted path, as text (JSON for non-strings), matches the regular expression. */
    argument: z.object({ path: z.string().min(1), pattern: z.string() }).optional(),
  })
  .strict();
export type RuleMatch = z.infer<typeof RuleMatchSchema>;

const ms = z.number().int().min(0).max(600_000);
const count = z.number().int().min(1).max(1_000_000);

export const RuleActionSchema = z.discriminatedUnion('type', [
  /** A breakpoint: the frame is held until a person forwards, edits, drops or answers it (or its timer ends). */
  z.object({ type: z.literal('pause') }).strict(),
  /** Forward the frame N ms late. */
  z.object({ type: z.literal('delay'), ms }).strict(),
  /** Forward nothing. */
  z.object({ type: z.literal('drop') }).strict(),
  /** A response: its `result` replaced. A request: answered with this result, not forwarded. */
  z.object({ type: z.literal('replace-result'), result: z.record(z.string(), z.unknown()) }).strict(),
  /** A request: answered with this JSON-RPC error, not forwarded. A response: turned into this error. */
  z.object({ type: z.literal('error'), code: z.number().int().optional(), message: z.string().optional(), data: z.unknown().optional() }).strict(),
  /** Forward text that is no longer JSON. */
  z.object({ type: z.literal('corrupt') }).strict(),
  /** Forward the first `bytes` of the frame (default: half of it). */
  z.object({ type: z.literal('truncate'), bytes: z.number().int().min(0).optional() }).strict(),
  /** The Nth matching frame (default 1) is forwarded, then the transport is closed. */
  z.object({ type: z.literal('close'), after: count.optional() }).strict(),
  /** The Nth matching frame (default 1) is forwarded, then the server is killed (stdio: SIGKILL its process group). */
  z.object({ type: z.literal('kill'), after: count.optional() }).strict(),
  /** Slow a stream: each matching frame is forwarded N ms after the previous one of this rule was. */
  z.object({ type: z.literal('slow'), ms }).strict(),
  /**
   * A permission gate: a `tools/call` is not forwarded; the caller gets a tool result with
   * `isError: true` whose text explains the refusal (`message`, or Loupe's words).
   */
  z.object({ type: z.literal('deny'), message: z.string().optional() }).strict(),
]);
export type RuleAction = z.infer<typeof RuleActionSchema>;
export type RuleActionType = RuleAction['type'];

export const RuleSchema = z
  .object({
    /** Unique in the list; given (`r1`, `r2` …) where a file leaves it out. */
    id: z.string().min(1),
    /** Shown in the trace and the page; default: a description of the rule. */
    name: z.string().optional(),
    /** Default true. A disabled rule costs nothing on the frame path. */
    enabled: z.boolean().optional(),
    /** The name of the server (session) it applies to; absent: every one. */
    server: z.string().optional(),
    match: RuleMatchSchema,
    action: RuleActionSchema,
  })
  .strict();
export type Rule = z.infer<typeof RuleSchema>;

/** How a decision names the rule that made it (the trace and the page show it). */
export interface RuleRef {
  id: string;
  name: string;
  action: RuleActionType;
}

/**
 * What the interpreter decided for one frame (lib/rules/rules.ts). The pipeline carries it out:
 * - `pass`: forward as is;
 * - `hold`: ask a person (a `pause` rule);
 * - `delay`: forward after `ms` (`slow` rules give delays that keep their frames in order);
 * - `drop`: forward nothing;
 * - `rewrite`: forward `raw` instead;
 * - `answer`: forward nothing and send `raw` back to the sender (a request answered by a rule);
 * - `close` / `kill`: forward the frame, then close the transport / kill the server.
 * `what` says in plain words what was done ("replaced the result", "answered -32000 …").
 */
export type Decision =
  | { kind: 'pass' }
  | { kind: 'hold'; rule: RuleRef }
  | { kind: 'delay'; ms: number; rule: RuleRef; what: string }
  | { kind: 'drop'; rule: RuleRef; what: string }
  | { kind: 'rewrite'; raw: string; rule: RuleRef; what: string }
  | { kind: 'answer'; raw: string; rule: RuleRef; what: string }
  | { kind: 'close' | 'kill'; rule: RuleRef; what: string };

/** What a person did with a held frame (the Intercept tab). */
export const HoldDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('forward') }),
  z.object({ action: z.literal('forward-edited'), raw: z.string() }),
  z.object({ action: z.literal('drop') }),
  /** Answer the sender instead (a request: the person's response, e.g. an error). */
  z.object({ action: z.literal('respond'), raw: z.string() }),
]);
export type HoldDecision = z.infer<typeof HoldDecisionSchema>;

/** A frame a `pause` rule holds, as the page shows it. */
export const HeldFrameSchema = z.object({
  holdId: z.string(),
  session: z.string(),
  dir: DirectionSchema,
  raw: z.string(),
  rule: z.object({ id: z.string(), name: z.string(), action: z.string() }),
  /** Milliseconds since the epoch when it was held. */
  since: z.number(),
  /** Forwarded as is after this many ms if nobody decides. */
  timeoutMs: z.number(),
  method: z.string().optional(),
  /** A request: `Respond instead` can answer it. */
  isRequest: z.boolean(),
});
export type HeldFrame = z.infer<typeof HeldFrameSchema>;

/** How a hold ended (the page's row says it; `gone`: the session ended first). */
export const HoldEndSchema = z.enum(['forwarded', 'edited', 'dropped', 'responded', 'timeout', 'gone']);
export type HoldEnd = z.infer<typeof HoldEndSchema>;

