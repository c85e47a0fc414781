/**
 * The runner (issue 27): a collection's calls, in order, through a port (the page's session, or the
 * headless SDK session of `--test`), each answer judged by its assertions. One runner for both faces,
 * so that the page and CI give the same verdicts on the same answers.
 *
 * A call becomes a request by its kind: `tool` → `tools/call {name, arguments}`, `resource` →
 * `resources/read {uri}`, `prompt` → `prompts/get {name, arguments}`, `request` → its target as the
 * method, with its `params`. After each answer its `extract` paths set variables for the calls after it.
 *
 * Verdicts:
 * - `passed`: every assertion held (a call without assertions passes when it is answered).
 * - `failed`: an assertion did not hold. An answer that is an error (a JSON-RPC error, or a tool
 *   result with `isError: true`) fails the call unless one of its assertions is about `isError`: a
 *   test that says nothing about errors expects none. The verdict reads like a failed assertion:
 *   "the call answered with an error: the JSON-RPC error -32602 …".
 * - `error`: no answer to judge: a variable is missing, the port threw, or the call timed out.
 * - `skipped`: not run: the run was stopped (every call after the stop), or the call was not among `only`.
 */
import { evaluatePath, parsePath } from '../json/json-path.ts';
import { checkAssertion, describeAnswerError, errorKindOf, rootOf } from './assertions.ts';
import { fillCall, type FilledCall } from './variables.ts';
import type { AssertionVerdict, CallPort, CallStatus, CallVerdict, Collection, CollectionCall, CollectionVerdict, PortOutcome } from './types.ts';

/** A call's limit when neither it nor the run names one. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** How long after its limit the runner stops waiting for a port that did not time the call out itself. */
const PORT_GRACE_MS = 2_000;

export interface RunOptions {
  /** `--var NAME=VALUE`: win over the collection's variables and over extracts. */
  variables?: Record<string, unknown>;
  /** Each call's limit unless the call sets its own `timeoutMs`. */
  timeoutMs?: number;
  /** Run only the calls with these names; the others are `skipped`. */
  only?: string[];
  /** Why not to run this collection at all (a collection for another server of the workspace): its calls are `skipped` with it. */
  skipCollection?(collection: Collection): string | undefined;
  /** Stops the run: the call in flight and every call after it are `skipped`. */
  signal?: AbortSignal;
  /** Each call's verdict, as soon as it is known (the page's table fills in as the run goes). */
  onCall?(v: CallVerdict): void;
}

/** The request a call sends, variables filled in. */
export function requestOf(kind: CollectionCall['kind'], call: FilledCall): { method: string; params: Record<string, unknown> } {
  switch (kind) {
    case 'tool':
      return { method: 'tools/call', params: { name: call.target, arguments: call.arguments ?? {} } };
    case 'resource':
      return { method: 'resources/read', params: { uri: call.target } };
    case 'prompt':
      return { method: 'prompts/get', params: { name: call.target, ...(call.arguments !== undefined ? { arguments: call.arguments } : {}) } };
    default:
      return { method: call.target, params: call.params ?? {} };
  }
}

/** What the calls of one collection share as the run goes: extracted values, and why an expected one is missing. */
interface RunState {
  extracted: Record<string, unknown>;
  why: Record<string, string>;
  /** Why the whole collection is not run (RunOptions.skipCollection). */
  skipped?: string;
}

const now = (): number => performance.now();
const zero = (): Record<CallStatus, number> => ({ passed: 0, failed: 0, error: 0, skipped: 0 });

/** Runs one collection's calls in order. Never throws: whatever goes wrong is a verdict. */
export async function runCollection(collection: Collection, port: CallPort, options: RunOptions = {}): Promise<CollectionVerdict> {
  const started = now();
  const state: RunState = { extracted: {}, why: {}, skipped: options.skipCollection?.(collection) };
  const calls: CallVerdict[] = [];
  const counts = zero();
  for (const call of collection.calls) {
    const verdict = await runCall(collection, call, port, options, state);
    calls.push(verdict);
    counts[verdict.status] += 1;
    options.onCall?.(verdict);
  }
  return { name: collection.name, calls, counts, durationMs: now() - started };
}

/** Runs collections one after the other, each with its own variables. */
export async function runCollections(list: readonly Collection[], port: CallPort, options: RunOptions = {}): Promise<CollectionVerdict[]> {
  const verdicts: CollectionVerdict[] = [];
  for (const collection of list) verdicts.push(await runCollection(collection, port, options));
  return verdicts;
}

