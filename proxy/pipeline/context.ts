/**
 * What a session's frame pipeline (frame-pipeline.ts, issue 13) needs from its surroundings: the
 * trace to record interventions in, the rules in force, and someone to ask about a held frame.
 * The engine gives one per session (Loupe's own, tapped, gateway); the tap process builds its own
 * from `--rules` and the Loupe it attached to.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Rule } from '../../lib/model/rules.ts';
import type { HoldOutcome, HoldRequest } from './hold-broker.ts';
import type { TraceRecorder } from './trace-recorder.ts';

export interface RuleSet {
  /** Bumped on every change: a pipeline rebuilds its RuleBook (and so its counters) when it moves. */
  version: number;
  rules: readonly Rule[];
}

export interface PipelineContext {
  /** The session id (holds are keyed by it). */
  session: string;
  /** The session's name now, for rules scoped by `server`. */
  server(): string;
  trace: TraceRecorder;
  rules(): RuleSet;
  /** Absent (a tap with no Loupe attached): a `pause` rule lets its frame pass, and the trace says so. */
  hold?(request: HoldRequest): Promise<HoldOutcome>;
  /**
   * What a message Loupe itself sends gets on its way, before the rules see it (issue 28: a
   * `traceparent` in a request's `params._meta`). Never a message with an exact text (one the page
   * sent as written, a rewrite): that text is what goes.
   */
  stamp?(message: JSONRPCMessage): JSONRPCMessage;
}
