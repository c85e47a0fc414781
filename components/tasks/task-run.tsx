/**
 * Tasks on the Tools tab: the "Run as task" switch of a tool that supports tasks, the latest run
 * as a task with its live status, and a one-click retry as a task when a call without one failed.
 */
import type { ReactNode } from 'react';
import type { TaskInfo, TaskSupport } from '../../lib/client/tasks.ts';
import { StatusBadge, TaskResultBlocks, type TaskOutcome } from './view.tsx';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, Note } from '../ui/ui.tsx';

/** The tool's task support as a badge (none for tools that cannot run as tasks). */
export function TaskSupportBadge({ support }: { support: TaskSupport }): ReactNode {
  if (support === 'forbidden') return null;
  return <Badge tone={support === 'required' ? 'warn' : 'info'} title={`execution.taskSupport: ${support}`}>{support === 'required' ? 'task required' : 'task optional'}</Badge>;
}

export interface TaskSwitchProps {
  support: TaskSupport;
  checked: boolean;
  /** The server declared tasks.requests.tools.call. */
  serverRunsTasks: boolean;
  onChange(on: boolean): void;
}

export function TaskSwitch({ support, checked, serverRunsTasks, onChange }: TaskSwitchProps): ReactNode {
  if (support === 'forbidden') return null;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-zinc-200 pt-2 text-sm dark:border-zinc-700">
      <TaskSupportBadge support={support} />
      <label className="flex items-center gap-2">
        <input type="checkbox" role="switch" aria-checked={checked} checked={checked} onChange={(e) => onChange(e.target.checked)} className="size-4 accent-sky-600" />
        Run as task
      </label>
      <span className="text-xs text-zinc-500 dark:text-zinc-400">
        {checked ? 'Run tool sends tools/call with params.task; follow it here and in the Tasks tab.' : support === 'required' ? 'The tool requires a task: without one the server should refuse the call.' : ''}
      </span>
      {!serverRunsTasks && <Note tone="warn">The server did not declare tasks.requests.tools.call.</Note>}
    </div>
  );
}

/** 2026-07-28: no switch; the server decides per call whether it becomes a task, and Loupe follows it. */
export function ServerDecidesTasks({ support }: { support: TaskSupport }): ReactNode {
  if (support === 'forbidden') return null;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-zinc-200 pt-2 text-xs text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
      <TaskSupportBadge support={support} />
      <span>On a 2026-07-28 session the server decides whether a call becomes a task; Loupe follows it with tasks/get.</span>
    </div>
  );
}

export interface TaskRunProps {
  tool: string;
  /** The server made a plain call a task (2026-07-28 tasks extension). */
  modern?: boolean;
  status: 'running' | 'done';
  outcome?: TaskOutcome;
  /** The task the server created, as last known. */
  task?: TaskInfo;
  result?: { state: 'none' } | { state: 'waiting' } | { state: 'done'; outcome: TaskOutcome };
  onCancel?(): void;
}

/** The latest run of a tool as a task. */
export function TaskRun({ tool, modern, status, outcome, task, result, onCancel }: TaskRunProps): ReactNode {
  const created = task !== undefined;
  return (
    <section aria-label="Task run" className="rounded-lg border border-violet-300 bg-white p-3 shadow-sm dark:border-violet-700 dark:bg-zinc-900">
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">{modern ? 'Task' : 'Run as task'}</h2>
        <Text className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{tool}</Text>
        {status === 'running' && <Badge tone="info">creating task…</Badge>}
        {task && <StatusBadge status={task.status} />}
        {task && <Text className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{task.taskId}</Text>}
        {task && onCancel && !['completed', 'failed', 'cancelled'].includes(task.status) && <button type="button" className={`${buttonClass} ml-auto`} onClick={onCancel}>Cancel task</button>}
      </div>
      {task?.statusMessage !== undefined && <p className="text-sm"><Text>{task.statusMessage}</Text></p>}
      {outcome && !outcome.ok && <TaskResultBlocks outcome={outcome} />}
      {outcome?.ok && !created && (
        <>
          <Note tone="warn">The server answered with a plain result, not a task (CreateTaskResult):</Note>
          <TaskResultBlocks outcome={outcome} />
        </>
      )}
      {modern && result?.state !== 'done' && <Note>The server answered with a task: Loupe polls tasks/get until it ends.</Note>}
      {result?.state === 'waiting' && <Note>Waiting for tasks/result…</Note>}
      {result?.state === 'done' && (
        <div role="region" aria-label="Task result" className="mt-1 rounded bg-zinc-50 p-2 dark:bg-zinc-800/60">
          <TaskResultBlocks outcome={result.outcome} />
        </div>
      )}
    </section>
  );
}

/** Shown when a call without a task failed on a tool that requires one. */
export function RetryAsTask({ error, onRetry }: { error: string; onRetry(): void }): ReactNode {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100">
      <span>This tool requires a task, and the call without one failed: <Text>{error}</Text></span>
      <button type="button" className={buttonClass} onClick={onRetry}>Retry as task</button>
    </div>
  );
}
