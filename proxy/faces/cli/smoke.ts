/**
 * `--smoke` (issue 10): list every tool and call each one, first with arguments synthesised from
 * its `inputSchema` (lib/schema/synth.ts), then with a few that must be refused, and say per tool
 * what happened: a result, `isError`, a JSON-RPC error, a timeout, a crash, a `structuredContent`
 * that breaks the `outputSchema`. A tool that may change data is not called unless the user says
 * so (lib/headless/smoke-writes.ts): the arguments are made up, the data is the user's. A tool that kills the server is named with the exit and the end
 * of stderr, and Loupe starts the server again for the next tool, so one bad tool does not hide
 * the rest. The report is pure data (lib/headless/smoke-report.ts); this module only drives the session.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 */
import { modelMaySee, viewUriOf } from '../../../lib/apps/meta.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchAllPages } from '../../../lib/client/paged-list.ts';
import { isRpcError } from '../../../lib/client/outcome-text.ts';
import { stringifySafe } from '../../../lib/json/safe-json.ts';
import { negativeCases, synthArguments } from '../../../lib/schema/synth.ts';
import { RESULT_TEXT_LIMIT, worstVerdict, type SmokeCase, type SmokeCaseKind, type SmokeCrash, type SmokeOutcome, type SmokeReport, type SmokeTool, type SmokeVerdict } from '../../../lib/headless/smoke-report.ts';
import { carriedOutcome, createdTask, isTerminal, parseTask, pollDelay, serverRunsToolTasks, serverTaskFeature, taskCallParams, taskHandle, taskSupportOf, wantsResult } from '../../../lib/client/tasks.ts';
import { isTimeout, judgeCall } from '../../../lib/headless/smoke-verdict.ts';
import { mayChangeData } from '../../../lib/headless/smoke-writes.ts';
import { parseTools, type SchemaCheck, type ToolHints } from '../../../lib/schema/tool-schema.ts';
import type { LoupeError, RpcError } from '../../../lib/wire/wire.ts';
import type { RequestOutcome, Session } from '../../session/session.ts';

export { formatSmokeText, smokeExitCode, smokeJunit } from '../../../lib/headless/smoke-report.ts';
export type { SmokeReport } from '../../../lib/headless/smoke-report.ts';

export interface SmokeOptions {
  /** Per call; a task has this long from tools/call to its result. */
  timeoutMs: number;
  /** Also send the negative cases (missing required, wrong type, `{}`). */
  negative: boolean;
  /** `--allow-writes`: also call the tools that may change data (no `readOnlyHint: true`). */
  allowWrites: boolean;
}

type Obj = Record<string, unknown>;

/** A listed tool as far as smoke needs it: its entry as listed and its schemas checked. */
interface Target {
  name: string;
  raw: Obj;
  hints: ToolHints;
  check: SchemaCheck;
  output?: SchemaCheck;
}

interface Step {
  kind: SmokeCaseKind;
  label: string;
  args: Obj;
}

