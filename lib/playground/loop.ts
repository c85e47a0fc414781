/**
 * The Playground's agent loop as a pure state machine (issue 15): `advance(state, event)` gives the
 * next state and the effects to carry out (call the model, ask for approval, call a tool, cancel,
 * finish). Nothing here does I/O, so the page drives it with real calls and a test drives it with
 * scripted events — and both see the same rules, the ones a careful host applies:
 *
 * - a step limit (model calls per user message, 10 unless set), after which the user decides;
 * - a call to a tool that does not exist, or with arguments that are not JSON or fail the tool's
 *   `inputSchema` (Ajv, configured as the forms are: tool-schema.ts), is not made: it goes back to
 *   the model as an error result saying what to fix, as hosts do, so the model can recover;
 * - every call waits for Approve / Deny / Always for this tool, unless `Approve every call` is on,
 *   the tool was allowed for good, or it is annotated `readOnlyHint` and read-only tools are
 *   auto-approved; a denied call goes back as an explained refusal;
 * - Stop cancels what is in flight and answers every open call, so the conversation stays one that
 *   both APIs accept (each tool call followed by its result) and the user can go on from it.
 */
import { checkInputSchema, validateArguments } from '../schema/tool-schema.ts';
import { callsOf, resultText, textOf, type Message, type ModelReply, type ModelRequest, type PlaygroundTool, type ToolCall, type ToolResult, type Usage } from './types.ts';

export type LoopStatus = 'idle' | 'awaiting-model' | 'awaiting-approval' | 'calling-tool' | 'done' | 'stopped' | 'failed';
export type CallStatus = 'awaiting-approval' | 'approved' | 'running' | 'done' | 'failed' | 'denied' | 'rejected' | 'cancelled';
export type ApprovedBy = 'user' | 'always' | 'read-only' | 'every-call';

export interface LoopOptions {
  maxSteps: number;
  /** `Approve every call`: no call waits for the user. */
  approveEvery: boolean;
  /** Calls to tools annotated `readOnlyHint: true` are approved without asking. */
  autoApproveReadOnly: boolean;
}

export const DEFAULT_LOOP_OPTIONS: LoopOptions = { maxSteps: 10, approveEvery: false, autoApproveReadOnly: false };

export interface CallStep {
  call: ToolCall;
  /** The server and tool the call maps to; absent for a tool that does not exist. */
  target?: { server: string; tool: string };
  status: CallStatus;
  approvedBy?: ApprovedBy;
  /** Why the call was not made or did not finish (the model is told the same). */
  problem?: string;
  result?: ToolResult;
  startedAt?: number;
  finishedAt?: number;
}

/** One model call and the tool calls it asked for. */
export interface Turn {
  /** 1 for the first model call after a user message. */
  step: number;
  requestedAt: number;
  latencyMs?: number;
  usage?: Usage;
  reply?: ModelReply;
  error?: string;
  calls: CallStep[];
}

export interface LoopState {
  options: LoopOptions;
  system?: string;
  tools: PlaygroundTool[];
  messages: Message[];
  turns: Turn[];
  /** Model calls since the last user message. */
  step: number;
  status: LoopStatus;
  /** Tools the user chose `Always for this tool` for, by exposed name. */
  alwaysAllowed: string[];
  /** Why the loop is done, stopped or failed, in words. */
  reason?: string;
}

export type LoopEvent =
  | { type: 'user-message'; text: string; at: number }
  | { type: 'model-reply'; reply: ModelReply; at: number }
  | { type: 'model-error'; message: string; at: number }
  /**
   * `why`: a denial's words for the model, instead of the user's; `by`: who approved, when not the
   * user (evals approve every call but a forbidden one, issue 27).
   */
  | { type: 'approval'; callId: string; decision: 'approve' | 'deny' | 'always'; at: number; why?: string; by?: ApprovedBy }
  | { type: 'tool-result'; callId: string; result: Omit<ToolResult, 'callId'>; at: number }
  | { type: 'tool-error'; callId: string; message: string; at: number }
  | { type: 'stop'; at: number };

