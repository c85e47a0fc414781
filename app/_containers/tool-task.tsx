'use client';
/**
 * Tasks on the Tools tab (issue 4), kept out of the tools container: the "Run as task" switch, the
 * run-as-task status, the retry as a task, and the decision which store runs a tool.
 *
 * On a 2026-07-28 session there is no "Run as task": the server decides (the tasks extension), so
 * every call is a plain `tools/call`, and one answered with a task handle is handed to the tasks
 * store to follow; `useTaskFollowedCall` gives the Result region the result the task carries.
 */
import type { ReactNode } from 'react';
import type { ResultTask } from '@/components/results/view.tsx';
import { RetryAsTask, ServerDecidesTasks, TaskRun, TaskSwitch } from '@/components/tasks/task-run.tsx';
import { isTerminal, serverRunsToolTasks, taskSupportOf } from '../../lib/client/tasks.ts';
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import type { ToolCall } from '../_stores/call-store.ts';
import { followTaskCall } from '../_stores/tasks-store.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionModel } from '../_session/model.ts';
import { useCall, useSession, useSessionInfo, useTasks } from '../_hooks/use-loupe.ts';

/**
 * The task the tool's latest run became, unless a newer plain call of the tool replaced it: while
 * it runs, the Result region says so rather than "Run a tool".
 */
export function useResultTask(tool: string | undefined): ResultTask | undefined {
  const { run, tasks } = useTasks();
  const { calls } = useCall();
  const session = useSessionInfo();
  if (!tool || !run || run.tool !== tool || run.session !== session?.id) return undefined;
  const lastCall = [...calls].reverse().find((c) => c.tool === tool && c.session === session.id);
  if (run.modern ? run.id !== lastCall?.id : lastCall !== undefined && lastCall.startedAt > run.startedAt) return undefined;
  if (run.status === 'running') return { tool, status: 'creating', ended: false, modern: run.modern === true };
  const entry = run.taskId === undefined ? undefined : tasks.find((t) => t.session === run.session && t.info.taskId === run.taskId);
  // No task was made (a refusal, a plain result): the run's own panel says what came back.
  if (!entry) return undefined;
  const ended = isTerminal(entry.info.status) && (entry.result.state === 'done' || entry.info.status === 'cancelled');
  return { tool, status: entry.info.status, ended, modern: run.modern === true };
}

/** Run a tool the way the user chose: as a task (tasks store) or a plain call (call store). */
export function runTool(model: SessionModel, tool: ToolEntry, args: unknown): void {
  if (model.port.getSnapshot().info?.era === 'modern') void runModern(model, tool.name, args);
  else if (model.tasks.runsAsTask(tool.name, taskSupportOf(tool.raw))) void model.tasks.run(tool.name, args);
  else void model.call.run(tool.name, args);
}

/** A plain call; if the server answers with a task handle (2026-07-28 tasks extension), the tasks store follows it. */
async function runModern(model: SessionModel, tool: string, args: unknown): Promise<void> {
  const running = model.call.run(tool, args);
  // run() adds the call before its first await: the newest call is this one.
  const id = model.call.getSnapshot().call?.id;
  await running;
  const call = model.call.getSnapshot().calls.find((c) => c.id === id);
  if (call?.outcome?.ok) model.tasks.adopt(call.outcome.result, { id: call.id, tool, args, startedAt: call.startedAt, durationMs: call.outcome.durationMs });
}

/** The call as the Result region should show it (tasks-store.ts followTaskCall). */
export function useTaskFollowedCall(call: ToolCall | undefined): ToolCall | undefined {
  const tasks = useTasks();
  return followTaskCall(call, tasks);
}

export function ToolTaskSwitch({ tool }: { tool: ToolEntry }): ReactNode {
  const { tasks } = useSession();
  useTasks();
  const info = useSessionInfo();
  const capabilities = info?.capabilities;
  const support = taskSupportOf(tool.raw);
  if (info?.era === 'modern') return <ServerDecidesTasks support={support} />;
  return <TaskSwitch support={support} checked={tasks.runsAsTask(tool.name, support)} serverRunsTasks={serverRunsToolTasks(capabilities)} onChange={(on) => tasks.setAsTask(tool.name, on)} />;
}

/** Why a finished call failed: a JSON-RPC error, or a result with `isError: true` (the SDK's McpServer reports a refused call so). */
function errorOf(outcome: RequestOutcome): string | undefined {
  if (!outcome.ok) return `${outcome.error.message} (${String(outcome.error.code)})`;
  const result = outcome.result as { isError?: unknown; content?: unknown } | null;
  if (result === null || typeof result !== 'object' || result.isError !== true) return undefined;
  const texts = Array.isArray(result.content) ? result.content.flatMap((b: { type?: unknown; text?: unknown }) => (b?.type === 'text' && typeof b.text === 'string' ? [b.text] : [])) : [];
  return texts.join(' ') || 'the tool reported an error';
}

/** The latest run as a task of this tool, and the retry offer after a failed plain call. */
export function ToolTaskStatus({ tool }: { tool: ToolEntry }): ReactNode {
  const services = useSession();
  const { run, tasks } = useTasks();
  const { calls } = useCall();
  const session = useSessionInfo();
  const support = taskSupportOf(tool.raw);
  const lastCall = [...calls].reverse().find((c) => c.tool === tool.name && c.session === session?.id);
  const failed = lastCall?.status === 'done' && lastCall.outcome ? errorOf(lastCall.outcome) : undefined;
  // A task the server made of a plain call (2026-07-28) belongs to that call: a newer call of the tool replaces it.
  const ownRun = run && run.tool === tool.name && run.session === session?.id && (!run.modern || run.id === lastCall?.id) ? run : undefined;
  const entry = ownRun?.taskId === undefined ? undefined : tasks.find((t) => t.session === ownRun.session && t.info.taskId === ownRun.taskId);
  const retryable = support === 'required' && failed !== undefined && lastCall !== undefined && session?.status === 'connected';
  if (!ownRun && !retryable) return null;
  return (
    <div className="space-y-2">
      {retryable && lastCall && (!ownRun || ownRun.startedAt < lastCall.startedAt) && (
        <RetryAsTask error={failed ?? ''} onRetry={() => {
          services.tasks.setAsTask(tool.name, true);
          void services.tasks.run(tool.name, lastCall.args);
        }} />
      )}
      {ownRun && (
        <TaskRun
          tool={ownRun.tool}
          modern={ownRun.modern}
          status={ownRun.status}
          outcome={ownRun.outcome}
          task={entry?.info}
          result={entry?.result}
          onCancel={entry ? () => void services.tasks.cancel(entry.info.taskId) : undefined}
        />
      )}
    </div>
  );
}