interface Run {
  session: Session;
  options: SmokeOptions;
  calls: number;
  restarts: number;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function request(run: Run, method: string, params: Obj | undefined, timeoutMs = run.options.timeoutMs): Promise<RequestOutcome> {
  return run.session.request(`smoke-${++run.calls}`, method, params, { timeoutMs });
}

export async function runSmoke(session: Session, options: SmokeOptions): Promise<SmokeReport> {
  const started = Date.now();
  const info = session.snapshot();
  const run: Run = { session, options, calls: 0, restarts: 0 };
  const listed = await listTools(run);
  const tools: SmokeTool[] = [];
  for (const [index, target] of listed.targets.entries()) {
    if (session.status !== 'connected') {
      blameQuietExit(tools.at(-1), session);
      const why = await restart(run);
      if (why !== undefined) {
        for (const rest of listed.targets.slice(index)) tools.push(toolReport(rest.name, [notRun('not-run', 'skipped', why)], 0));
        break;
      }
    }
    tools.push(await smokeTool(run, target));
    if (index === listed.targets.length - 1 && session.status !== 'connected') blameQuietExit(tools.at(-1), session);
  }
  return {
    server: { name: info.serverInfo?.name, version: info.serverInfo?.version },
    protocolVersion: info.protocolVersion,
    startedAt: new Date(started).toISOString(),
    ms: Date.now() - started,
    timeoutMs: options.timeoutMs,
    negative: options.negative,
    allowWrites: options.allowWrites,
    tools,
    listError: listed.error,
    problems: listed.problems,
    restarts: run.restarts,
  };
}

async function listTools(run: Run): Promise<{ targets: Target[]; problems: string[]; error?: SmokeReport['listError'] }> {
  let failure: RpcError | LoupeError | undefined;
  const paged = await fetchAllPages(async (cursor) => {
    const outcome = await request(run, 'tools/list', cursor === undefined ? undefined : { cursor });
    if (!outcome.ok) failure = outcome.error;
    return outcome;
  }, 'tools');
  const problems = paged.note ? [paged.note] : [];
  const targets: Target[] = [];
  const seen = new Set<string>();
  for (const [index, item] of paged.items.entries()) {
    const target = targetOf(item);
    if (typeof target === 'string') {
      problems.push(`tool #${index + 1}: ${target}`);
      continue;
    }
    if (seen.has(target.name)) problems.push(`tool name "${target.name}" appears more than once; each is called`);
    seen.add(target.name);
    targets.push(target);
  }
  const error = paged.error === undefined ? undefined : { message: paged.error, timedOut: failure !== undefined && isTimeout(failure) };
  return { targets, problems, error };
}

/** One tools/list entry, or why it cannot be called. Checked one by one: a schema that overflows the checker spoils only its own tool. */
function targetOf(item: unknown): Target | string {
  if (!isObj(item) || typeof item.name !== 'string') return 'it has no string "name", so it cannot be called';
  try {
    const [entry] = parseTools([item]).tools;
    return { name: entry.name, raw: item, hints: entry.hints, check: entry.check, output: entry.output };
  } catch (error) {
    const reason = error instanceof RangeError ? 'it is nested too deeply to check' : String(error);
    return { name: item.name, raw: item, hints: {}, check: { ok: false, reason }, output: undefined };
  }
}

async function smokeTool(run: Run, target: Target): Promise<SmokeTool> {
  const started = performance.now();
  const cases: SmokeCase[] = [];
  const done = (crash?: SmokeCrash) => toolReport(target.name, cases, performance.now() - started, crash, viewOf(target.raw));
  if (!target.check.ok) {
    cases.push(notRun('input-schema-invalid', 'failed', `Its inputSchema cannot be used (${target.check.reason}), so it was not called.`));
    return done();
  }
  const writes = run.options.allowWrites ? undefined : mayChangeData(target.hints);
  if (writes !== undefined) {
    cases.push(notRun('may-change-data', 'skipped', writes));
    return done();
  }
  const asTask = taskSupportOf(target.raw) === 'required';
  if (asTask && !serverRunsToolTasks(run.session.snapshot().capabilities)) {
    cases.push(notRun('not-run', 'skipped', 'It must be called as a task (execution.taskSupport is "required"), but the server did not declare tasks for tools/call.'));
    return done();
  }
  const made = synthArguments(target.raw.inputSchema, target.check);
  const steps: Step[] = [];
  if (made.ok) steps.push({ kind: 'valid', label: 'valid arguments', args: made.args });
  else cases.push(notRun('no-arguments', 'skipped', made.reason, made.args));
  if (run.options.negative) steps.push(...negativeCases(target.check, made.ok ? made.args : (made.args ?? {})));
  for (const step of steps) {
    const ran = await runCase(run, target, step, asTask);
    cases.push(ran.case);
    // The rest of this tool's cases wait: the next tool runs on a restarted server.
    if (ran.crash) return done(ran.crash);
  }
  return done();
}

async function runCase(run: Run, target: Target, step: Step, asTask: boolean): Promise<{ case: SmokeCase; crash?: SmokeCrash }> {
  const started = performance.now();
  const outcome = asTask ? await callAsTask(run, target.name, step.args) : await followTaskHandle(run.session, await request(run, 'tools/call', { name: target.name, arguments: step.args }), run.options.timeoutMs);
  const base = { kind: step.kind, label: step.label, arguments: step.args, ms: performance.now() - started, response: responseText(outcome), ...(asTask ? { asTask } : {}) };
  const crash = crashOf(run.session, outcome);
  if (crash) return { case: { ...base, outcome: 'crash', verdict: 'failed', reason: crash.message }, crash };
  return { case: { ...base, ...judgeCall(step.kind, outcome, target.output) } };
}

/**
 * A task-augmented tools/call (spec basic/utilities/tasks): create, poll tasks/get until the task
 * wants its result fetched, then tasks/result, all within one timeout. A server that answers the
 * call with a plain result instead of a task is taken at its word.
 */
async function callAsTask(run: Run, name: string, args: Obj): Promise<RequestOutcome> {
  const timeoutMs = run.options.timeoutMs;
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const created = await request(run, 'tools/call', taskCallParams(name, args));
  let task = created.ok ? createdTask(created.result) : undefined;
  if (!task) return created;
  while (!wantsResult(task.status)) {
    const delay = pollDelay(task);
    if (Date.now() + delay >= deadline) return cancelTask(run, task.taskId, `Request timed out: the task was still "${task.status}" after ${timeoutMs} ms`);
    await sleep(delay);
    const got = await request(run, 'tasks/get', { taskId: task.taskId }, left());
    if (!got.ok) return got;
    const next = parseTask(got.result);
    if (!next) return { ok: false, error: { code: 'BAD_MESSAGE', message: 'tasks/get answered with something that is not a task.' } };
    task = next;
  }
  const result = await request(run, 'tasks/result', { taskId: task.taskId }, left());
  if (!result.ok && isTimeout(result.error)) return cancelTask(run, task.taskId, result.error.message);
  return result;
}

/**
 * A 2026-07-28 tools/call the server made a task (the tasks extension, SEP-2663: the result is a
 * handle with `resultType: "task"`): polled with tasks/get at the server's pollIntervalMs until it
 * ends, within `timeoutMs`; the outcome is what the finished task carries. Any other outcome is
 * returned as it is.
 */
export async function followTaskHandle(session: Session, outcome: RequestOutcome, timeoutMs: number): Promise<RequestOutcome> {
  let task = outcome.ok ? taskHandle(outcome.result) : undefined;
  if (!task) return outcome;
  const deadline = Date.now() + timeoutMs;
  const giveUp = async (last: NonNullable<typeof task>): Promise<RequestOutcome> => {
    await session.request(`task-cancel-${last.taskId}`, 'tasks/cancel', { taskId: last.taskId }, { timeoutMs: 2_000 });
    return { ok: false, error: { code: -32001, message: `Request timed out: the task was still "${last.status}" after ${timeoutMs} ms (Loupe sent tasks/cancel)` } };
  };
  for (let poll = 1; ; poll++) {
    const carried = carriedOutcome(task);
    if (carried) return carried;
    // A handle never carries the result (the SEP): a task that ended already is asked once with tasks/get.
    if (isTerminal(task.status) && poll > 1) return { ok: false, error: { code: -32603, message: `The task ended "${task.status}"${task.statusMessage ? ` (${task.statusMessage})` : ''} without a result.` } };
    const delay = isTerminal(task.status) ? 0 : pollDelay(task);
    if (Date.now() + delay >= deadline) return giveUp(task);
    await sleep(delay);
    const got = await session.request(`task-poll-${task.taskId}-${poll}`, 'tasks/get', { taskId: task.taskId }, { timeoutMs: Math.max(1, deadline - Date.now()) });
    // A poll cut short by the overall deadline is the task's time-out, not the poll's own.
    if (!got.ok) return Date.now() >= deadline ? giveUp(task) : got;
    const next = parseTask(got.result);
    if (!next) return { ok: false, error: { code: 'BAD_MESSAGE', message: 'tasks/get answered with something that is not a task.' } };
    task = next;
  }
}

/** One tools/call run as a task to its end (`mcp-loupe --cli` uses it for a tool that requires a task). */
export function callToolAsTask(session: Session, name: string, args: Obj, timeoutMs: number): Promise<RequestOutcome> {
  return callAsTask({ session, options: { timeoutMs, negative: false, allowWrites: true }, calls: 0, restarts: 0 }, name, args);
}

async function cancelTask(run: Run, taskId: string, message: string): Promise<RequestOutcome> {
  if (run.session.status === 'connected' && serverTaskFeature(run.session.snapshot().capabilities, 'cancel')) await request(run, 'tasks/cancel', { taskId }, 2_000);
  return { ok: false, error: { code: -32001, message } };
}

/** The server is gone after this call: how it ended, from the session (exit code, signal, stderr tail). */
function crashOf(session: Session, outcome: RequestOutcome): SmokeCrash | undefined {
  if (session.status === 'connected') return undefined;
  const error = session.snapshot().error ?? (!outcome.ok && !isRpcError(outcome.error) ? outcome.error : undefined);
  const detail = error?.detail;
  return { message: error?.message ?? 'The connection to the server closed.', stderrTail: detail?.stderrTail ?? '', exitCode: detail?.exitCode, signal: detail?.signal };
}

/** The server ended after a tool had answered (it exited on its way out): that tool is the one that ended it. */
function blameQuietExit(tool: SmokeTool | undefined, session: Session): void {
  if (!tool || tool.crash) return;
  const crash = crashOf(session, { ok: true, result: undefined });
  if (!crash) return;
  tool.crash = crash;
  tool.cases.push({ kind: tool.cases.at(-1)?.kind ?? 'valid', label: 'after the call', outcome: 'crash', verdict: 'failed', reason: `The server ended after answering: ${crash.message}` });
  Object.assign(tool, toolReport(tool.name, tool.cases, tool.ms, crash));
}

async function restart(run: Run): Promise<string | undefined> {
  run.restarts++;
  await run.session.connect();
  if (run.session.status === 'connected') return undefined;
  return `Not called: Loupe could not start the server again after a crash (${run.session.snapshot().error?.message ?? 'it did not connect'}).`;
}

function notRun(outcome: SmokeOutcome, verdict: SmokeVerdict, reason: string, args?: Obj): SmokeCase {
  return { kind: 'valid', label: 'valid arguments', outcome, verdict, reason, ...(args ? { arguments: args } : {}) };
}

/** The view a tool links (issue 24), as the report notes it. */
function viewOf(raw: unknown): SmokeTool['view'] {
  const link = viewUriOf(raw);
  if (!link) return undefined;
  return { uri: link.ok ? link.uri : link.value, appOnly: !modelMaySee(raw) };
}

function toolReport(name: string, cases: SmokeCase[], ms: number, crash?: SmokeCrash, view?: SmokeTool['view']): SmokeTool {
  const verdict = worstVerdict(cases.map((c) => c.verdict));
  const worst = cases.find((c) => c.verdict === verdict);
  // A refusal of the made-up arguments passes, but the line should say the tool did not really run.
  const refused = cases.find((c) => c.kind === 'valid' && c.verdict === 'passed' && (c.outcome === 'is-error' || c.outcome === 'rpc-error'));
  const all = `All ${cases.length} cases passed${refused ? ` (${refused.label}: ${refused.reason})` : ''}.`;
  const reason = verdict === 'passed' && cases.length > 1 ? all : worst ? (cases.length > 1 ? `${worst.label}: ${worst.reason}` : worst.reason) : 'Nothing was run.';
  return { name, verdict, reason, ms, cases, ...(crash ? { crash } : {}), ...(view ? { view } : {}) };
}

function responseText(outcome: RequestOutcome): string | undefined {
  const text = stringifySafe(outcome.ok ? outcome.result : { error: outcome.error });
  return text !== undefined && text.length > RESULT_TEXT_LIMIT ? `${text.slice(0, RESULT_TEXT_LIMIT)}… (${text.length} characters in all)` : text;
}