export type LoopEffect =
  | { type: 'call-model'; step: number; request: ModelRequest }
  | { type: 'ask-approval'; callIds: string[] }
  | { type: 'call-tool'; callId: string; server: string; tool: string; arguments: Record<string, unknown> }
  | { type: 'cancel-tool'; callId: string; server: string }
  | { type: 'cancel-model' }
  | { type: 'finish'; status: 'done' | 'stopped' | 'failed'; reason?: string };

export interface Transition {
  state: LoopState;
  effects: LoopEffect[];
}

export function createLoop(init: { tools: PlaygroundTool[]; system?: string; options?: Partial<LoopOptions>; messages?: Message[] }): LoopState {
  return { options: { ...DEFAULT_LOOP_OPTIONS, ...init.options }, system: init.system, tools: init.tools, messages: init.messages ?? [], turns: [], step: 0, status: 'idle', alwaysAllowed: [] };
}

const q = (s: string) => JSON.stringify(s);
const ACTIVE: readonly LoopStatus[] = ['awaiting-model', 'awaiting-approval', 'calling-tool'];
const OPEN: readonly CallStatus[] = ['awaiting-approval', 'approved', 'running'];
const unchanged = (state: LoopState): Transition => ({ state, effects: [] });
const errorResult = (callId: string, text: string): ToolResult => ({ callId, content: [{ type: 'text', text }], isError: true });

function withLastTurn(state: LoopState, change: (turn: Turn) => Turn): LoopState {
  const last = state.turns.at(-1);
  return last === undefined ? state : { ...state, turns: [...state.turns.slice(0, -1), change(last)] };
}

function withCalls(state: LoopState, change: (step: CallStep) => CallStep): LoopState {
  return withLastTurn(state, (turn) => ({ ...turn, calls: turn.calls.map(change) }));
}

function callModel(state: LoopState, at: number): Transition {
  const step = state.step + 1;
  const next: LoopState = { ...state, step, status: 'awaiting-model', reason: undefined, turns: [...state.turns, { step, requestedAt: at, calls: [] }] };
  return { state: next, effects: [{ type: 'call-model', step, request: { system: state.system, messages: state.messages, tools: state.tools } }] };
}

/** Whether the call may be made at all, and if not, what the model is told. */
function screen(state: LoopState, call: ToolCall): CallStep {
  const tool = state.tools.find((t) => t.name === call.name);
  if (tool === undefined) {
    const names = state.tools.map((t) => t.name);
    const offer = names.length === 0 ? 'No tools are available.' : `The tools you can call are: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', …' : ''}.`;
    return rejected(call, undefined, `There is no tool named ${q(call.name)}; the call was not made. ${offer}`);
  }
  const target = { server: tool.server, tool: tool.tool };
  if (call.argumentsError !== undefined) {
    return rejected(call, target, `The call to ${q(call.name)} was not made: ${call.argumentsError}. Send the arguments as one JSON object that matches the tool's input schema.`);
  }
  // A schema that cannot be compiled is not held against the model: the server has the last word.
  const issues = validateArguments(checkInputSchema(tool.inputSchema), call.arguments);
  if (issues.length > 0) {
    return rejected(call, target, `The call to ${q(call.name)} was not made: its arguments do not match the tool's input schema (${issues.slice(0, 10).join('; ')}). Fix the arguments and call it again.`);
  }
  const approvedBy: ApprovedBy | undefined = state.options.approveEvery
    ? 'every-call'
    : state.alwaysAllowed.includes(tool.name)
      ? 'always'
      : state.options.autoApproveReadOnly && tool.readOnly
        ? 'read-only'
        : undefined;
  return approvedBy === undefined ? { call, target, status: 'awaiting-approval' } : { call, target, status: 'approved', approvedBy };
}

function rejected(call: ToolCall, target: CallStep['target'], problem: string): CallStep {
  return { call, target, status: 'rejected', problem, result: errorResult(call.id, problem) };
}

