/**
 * Tasks of one session: started here (a `tools/call` with `params.task`),
 * listed with `tasks/list`, or announced by `notifications/tasks/status`. Tasks started here are
 * polled with `tasks/get` until they end, and their `tasks/result` is fetched when they need input
 * (the server's requests travel with that call) or have ended.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 *
 * On 2026-07-28 sessions the server makes a plain `tools/call` a task when it wants to (the tasks
 * extension, lib/client/tasks.ts): the call's task handle is adopted here (`adopt`) and polled with
 * `tasks/get` until it ends; the final result comes with the task, not from `tasks/result`.
 */
import { carriedOutcome, createdTask, isTerminal, mergeTask, parseTask, parseTaskList, pollDelay, taskCallParams, taskHandle, wantsResult, type TaskInfo, type TaskSupport } from '../../lib/client/tasks.ts';
import { frameParams } from '../../lib/trace/trace.ts';
import type { TraceEvent } from '../../lib/wire/wire.ts';
import type { ToolCall } from './call-store.ts';
import { newRequestId, type RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { ExternalStore } from './external-store.ts';

export interface TaskEntry {
  session: string;
  info: TaskInfo;
  /** The tool and arguments, when this tab started it. */
  tool?: string;
  args?: unknown;
  startedHere: boolean;
  seenAt: number;
  result: { state: 'none' } | { state: 'waiting' } | { state: 'done'; outcome: RequestOutcome };
  /** The last tasks/get failure, if the latest poll failed. */
  pollError?: string;
  cancel?: { state: 'sending' } | { state: 'failed'; error: string };
  /** A 2026-07-28 task (the extension): its result comes with `tasks/get`. */
  modern?: boolean;
  /** The tab's id of the `tools/call` the server answered with this task (call-store.ts). */
  callId?: string;
}

/** The latest "run as task" of this tab, for the Tools tab. */
export interface TaskRun {
  id: string;
  session: string;
  tool: string;
  args: unknown;
  startedAt: number;
  status: 'running' | 'done';
  outcome?: RequestOutcome;
  taskId?: string;
  /** The server made a plain call a task (2026-07-28): not a "Run as task" of this tab. */
  modern?: boolean;
}

export interface TasksState {
  /** Newest first. */
  tasks: readonly TaskEntry[];
  run?: TaskRun;
  list: { status: 'idle' | 'loading' | 'done' | 'error'; error?: string; problems: readonly string[] };
  /** "Run as task", per tool name, where the user changed it. */
  asTask: Readonly<Record<string, boolean>>;
}

const TASK_CAP = 200;
/** tasks/result may wait for the user (input_required): give it as long as a server request may wait. */
const RESULT_TIMEOUT_MS = 30 * 60_000;
const LIST_PAGE_CAP = 20;

const keyOf = (session: string, taskId: string) => `${session}\u0000${taskId}`;

function errorText(outcome: Extract<RequestOutcome, { ok: false }>): string {
  return `${outcome.error.message} (${String(outcome.error.code)})`;
}

export class TasksStore extends ExternalStore<TasksState> {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  private readonly session: string;

  constructor(private readonly port: SessionPort) {
    super({ tasks: [], list: { status: 'idle', problems: [] }, asTask: {} });
    this.session = port.id;
    this.onDispose(port.onEvents((events) => this.watch(events)));
  }

  override dispose(): void {
    super.dispose();
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
  }

  /** Whether Run tool runs `tool` as a task: the user's choice, else yes when the tool requires it. */
  runsAsTask(tool: string, support: TaskSupport): boolean {
    if (support === 'forbidden') return false;
    return this.state.asTask[tool] ?? support === 'required';
  }

  setAsTask(tool: string, on: boolean): void {
    this.set({ ...this.state, asTask: { ...this.state.asTask, [tool]: on } });
  }

  /** Call a tool as a task; the CreateTaskResult adds the task, which is then polled. */
  async run(tool: string, args: unknown, ttl?: number): Promise<void> {
    const session = this.session;
    const id = newRequestId();
    this.set({ ...this.state, run: { id, session, tool, args, startedAt: Date.now(), status: 'running' } });
    const outcome = await this.port.request('tools/call', taskCallParams(tool, args, ttl), id);
    const task = outcome.ok ? createdTask(outcome.result) : undefined;
    if (this.state.run?.id === id) this.set({ ...this.state, run: { ...this.state.run, status: 'done', outcome, taskId: task?.taskId } });
    if (!task) return;
    this.upsert(session, task, { tool, args, startedHere: true });
    this.follow(session, task.taskId);
  }

  /**
   * A 2026-07-28 `tools/call` of this tab came back as a task handle: follow it like a task run
   * here (the Tools tab's task status, the Tasks tab, polling). False when `result` is no handle.
   */
  adopt(result: unknown, call: { id: string; tool: string; args: unknown; startedAt: number; durationMs: number }): boolean {
    const task = taskHandle(result);
    if (!task) return false;
    const session = this.session;
    const outcome: RequestOutcome = { ok: true, result, durationMs: call.durationMs };
    this.set({ ...this.state, run: { id: call.id, session, tool: call.tool, args: call.args, startedAt: call.startedAt, status: 'done', outcome, taskId: task.taskId, modern: true } });
    this.upsert(session, task, { tool: call.tool, args: call.args, startedHere: true, modern: true, callId: call.id });
    // A handle that has ended already carries no result: one tasks/get fetches it.
    if (isTerminal(task.status)) void this.poll(task.taskId, session);
    else this.follow(session, task.taskId);
    return true;
  }

  /** tasks/list, every page (up to LIST_PAGE_CAP). */
  async refreshList(): Promise<void> {
    const session = this.session;
    this.set({ ...this.state, list: { status: 'loading', problems: [] } });
    const problems: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < LIST_PAGE_CAP; page++) {
      const outcome = await this.port.request('tasks/list', cursor === undefined ? {} : { cursor });
      if (!outcome.ok) {
        this.set({ ...this.state, list: { status: 'error', error: errorText(outcome), problems } });
        return;
      }
      const parsed = parseTaskList(outcome.result);
      problems.push(...parsed.problems);
      parsed.tasks.forEach((task) => this.upsert(session, task, {}));
      cursor = parsed.nextCursor;
      if (cursor === undefined) break;
    }
    this.set({ ...this.state, list: { status: 'done', problems } });
  }

  /** tasks/get now, then keep polling while the task is not finished (only for this tab's tasks). */
  async poll(taskId: string, session = this.session): Promise<void> {
    const outcome = await this.port.request('tasks/get', { taskId });
    const task = outcome.ok ? parseTask(outcome.result) : undefined;
    if (!outcome.ok) this.patch(session, taskId, { pollError: errorText(outcome) });
    else if (!task) this.patch(session, taskId, { pollError: 'tasks/get answered something that is not a task' });
    else {
      this.upsert(session, task, { pollError: undefined });
      this.takeCarried(session, taskId, outcome.durationMs);
    }
  }

  /** A finished 2026-07-28 task carries its result (or error): that is the task's result. */
  private takeCarried(session: string, taskId: string, durationMs: number): void {
    const entry = this.find(session, taskId);
    if (!entry?.modern || entry.result.state === 'done') return;
    const carried = carriedOutcome(entry.info);
    if (carried) this.patch(session, taskId, { result: { state: 'done', outcome: { ...carried, durationMs } } });
  }

  /** tasks/result: blocks on the server until the task ends; its requests for input arrive meanwhile. */
  async fetchResult(taskId: string, session = this.session): Promise<void> {
    const entry = this.find(session, taskId);
    if (!entry || entry.result.state === 'waiting') return;
    // 2026-07-28 has no tasks/result: the task itself carries its result.
    if (entry.modern) return this.poll(taskId, session);
    this.patch(session, taskId, { result: { state: 'waiting' } });
    const outcome = await this.port.request('tasks/result', { taskId }, newRequestId(), { timeoutMs: RESULT_TIMEOUT_MS, resetTimeoutOnProgress: true });
    this.patch(session, taskId, { result: { state: 'done', outcome } });
    // The result is in: one more look at the status (the server may not notify).
    if (this.find(session, taskId) && !isTerminal(this.find(session, taskId)!.info.status)) await this.poll(taskId, session);
  }

  async cancel(taskId: string, session = this.session): Promise<void> {
    this.patch(session, taskId, { cancel: { state: 'sending' } });
    const outcome = await this.port.request('tasks/cancel', { taskId });
    const task = outcome.ok ? parseTask(outcome.result) : undefined;
    if (!outcome.ok) this.patch(session, taskId, { cancel: { state: 'failed', error: errorText(outcome) } });
    else if (task) this.upsert(session, task, { cancel: undefined });
    else {
      this.patch(session, taskId, { cancel: undefined });
      // SEP-2663's tasks/cancel answers an empty result: ask for the status it left.
      if (this.find(session, taskId)?.modern) await this.poll(taskId, session);
    }
  }

  /** Forget the tasks of a session that have ended. */
  clearFinished(session = this.session): void {
    this.set({ ...this.state, tasks: this.state.tasks.filter((t) => t.session !== session || !isTerminal(t.info.status)) });
  }

  private find(session: string, taskId: string): TaskEntry | undefined {
    return this.state.tasks.find((t) => t.session === session && t.info.taskId === taskId);
  }

  /** Poll on the task's own interval; fetch the result when it is wanted; stop when it ends or the session goes. */
  private follow(session: string, taskId: string): void {
    const key = keyOf(session, taskId);
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    const entry = this.find(session, taskId);
    if (!entry || !entry.startedHere) return;
    if (autoResult(entry)) void this.fetchResult(taskId, session);
    if (isTerminal(entry.info.status) || this.port.getSnapshot().info?.status !== 'connected') return;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.poll(taskId, session).then(() => this.follow(session, taskId));
      }, pollDelay(entry.info)),
    );
  }

  /** Status notifications (notifications/tasks/status) update what we know without a poll. */
  private watch(events: readonly TraceEvent[]): void {
    for (const event of events) {
      if (event.kind !== 'frame' || event.dir !== 'in' || event.method !== 'notifications/tasks/status') continue;
      const task = parseTask(frameParams(event));
      if (!task) continue;
      this.upsert(event.session, task, {});
      const entry = this.find(event.session, task.taskId);
      if (entry && autoResult(entry)) void this.fetchResult(task.taskId, event.session);
    }
  }

  private upsert(session: string, report: TaskInfo, change: Partial<TaskEntry>): void {
    const known = this.find(session, report.taskId);
    const entry: TaskEntry = known
      ? { ...known, ...change, info: mergeTask(known.info, report) }
      : { session, info: report, startedHere: false, seenAt: Date.now(), result: { state: 'none' }, ...change };
    const rest = this.state.tasks.filter((t) => t !== known);
    this.set({ ...this.state, tasks: (known ? this.state.tasks.map((t) => (t === known ? entry : t)) : [entry, ...rest]).slice(0, TASK_CAP) });
  }

  private patch(session: string, taskId: string, change: Partial<TaskEntry>): void {
    const known = this.find(session, taskId);
    if (known) this.set({ ...this.state, tasks: this.state.tasks.map((t) => (t === known ? { ...t, ...change } : t)) });
  }
}

/**
 * A call as the Result region should show it: one the server made a task (2026-07-28) shows the
 * result the finished task carries, or its error, in place of the task handle.
 */
export function followTaskCall(call: ToolCall | undefined, tasks: TasksState): ToolCall | undefined {
  if (call?.status !== 'done') return call;
  const entry = tasks.tasks.find((t) => t.modern && t.callId === call.id && t.session === call.session);
  if (entry?.result.state !== 'done') return call;
  return { ...call, outcome: entry.result.outcome };
}

/** A task started here gets its result fetched by itself when it needs input or has ended (not when cancelled: there is none). */
function autoResult(entry: TaskEntry): boolean {
  return entry.startedHere && !entry.modern && entry.result.state === 'none' && wantsResult(entry.info.status) && entry.info.status !== 'cancelled';
}
