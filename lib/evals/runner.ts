/**
 * Running eval cases (issue 27): each run is one Playground conversation driven to its end by the
 * Playground's own loop (lib/playground/loop.ts), so that evals meet the same rules the person meets
 * in the tab: the step limit, unknown tools and bad arguments sent back to the model as explained
 * errors. Nothing here does I/O: a driver makes the model calls and the tool calls (the proxy's
 * provider calls and the session's `tools/call` headless; the page's `playground-call` and its
 * session requests in the browser), so both faces give the same verdicts on the same answers.
 *
 * Approvals: no person is there, so every call is approved, except a call to a tool the case
 * forbids: that one is denied, never made, and the model hears it was refused (the loop's words);
 * the verdict says "forbidden tool … called (refused, not run)".
 *
 * Runs go `concurrency` at a time (2 by default: providers rate-limit, and a stdio server answers
 * one call after another anyway).
 */
import { advance, createLoop, type LoopEffect, type LoopEvent, type LoopState } from '../playground/loop.ts';
import type { ModelReply, ModelRequest, PlaygroundTool, ToolResult, Usage } from '../playground/types.ts';
import type { EvalModel } from './models.ts';
import { DEFAULT_MAX_STEPS, type EvalCase } from './schema.ts';
import { callIs, scoreRun, type RunTranscript, type Verdict } from './score.ts';

export type ModelOutcome = { ok: true; reply: ModelReply } | { ok: false; error: string };
export type ToolOutcome = { ok: true; result: Omit<ToolResult, 'callId'> } | { ok: false; error: string };

/** Where a run's calls go. Neither call may throw (a throw is taken as a failed call, in its words). */
export interface EvalDriver {
  callModel(model: EvalModel, request: ModelRequest): Promise<ModelOutcome>;
  callTool(target: { server: string; tool: string }, args: Record<string, unknown>): Promise<ToolOutcome>;
  now(): number;
}

export interface RunJob {
  case: EvalCase;
  model: EvalModel;
  /** 1 for the first run of this case with this model. */
  repeat: number;
}

export interface RunRecord {
  case: string;
  model: string;
  repeat: number;
  verdict: Verdict;
  usage: Usage;
  /** US dollars: the sum of what the provider reported, when it reported the cost of every model call. */
  reportedCost?: number;
  /** From the prompt to the answer, tool calls included. */
  durationMs: number;
  /** The model calls alone. */
  modelMs: number;
  transcript: RunTranscript;
}

export interface RunOptions {
  concurrency?: number;
  /** Each run as it ends, with its index in the plan. */
  onRecord?(record: RunRecord, index: number): void;
  /** Checked between steps: once true, no run starts and the running ones stop at their next step. */
  stopped?(): boolean;
}

export const DEFAULT_CONCURRENCY = 2;
const STOPPED = 'the run was stopped before it finished';

/** Every case × model × repeat, case by case. */
export function planJobs(cases: readonly EvalCase[], models: readonly EvalModel[], repeats: number): RunJob[] {
  return cases.flatMap((c) => models.flatMap((model) => Array.from({ length: repeats }, (_, r) => ({ case: c, model, repeat: r + 1 }))));
}