/** The next move once the calls of the last turn have changed: ask, call, or go back to the model. */
function proceed(state: LoopState, at: number, askAgain: boolean): Transition {
  const calls = state.turns.at(-1)?.calls ?? [];
  const waiting = calls.filter((c) => c.status === 'awaiting-approval');
  if (waiting.length > 0) {
    const next = { ...state, status: 'awaiting-approval' as const };
    return { state: next, effects: askAgain ? [{ type: 'ask-approval', callIds: waiting.map((c) => c.call.id) }] : [] };
  }
  const ready = calls.filter((c) => c.status === 'approved');
  if (ready.length > 0) {
    const next = withCalls({ ...state, status: 'calling-tool' }, (c) => (c.status === 'approved' ? { ...c, status: 'running', startedAt: at } : c));
    return { state: next, effects: ready.map((c) => ({ type: 'call-tool', callId: c.call.id, server: c.target!.server, tool: c.target!.tool, arguments: c.call.arguments })) };
  }
  if (calls.some((c) => c.status === 'running')) return unchanged({ ...state, status: 'calling-tool' });
  return observed(state, at);
}

/** Every call has its result: they go to the model, unless the step limit says the user decides first. */
function observed(state: LoopState, at: number): Transition {
  const calls = state.turns.at(-1)?.calls ?? [];
  const results = calls.map((c) => c.result ?? errorResult(c.call.id, 'The call has no result.'));
  const next: LoopState = { ...state, messages: [...state.messages, { role: 'tool', results }] };
  if (state.step >= state.options.maxSteps) {
    const reason = `Stopped after ${state.options.maxSteps} model calls (the step limit); send a message to let the model go on.`;
    return { state: { ...next, status: 'stopped', reason }, effects: [{ type: 'finish', status: 'stopped', reason }] };
  }
  return callModel(next, at);
}

function onReply(state: LoopState, reply: ModelReply, at: number): Transition {
  let next = withLastTurn(state, (turn) => ({ ...turn, reply, usage: reply.usage, latencyMs: at - turn.requestedAt }));
  next = { ...next, messages: [...next.messages, reply.message] };
  const calls = callsOf(reply.message);
  if (calls.length === 0) {
    const reason = reply.stopReason === 'max_tokens' ? 'The model stopped at its token limit; raise the limit or ask it to be brief.' : undefined;
    return { state: { ...next, status: 'done', reason }, effects: [{ type: 'finish', status: 'done', reason }] };
  }
  next = withLastTurn(next, (turn) => ({ ...turn, calls: calls.map((call) => screen(next, call)) }));
  return proceed(next, at, true);
}

function onApproval(state: LoopState, callId: string, decision: 'approve' | 'deny' | 'always', at: number, why?: string, by: ApprovedBy = 'user'): Transition {
  const step = state.turns.at(-1)?.calls.find((c) => c.call.id === callId && c.status === 'awaiting-approval');
  if (step === undefined) return unchanged(state);
  const name = step.call.name;
  let next = decision === 'always' ? { ...state, alwaysAllowed: [...state.alwaysAllowed, name] } : state;
  next = withCalls(next, (c) => {
    if (c.status !== 'awaiting-approval') return c;
    if (c.call.id === callId && decision === 'deny') {
      const problem = why ?? `The user denied this call to ${q(name)}, so it was not made. Do not repeat it unless the user asks; say what you wanted it for, or find another way.`;
      return { ...c, status: 'denied', problem, result: errorResult(c.call.id, problem) };
    }
    if (c.call.id === callId) return { ...c, status: 'approved', approvedBy: decision === 'always' ? 'always' : by };
    // `Always for this tool` answers the other waiting calls of the same tool too.
    if (decision === 'always' && c.call.name === name) return { ...c, status: 'approved', approvedBy: 'always' };
    return c;
  });
  return proceed(next, at, false);
}

function onToolOutcome(state: LoopState, callId: string, outcome: { result: ToolResult; failed?: string }, at: number): Transition {
  const found = state.turns.at(-1)?.calls.some((c) => c.call.id === callId && c.status === 'running');
  if (!found) return unchanged(state);
  const next = withCalls(state, (c) =>
    c.call.id === callId ? { ...c, status: outcome.failed ? 'failed' : 'done', problem: outcome.failed, result: outcome.result, finishedAt: at } : c,
  );
  return proceed(next, at, false);
}

