/**
 * Tasks (experimental in spec 2025-11-25): a `tools/call` with `params.task` answers at once with
 * a `CreateTaskResult`; the requestor then polls `tasks/get`, fetches `tasks/result` and may
 * `tasks/cancel`. This module reads the untrusted shapes and decides when to poll.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 *
 * On 2026-07-28 tasks are the extension `io.modelcontextprotocol/tasks` (SEP-2663): the client
 * declares it in each request's capabilities and the server decides per call whether to answer
 * `tools/call` with a task handle, `{resultType: "task", taskId, status, pollIntervalMs?, ttlMs?, …}`
 * (flat in the final SEP; an earlier draft nested it under `task`, which is read too). The
 * client polls `tasks/get {taskId}`, whose Task carries the final `result` (status `completed`) or
 * `error` (status `failed`); there is no `tasks/result` or `tasks/list`. Relied on as summarised in
 * the spec notes and the SEP text; the extension's own package is not installed.
 */

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskInfo {
  taskId: string;
  /** As sent; an unknown status is kept (and treated as not terminal). */
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** Milliseconds; null = unlimited (`ttl`, or `ttlMs` on 2026-07-28). */
  ttl?: number | null;
  /** Milliseconds (`pollInterval`, or `pollIntervalMs` on 2026-07-28). */
  pollInterval?: number;
  /** SEP-2663: the final result a `completed` task carries (a CallToolResult for tools/call). */
  result?: unknown;
  /** SEP-2663: the error a `failed` task carries. */
  error?: { code: number; message: string; data?: unknown };
}

export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A tool's `execution.taskSupport` (absent → forbidden, spec "Tool-level negotiation"). */
export function taskSupportOf(tool: unknown): TaskSupport {
  const execution = isObject(tool) && isObject(tool.execution) ? tool.execution : undefined;
  const support = execution?.taskSupport;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** Whether the server declared `tasks.requests.tools.call` (it accepts task-augmented tool calls). */
export function serverRunsToolTasks(capabilities: unknown): boolean {
  const tasks = isObject(capabilities) && isObject(capabilities.tasks) ? capabilities.tasks : undefined;
  const requests = tasks && isObject(tasks.requests) ? tasks.requests : undefined;
  const tools = requests && isObject(requests.tools) ? requests.tools : undefined;
  return tools !== undefined && isObject(tools.call);
}

/** Whether the server declared `tasks.list` / `tasks.cancel`. */
export function serverTaskFeature(capabilities: unknown, feature: 'list' | 'cancel'): boolean {
  const tasks = isObject(capabilities) && isObject(capabilities.tasks) ? capabilities.tasks : undefined;
  return tasks !== undefined && isObject(tasks[feature]);
}

/** A Task object (from tasks/get, tasks/cancel, tasks/list or a status notification), or undefined. */
export function parseTask(value: unknown): TaskInfo | undefined {
  if (!isObject(value) || typeof value.taskId !== 'string' || typeof value.status !== 'string') return undefined;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const ttlValue = value.ttlMs !== undefined ? value.ttlMs : value.ttl;
  const ttl = ttlValue === null ? null : typeof ttlValue === 'number' ? ttlValue : undefined;
  const poll = typeof value.pollIntervalMs === 'number' ? value.pollIntervalMs : value.pollInterval;
  const error = isObject(value.error) && typeof value.error.code === 'number' && typeof value.error.message === 'string' ? { code: value.error.code, message: value.error.message, data: value.error.data } : undefined;
  return {
    taskId: value.taskId,
    status: value.status,
    statusMessage: str(value.statusMessage),
    createdAt: str(value.createdAt),
    lastUpdatedAt: str(value.lastUpdatedAt),
    ttl,
    pollInterval: typeof poll === 'number' && poll > 0 ? poll : undefined,
    result: value.result,
    error,
  };
}

/**
 * The task handle of a 2026-07-28 result (`resultType: "task"`), or undefined for any other
 * result. The SEP says a handle carries no `result`/`error`: they are dropped if present.
 */
export function taskHandle(result: unknown): TaskInfo | undefined {
  if (!isObject(result) || result.resultType !== 'task') return undefined;
  const task = parseTask(result) ?? parseTask(result.task);
  return task && { ...task, result: undefined, error: undefined };
}

/** What a finished 2026-07-28 task carries, as a request's outcome: its result, or its error; undefined while it runs. */
export function carriedOutcome(task: TaskInfo): { ok: true; result: unknown } | { ok: false; error: { code: number; message: string; data?: unknown } } | undefined {
  if (task.status === 'completed' && task.result !== undefined) return { ok: true, result: task.result };
  if (task.status === 'failed') return { ok: false, error: task.error ?? { code: -32603, message: task.statusMessage ?? 'The task failed and the server sent no error' } };
  return undefined;
}

/** The task of a `CreateTaskResult`, or undefined when the result is something else (e.g. a plain tool result). */
export function createdTask(result: unknown): TaskInfo | undefined {
  return isObject(result) ? parseTask(result.task) : undefined;
}

/** `tasks/list` result → tasks, the next cursor and what was malformed. */
export function parseTaskList(result: unknown): { tasks: TaskInfo[]; nextCursor?: string; problems: string[] } {
  if (!isObject(result) || !Array.isArray(result.tasks)) return { tasks: [], problems: ['the result has no "tasks" array'] };
  const tasks: TaskInfo[] = [];
  const problems: string[] = [];
  result.tasks.forEach((item, index) => {
    const task = parseTask(item);
    if (task) tasks.push(task);
    else problems.push(`task #${index + 1} has no string taskId and status`);
  });
  return { tasks, nextCursor: typeof result.nextCursor === 'string' ? result.nextCursor : undefined, problems };
}

export function isTerminal(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** Poll no faster than this whatever the server suggests, and no slower than the upper bound. */
export const POLL_BOUNDS = { min: 250, max: 10_000, fallback: 1_000 } as const;

export function pollDelay(task: TaskInfo): number {
  const wanted = task.pollInterval ?? POLL_BOUNDS.fallback;
  return Math.min(POLL_BOUNDS.max, Math.max(POLL_BOUNDS.min, wanted));
}

/**
 * Merge a newer report into what we know. A report with an older `lastUpdatedAt` than ours is
 * ignored (a slow poll must not undo a status notification), and a terminal status never goes back.
 */
export function mergeTask(known: TaskInfo | undefined, report: TaskInfo): TaskInfo {
  if (!known) return report;
  if (isTerminal(known.status) && !isTerminal(report.status)) return known;
  const older = known.lastUpdatedAt !== undefined && report.lastUpdatedAt !== undefined && Date.parse(report.lastUpdatedAt) < Date.parse(known.lastUpdatedAt);
  if (older) return known;
  return { ...known, ...Object.fromEntries(Object.entries(report).filter(([, v]) => v !== undefined)) } as TaskInfo;
}

/** `tasks/result` should be called when the task needs input (its requests travel with it) or has ended. */
export function wantsResult(status: string): boolean {
  return status === 'input_required' || isTerminal(status);
}

/** The `params` of a task-augmented `tools/call`. */
export function taskCallParams(tool: string, args: unknown, ttl?: number): Obj {
  return { name: tool, arguments: args ?? {}, task: ttl === undefined ? {} : { ttl } };
}
