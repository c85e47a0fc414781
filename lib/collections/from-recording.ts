/**
 * A `--record` recording (the JSONL trace format, lib/trace/jsonl.ts) turned into a collection
 * (issue 27, "Turn this recording into a collection"): one call per request the client made that
 * the server answered, each with assertions proposed from the recorded answer (propose.ts).
 *
 * Which requests are the client's is `--verify`'s choice (lib/headless/verify-plan.ts planReplay):
 * the handshake and what the SDK sent by itself are left out, a 2026-07-28 call's rounds are one
 * call, the per-run progress token is taken out. Left out here too, each said in a note: pings,
 * list requests (unless `lists`: they pin the whole surface, which the lockfile does better), the
 * follow-ups of a task (`tasks/*`: the task id is new on each run), and requests without an answer.
 */
import { parseTrace } from '../trace/read-trace.ts';
import { conversationOf, type Exchange } from '../trace/exchanges.ts';
import { planReplay, type ReplayStep } from '../headless/verify-plan.ts';
import { callFromHistory, proposeAssertions, uniqueName } from './propose.ts';
import type { Collection, CollectionCall, PortOutcome } from './types.ts';
import type { TraceEvent } from '../wire/wire.ts';

export type FromRecording = { ok: true; collection: Collection; notes: string[] } | { ok: false; error: string };

const LISTS = new Set(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The collection named `name` made of a recording's text, with notes on what was left out and why. */
export function collectionFromRecording(text: string, name: string, options: { lists?: boolean } = {}): FromRecording {
  const parsed = parseTrace(text);
  if (!parsed.ok) return parsed;
  const plan = planReplay(parsed.trace);
  const notes = [...plan.problems];
  const left = new Map<string, number>();
  const leave = (why: string) => left.set(why, (left.get(why) ?? 0) + 1);
  for (const s of plan.skipped) leave(`${s.method}: ${s.why}`);
  if (plan.initialize) leave('initialize: the handshake, which every run makes by itself');
  const times = frameTimes(parsed.trace.events);
  // Every recorded listing counts, the SDK's own too (it lists tools to check structuredContent).
  const outputSchemas = recordedOutputSchemas(conversationOf(parsed.trace.events).exchanges);
  const calls: CollectionCall[] = [];
  for (const step of plan.steps) {
    const method = step.exchange.method;
    const why = leftOut(step, options);
    if (why !== undefined) {
      leave(`${method}: ${why}`);
      continue;
    }
    const call = callFromHistory(method, step.params);
    call.name = uniqueName(call.name, calls.map((c) => c.name));
    const outcome = recordedOutcome(step, times);
    const outputSchema = call.kind === 'tool' ? outputSchemas.get(call.target) : undefined;
    const assert = proposeAssertions(call, outcome, { outputSchema });
    calls.push(assert.length > 0 ? { ...call, assert } : call);
  }
  for (const [why, n] of left) notes.push(`Left out ${n === 1 ? 'one request' : `${n} requests`}, ${why}.`);
  if (calls.length === 0) return { ok: false, error: `The recording has no request to make a call of. ${notes.join(' ')}`.trim() };
  return { ok: true, collection: { name, calls }, notes };
}

function leftOut(step: ReplayStep, options: { lists?: boolean }): string | undefined {
  const method = step.exchange.method;
  if (method === 'ping') return 'a ping says nothing a test would check';
  if (LISTS.has(method) && !options.lists) return 'a list (the tool lockfile, --lock, pins the surface)';
  if (method.startsWith('tasks/')) return "a task's follow-up (the task id is new on each run)";
  if (!step.exchange.response) return 'no answer in the recording';
  if (!step.compare) return step.why ?? 'its recorded answer cannot be compared';
  return undefined;
}

/** The time each frame was recorded, by seq. */
function frameTimes(events: readonly TraceEvent[]): Map<number, number> {
  return new Map(events.filter((e) => e.kind === 'frame').map((e) => [e.seq, e.ts]));
}

/** The recorded answer as a port would have given it: result or error, the time it took, what came meanwhile. */
function recordedOutcome(step: ReplayStep, times: ReadonlyMap<number, number>): PortOutcome {
  const { exchange } = step;
  const response = exchange.response!;
  const sent = times.get(exchange.seq);
  const came = times.get(response.seq);
  const durationMs = sent !== undefined && came !== undefined ? Math.max(0, came - sent) : 0;
  const notifications = exchange.during.filter((m) => m.method.startsWith('notifications/')).map((m) => ({ method: m.method, params: m.params }));
  if (response.ok) return { ok: true, result: response.result, durationMs, notifications };
  const error = isObject(response.error) ? response.error : {};
  const code = typeof error.code === 'number' ? error.code : -32603;
  return { ok: false, error: { code, message: typeof error.message === 'string' ? error.message : '', ...(error.data !== undefined ? { data: error.data } : {}) }, durationMs, notifications };
}

/** Tools' outputSchema from the recorded tools/list answers (the last listing of a tool wins). */
function recordedOutputSchemas(exchanges: readonly Exchange[]): Map<string, unknown> {
  const schemas = new Map<string, unknown>();
  for (const exchange of exchanges) {
    const response = exchange.response;
    if (exchange.method !== 'tools/list' || !response?.ok || !isObject(response.result) || !Array.isArray(response.result.tools)) continue;
    for (const tool of response.result.tools) if (isObject(tool) && typeof tool.name === 'string' && tool.outputSchema !== undefined) schemas.set(tool.name, tool.outputSchema);
  }
  return schemas;
}