function onStop(state: LoopState, at: number): Transition {
  const effects: LoopEffect[] = [];
  if (state.status === 'awaiting-model') effects.push({ type: 'cancel-model' });
  const calls = state.turns.at(-1)?.calls ?? [];
  for (const c of calls) if (c.status === 'running' && c.target) effects.push({ type: 'cancel-tool', callId: c.call.id, server: c.target.server });
  let next: LoopState = state.status === 'awaiting-model' ? withLastTurn(state, (turn) => ({ ...turn, error: 'Stopped before the model answered.', latencyMs: at - turn.requestedAt })) : state;
  if (state.status !== 'awaiting-model' && calls.some((c) => OPEN.includes(c.status))) {
    const problem = 'The user stopped the conversation before this call finished; it may or may not have taken effect.';
    next = withCalls(next, (c) => (OPEN.includes(c.status) ? { ...c, status: 'cancelled', problem, result: errorResult(c.call.id, problem), finishedAt: at } : c));
    const results = (next.turns.at(-1)?.calls ?? []).map((c) => c.result ?? errorResult(c.call.id, problem));
    next = { ...next, messages: [...next.messages, { role: 'tool', results }] };
  }
  const reason = 'Stopped by the user.';
  effects.push({ type: 'finish', status: 'stopped', reason });
  return { state: { ...next, status: 'stopped', reason }, effects };
}

/** The next state and what to do, for one event. An event that does not fit the state (a late result, a second Send) changes nothing. */
export function advance(state: LoopState, event: LoopEvent): Transition {
  switch (event.type) {
    case 'user-message':
      if (ACTIVE.includes(state.status) || event.text.trim() === '') return unchanged(state);
      return callModel({ ...state, step: 0, messages: [...state.messages, { role: 'user', text: event.text }] }, event.at);
    case 'model-reply':
      return state.status === 'awaiting-model' ? onReply(state, event.reply, event.at) : unchanged(state);
    case 'model-error': {
      if (state.status !== 'awaiting-model') return unchanged(state);
      const next = withLastTurn(state, (turn) => ({ ...turn, error: event.message, latencyMs: event.at - turn.requestedAt }));
      return { state: { ...next, status: 'failed', reason: event.message }, effects: [{ type: 'finish', status: 'failed', reason: event.message }] };
    }
    case 'approval':
      return state.status === 'awaiting-approval' ? onApproval(state, event.callId, event.decision, event.at, event.why, event.by) : unchanged(state);
    case 'tool-result':
      return onToolOutcome(state, event.callId, { result: { ...event.result, callId: event.callId } }, event.at);
    case 'tool-error': {
      const name = state.turns.at(-1)?.calls.find((c) => c.call.id === event.callId)?.call.name ?? 'the tool';
      const text = `Calling ${q(name)} failed: ${event.message}`;
      return onToolOutcome(state, event.callId, { result: errorResult(event.callId, text), failed: event.message }, event.at);
    }
    case 'stop':
      return ACTIVE.includes(state.status) ? onStop(state, event.at) : unchanged(state);
  }
}

/** A step of the loop as the page shows it: the model thinking, acting (a call), observing (its result). */
export type LoopStep =
  | { kind: 'think'; step: number; text: string; usage?: Usage; latencyMs?: number; error?: string; pending: boolean }
  | { kind: 'act'; step: number; call: CallStep }
  | { kind: 'observe'; step: number; callId: string; name: string; text: string; isError: boolean; result: ToolResult };

export function loopSteps(state: LoopState): LoopStep[] {
  return state.turns.flatMap((turn): LoopStep[] => {
    const think: LoopStep = { kind: 'think', step: turn.step, text: turn.reply ? textOf(turn.reply.message) : '', usage: turn.usage, latencyMs: turn.latencyMs, error: turn.error, pending: !turn.reply && !turn.error };
    const acts = turn.calls.flatMap((c): LoopStep[] => [
      { kind: 'act', step: turn.step, call: c },
      ...(c.result ? [{ kind: 'observe' as const, step: turn.step, callId: c.call.id, name: c.call.name, text: resultText(c.result), isError: c.result.isError, result: c.result }] : []),
    ]);
    return [think, ...acts];
  });
}

/** Tokens over the whole conversation. */
export function totalUsage(state: LoopState): Usage {
  return state.turns.reduce((sum, t) => ({ inputTokens: sum.inputTokens + (t.usage?.inputTokens ?? 0), outputTokens: sum.outputTokens + (t.usage?.outputTokens ?? 0) }), { inputTokens: 0, outputTokens: 0 });
}