async function runCall(collection: Collection, call: CollectionCall, port: CallPort, options: RunOptions, state: RunState): Promise<CallVerdict> {
  const base = { collection: collection.name, call: call.name, assertions: [] as AssertionVerdict[], durationMs: 0 };
  const notRun = (status: 'skipped' | 'error', reason: string, extra: Partial<CallVerdict> = {}): CallVerdict => {
    const because = status === 'skipped' ? 'did not run' : 'ended without an answer';
    for (const name of Object.keys(call.extract ?? {})) state.why[name] = `the call ${JSON.stringify(call.name)}, which extracts it, ${because}`;
    return { ...base, status, reason, ...extra };
  };
  if (state.skipped !== undefined) return notRun('skipped', state.skipped);
  if (options.signal?.aborted) return notRun('skipped', 'The run was stopped before this call.');
  if (options.only !== undefined && !options.only.includes(call.name)) return notRun('skipped', 'Not chosen for this run.');
  const variables = { ...collection.variables, ...state.extracted, ...options.variables };
  const filled = fillCall(call, variables, state.why);
  if (!filled.ok) return notRun('error', filled.error);
  const request = requestOf(call.kind, filled.call);
  const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const outputSchema = call.kind === 'tool' && call.assert?.some((a) => 'outputSchema' in a) ? await port.outputSchemaOf(filled.call.target).catch(() => undefined) : undefined;
  const started = now();
  const sent = await send(port, request, timeoutMs, options.signal);
  const measured = now() - started;
  if (sent.kind === 'aborted') return notRun('skipped', 'The run was stopped while this call waited for its answer.', { request, durationMs: measured });
  if (sent.kind === 'threw') return notRun('error', `The call could not be made: ${sent.message}`, { request, durationMs: measured });
  const outcome = sent.outcome;
  const noAnswer = unanswered(outcome, timeoutMs);
  if (noAnswer !== undefined) return notRun('error', noAnswer, { request, outcome, durationMs: outcome.durationMs ?? measured });
  const assertions = await judge(call, outcome, outputSchema);
  const notes = extract(call, outcome, state);
  const status: CallStatus = assertions.every((a) => a.ok) ? 'passed' : 'failed';
  const extracted = Object.fromEntries(Object.keys(call.extract ?? {}).filter((n) => Object.hasOwn(state.extracted, n)).map((n) => [n, state.extracted[n]]));
  return { ...base, status, request, outcome, assertions, durationMs: outcome.durationMs, ...(call.extract ? { extracted } : {}), ...(notes.length > 0 ? { notes } : {}) };
}

type Sent = { kind: 'answer'; outcome: PortOutcome } | { kind: 'threw'; message: string } | { kind: 'aborted' };

/** The port's answer, or why there is none: it threw, the run was stopped, or it did not answer in time. */
async function send(port: CallPort, request: { method: string; params: Record<string, unknown> }, timeoutMs: number, signal?: AbortSignal): Promise<Sent> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const giveUp = new Promise<Sent>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'answer', outcome: { ok: false, error: { code: 'TIMEOUT', message: `No answer within ${timeoutMs} ms.` }, durationMs: timeoutMs, notifications: [] } }), timeoutMs + PORT_GRACE_MS);
    onAbort = () => resolve({ kind: 'aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const asked = port.request(request.method, request.params, { timeoutMs, ...(signal ? { signal } : {}) }).then(
    (outcome): Sent => ({ kind: 'answer', outcome }),
    (error: unknown): Sent => ({ kind: 'threw', message: error instanceof Error ? error.message : String(error) }),
  );
  try {
    return await Promise.race([asked, giveUp]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** Why an outcome is no answer to judge (Loupe's own error, a timeout), or undefined when it is one. */
function unanswered(outcome: PortOutcome, timeoutMs: number): string | undefined {
  if (outcome.ok) return undefined;
  const error = outcome.error ?? { code: 'UNKNOWN', message: 'The port gave neither a result nor an error.' };
  const timedOut = error.code === 'TIMEOUT' || (error.code === -32001 && /timed out/i.test(error.message));
  if (timedOut) return `No answer within ${timeoutMs} ms.`;
  if (typeof error.code === 'string') return `Loupe got no answer: ${error.message.replace(/\.$/, '')} (${error.code}).`;
  return undefined;
}

/** Every assertion's verdict, with the implicit one first when an error answer meets no isError assertion. */
async function judge(call: CollectionCall, outcome: PortOutcome, outputSchema: unknown): Promise<AssertionVerdict[]> {
  const verdicts: AssertionVerdict[] = [];
  const asserts = call.assert ?? [];
  if (errorKindOf(outcome) !== undefined && !asserts.some((a) => 'isError' in a)) {
    verdicts.push({
      assertion: { isError: false },
      ok: false,
      label: 'the call answered without an error (no isError assertion expects one)',
      expected: false,
      actual: true,
      message: `the call answered with an error: ${describeAnswerError(outcome)}; add { "isError": true } if that is what it should do`,
    });
  }
  for (const a of asserts) verdicts.push(await checkAssertion(a, { outcome, outputSchema }));
  return verdicts;
}

/** Sets the call's extracted variables; notes what an extract path did not find. */
function extract(call: CollectionCall, outcome: PortOutcome, state: RunState): string[] {
  const notes: string[] = [];
  const root = rootOf(outcome);
  for (const [name, text] of Object.entries(call.extract ?? {})) {
    const parsed = parsePath(text);
    const found = parsed.ok ? evaluatePath(parsed.path, root) : [];
    if (found.length > 0) {
      state.extracted[name] = found[0].value;
      delete state.why[name];
      continue;
    }
    delete state.extracted[name];
    state.why[name] = `the call ${JSON.stringify(call.name)} extracts it with ${text}, which found nothing in its answer`;
    notes.push(`{{${name}}}: ${text} found nothing in the answer.`);
  }
  return notes;
}