const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The event that answers one effect (none for the effects a run needs not answer). */
async function answer(effect: LoopEffect, state: LoopState, job: RunJob, driver: EvalDriver): Promise<LoopEvent[]> {
  if (effect.type === 'call-model') {
    const out = await driver.callModel(job.model, effect.request).catch((error: unknown): ModelOutcome => ({ ok: false, error: failure(error) }));
    return [out.ok ? { type: 'model-reply', reply: out.reply, at: driver.now() } : { type: 'model-error', message: out.error, at: driver.now() }];
  }
  if (effect.type === 'ask-approval') {
    const calls = state.turns.at(-1)?.calls ?? [];
    return effect.callIds.map((callId): LoopEvent => {
      const step = calls.find((c) => c.call.id === callId);
      const forbidden = step !== undefined && (job.case.expect.forbid ?? []).some((name) => callIs(name, step));
      if (!forbidden) return { type: 'approval', callId, decision: 'approve', by: 'every-call', at: driver.now() };
      return { type: 'approval', callId, decision: 'deny', why: `The call to ${JSON.stringify(step.call.name)} was refused and not made: this eval forbids it. Go on without it.`, at: driver.now() };
    });
  }
  if (effect.type === 'call-tool') {
    const out = await driver.callTool({ server: effect.server, tool: effect.tool }, effect.arguments).catch((error: unknown): ToolOutcome => ({ ok: false, error: failure(error) }));
    return [out.ok ? { type: 'tool-result', callId: effect.callId, result: out.result, at: driver.now() } : { type: 'tool-error', callId: effect.callId, message: out.error, at: driver.now() }];
  }
  return [];
}

function totals(state: LoopState): { usage: Usage; reportedCost?: number; modelMs: number } {
  const replied = state.turns.filter((t) => t.reply !== undefined);
  const usage = state.turns.reduce((sum, t) => ({ inputTokens: sum.inputTokens + (t.usage?.inputTokens ?? 0), outputTokens: sum.outputTokens + (t.usage?.outputTokens ?? 0) }), { inputTokens: 0, outputTokens: 0 });
  const reported = replied.length > 0 && replied.every((t) => typeof t.usage?.cost === 'number');
  const modelMs = state.turns.reduce((sum, t) => sum + (t.latencyMs ?? 0), 0);
  return { usage, modelMs, ...(reported ? { reportedCost: replied.reduce((sum, t) => sum + t.usage!.cost!, 0) } : {}) };
}

/** One run of one case with one model, to its verdict. Never throws. */
export async function runOne(job: RunJob, tools: readonly PlaygroundTool[], driver: EvalDriver, stopped: () => boolean = () => false): Promise<RunRecord> {
  const started = driver.now();
  const options = { maxSteps: job.case.expect.maxSteps ?? DEFAULT_MAX_STEPS, approveEvery: false, autoApproveReadOnly: false };
  const first = advance(createLoop({ tools: [...tools], system: job.case.system, options }), { type: 'user-message', text: job.case.prompt, at: started });
  let state = first.state;
  const queue = [...first.effects];
  let cut = false;
  while (queue.length > 0) {
    if (stopped()) {
      cut = true;
      state = advance(state, { type: 'stop', at: driver.now() }).state;
      break;
    }
    const effect = queue.shift()!;
    if (effect.type === 'finish') break;
    for (const event of await answer(effect, state, job, driver)) {
      const next = advance(state, event);
      state = next.state;
      queue.push(...next.effects);
    }
  }
  const status = state.status === 'done' || state.status === 'failed' ? state.status : 'stopped';
  const transcript: RunTranscript = { status, ...(state.reason !== undefined ? { reason: state.reason } : {}), messages: state.messages, turns: state.turns };
  const verdict = cut ? { pass: false, reasons: [STOPPED], error: STOPPED } : scoreRun(job.case, transcript);
  return { case: job.case.name, model: job.model.label, repeat: job.repeat, verdict, ...totals(state), durationMs: driver.now() - started, transcript };
}

/** Every job, `concurrency` at a time; the records in the plan's order (those that ran). */
export async function runEvals(jobs: readonly RunJob[], tools: readonly PlaygroundTool[], driver: EvalDriver, options: RunOptions = {}): Promise<RunRecord[]> {
  const stopped = options.stopped ?? (() => false);
  const records: (RunRecord | undefined)[] = jobs.map(() => undefined);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length && !stopped()) {
      const index = next++;
      const record = await runOne(jobs[index], tools, driver, stopped);
      records[index] = record;
      options.onRecord?.(record, index);
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, jobs.length));
  await Promise.all(Array.from({ length: width }, worker));
  return records.filter((r): r is RunRecord => r !== undefined);
}
