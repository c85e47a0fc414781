/**
 * The protocol between a `mcp-loupe --tap` process and the Loupe it attached to (issue 13), on a
 * WebSocket at `/tap?token=…`: the tap says who it relays for (`hello`), then streams the trace
 * events it recorded (with its own seq and ts, so that links between them and the times survive)
 * and asks about frames a `pause` rule holds; Loupe sends the rules in force and the decisions on
 * held frames, and tells the tap when the page stops watching. Both ends check what they receive
 * with these schemas: a tap is another process, and a bad message must never take Loupe down.
 */
import { z } from 'zod';
import { TraceEventSchema } from './events.ts';
import { DirectionSchema, HoldDecisionSchema, HoldEndSchema, RuleActionSchema, RuleSchema, type RuleActionType } from '../model/rules.ts';

/** Bumped when a message changes incompatibly: each end refuses the other's other number. */
export const TAP_PROTOCOL = 1;

// ---------------------------------------------------------------------------------------------
// tap → Loupe

export const TapHelloSchema = z.object({
  type: z.literal('hello'),
  protocol: z.number(),
  /** `--label`; absent: the host's clientInfo names the session once it sends initialize. */
  label: z.string().optional(),
  command: z.string(),
  args: z.array(z.string()),
  /** The server's pid (the tap's own where the server did not start). */
  pid: z.number(),
  /** The tap's mcp-loupe version. */
  version: z.string(),
});
export type TapHello = z.infer<typeof TapHelloSchema>;

export const TapEventsSchema = z.object({
  type: z.literal('events'),
  /** Recorded by the tap, in order; `seq` is the tap's own, `ts` when it happened there. */
  events: z.array(TraceEventSchema),
  /** Events the tap could not keep for Loupe since the last batch (before the attach, or while Loupe was slow). */
  dropped: z.number().int().min(0).optional(),
});

const ACTION_TYPES = RuleActionSchema.options.map((option) => option.shape.type.value) as [RuleActionType, ...RuleActionType[]];

export const TapHoldSchema = z.object({
  type: z.literal('hold'),
  /** The tap's id for this hold; the outcome comes back with it. */
  id: z.string(),
  dir: DirectionSchema,
  raw: z.string(),
  rule: z.object({ id: z.string(), name: z.string(), action: z.enum(ACTION_TYPES) }),
  method: z.string().optional(),
  isRequest: z.boolean(),
});
export type TapHold = z.infer<typeof TapHoldSchema>;

export const TapToLoupeSchema = z.discriminatedUnion('type', [TapHelloSchema, TapEventsSchema, TapHoldSchema]);
export type TapToLoupe = z.infer<typeof TapToLoupeSchema>;

// ---------------------------------------------------------------------------------------------
// Loupe → tap

export const TapWelcomeSchema = z.object({ type: z.literal('welcome'), protocol: z.number(), session: z.string() });

/** The rules in force in that Loupe (the page's): the tap applies them after its own `--rules`. */
export const TapRulesSchema = z.object({
  type: z.literal('rules'),
  version: z.number(),
  rules: z.array(RuleSchema),
  /** The session's name in Loupe, for rules scoped to a server. */
  server: z.string(),
});

export const TapHoldOutcomeSchema = z.object({
  type: z.literal('hold-outcome'),
  id: z.string(),
  decision: HoldDecisionSchema,
  how: HoldEndSchema,
  heldMs: z.number(),
});

/** The page stopped watching (Disconnect, Remove): the tap goes on relaying, alone. */
export const TapDetachSchema = z.object({ type: z.literal('detach'), message: z.string() });

export const LoupeToTapSchema = z.discriminatedUnion('type', [TapWelcomeSchema, TapRulesSchema, TapHoldOutcomeSchema, TapDetachSchema]);
export type LoupeToTap = z.infer<typeof LoupeToTapSchema>;

/** Parses one message of the other end; undefined when it is not one (the caller logs it). */
export function parseTapMessage<T>(schema: z.ZodType<T>, text: string): { ok: true; value: T } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}` };
}
