/**
 * Interception on the wire (issue 13; lib/wire/wire.ts): the page edits the workspace's rules, and
 * decides what happens to a frame a `pause` rule holds. The proxy tells every page the rules in
 * force, each frame it holds and how each hold ended.
 */
import { z } from 'zod';
import { HeldFrameSchema, HoldDecisionSchema, HoldEndSchema, RuleSchema } from '../model/rules.ts';

/** UI → proxy: the workspace's rules from now on (saved with the workspace). */
export const SetRulesMessageSchema = z.object({ type: z.literal('set-rules'), rules: z.array(RuleSchema) });
export type SetRulesMessage = z.infer<typeof SetRulesMessageSchema>;

/** UI → proxy: what to do with one held frame. */
export const ReleaseHoldMessageSchema = z.object({ type: z.literal('release-hold'), holdId: z.string(), decision: HoldDecisionSchema });
export type ReleaseHoldMessage = z.infer<typeof ReleaseHoldMessageSchema>;

/** UI → proxy: forward every held frame as it is (of one session, or of all). */
export const ReleaseAllMessageSchema = z.object({ type: z.literal('release-all'), session: z.string().optional() });
export type ReleaseAllMessage = z.infer<typeof ReleaseAllMessageSchema>;

/** proxy → UI: the rules in force (after a change from any page, a workspace load, `--rules`). */
export const RulesMessageSchema = z.object({
  type: z.literal('rules'),
  rules: z.array(RuleSchema),
  /** Where they came from when not the page: `--rules FILE`, the workspace file. */
  source: z.string().optional(),
});
export type RulesMessage = z.infer<typeof RulesMessageSchema>;

/** proxy → UI: a frame is held. */
export const HoldMessageSchema = z.object({ type: z.literal('hold'), frame: HeldFrameSchema });
export type HoldMessage = z.infer<typeof HoldMessageSchema>;

/** proxy → UI: a hold ended (by any page, its timer, or its session going away). */
export const HoldDoneMessageSchema = z.object({ type: z.literal('hold-done'), holdId: z.string(), session: z.string(), how: HoldEndSchema });
export type HoldDoneMessage = z.infer<typeof HoldDoneMessageSchema>;
