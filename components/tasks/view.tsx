/** The Tasks tab: every task of the session with its status, its result, and Cancel. */
import { useMemo, type ReactNode } from 'react';
import type { TaskInfo } from '../../lib/client/tasks.ts';
import { normaliseToolResult } from '../../lib/content/tool-result.ts';
import { formatDuration } from '../../lib/trace/trace.ts';
import type { LoupeError, RpcError } from '../../lib/wire/wire.ts';
import { ResultBlockView } from '../results/blocks.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, buttonClass, Note, Panel, type Tone } from '../ui/ui.tsx';
import { formatJson } from '../../lib/json/safe-json.ts';

export type TaskOutcome = { ok: true; result: unknown; durationMs: number } | { ok: false; error: RpcError | LoupeError; durationMs: number };

export interface TaskRow {
  key: string;
  info: TaskInfo;
  tool?: string;
  startedHere: boolean;
  result: { state: 'none' } | { state: 'waiting' } | { state: 'done'; outcome: TaskOutcome };
  pollError?: string;
  cancel?: { state: 'sending' } | { state: 'failed'; error: string };
  /** A 2026-07-28 task (the tasks extension, which has tasks/cancel whatever the server's capabilities say). */
  modern?: boolean;
}

export interface TasksViewProps {
  rows: readonly TaskRow[];
  connected: boolean;
  canList: boolean;
  canCancel: boolean;
  list: { status: 'idle' | 'loading' | 'done' | 'error'; error?: string; problems: readonly string[] };
  onRefresh(): void;
  onClearFinished(): void;
  onPoll(taskId: string): void;
  onResult(taskId: string): void;
  onCancel(taskId: string): void;
}

const TONES: Record<string, Tone> = { working: 'info', input_required: 'warn', completed: 'good', failed: 'bad', cancelled: 'neutral' };
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export function StatusBadge({ status }: { status: string }): ReactNode {
  return <Badge tone={TONES[status] ?? 'warn'}><Text>{status}</Text></Badge>;
}

/** A task's payload (tasks/result): for a tools/call task, a CallToolResult. */
export function TaskResultBlocks({ outcome }: { outcome: TaskOutcome }): ReactNode {
  const normalised = useMemo(() => (outcome.ok ? normaliseToolResult(outcome.result) : undefined), [outcome]);
  if (!outcome.ok) {
    return <p role="alert" className="text-sm text-red-700 dark:text-red-300">{typeof outcome.error.code === 'number' ? `JSON-RPC error ${outcome.error.code}` : `Loupe error ${outcome.error.code}`}: <Text>{outcome.error.message}</Text></p>;
  }
  return (
    <div className="space-y-1">
      {normalised?.isError && <Badge tone="bad">isError</Badge>}
      {normalised?.blocks.map((block, i) => <ResultBlockView key={i} block={block} />)}
      {normalised?.structuredContent !== undefined && <Pre className="max-h-64 overflow-auto">{formatJson(normalised.structuredContent.value).text}</Pre>}
      {normalised && normalised.blocks.length === 0 && normalised.structuredContent === undefined && <Pre className="max-h-64 overflow-auto">{formatJson(outcome.result).text}</Pre>}
    </div>
  );
}

function Facts({ info }: { info: TaskInfo }): ReactNode {
  const parts = [
    info.createdAt && `created ${info.createdAt}`,
    info.lastUpdatedAt && `updated ${info.lastUpdatedAt}`,
    info.ttl === null ? 'ttl unlimited' : info.ttl !== undefined ? `ttl ${formatDuration(info.ttl)}` : undefined,
    info.pollInterval !== undefined && `poll every ${formatDuration(info.pollInterval)}`,
  ].filter((p): p is string => typeof p === 'string' && p !== '');
  return <p className="text-[11px] text-zinc-500 dark:text-zinc-400"><Text>{parts.join(' · ')}</Text></p>;
}

function TaskItem({ row, props }: { row: TaskRow; props: TasksViewProps }): ReactNode {
  const finished = FINISHED.has(row.info.status);
  return (
    <li>
      <section aria-label={`Task ${row.info.taskId}`} className="space-y-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={row.info.status} />
          {row.tool !== undefined && <Text className="font-mono text-sm font-semibold">{row.tool}</Text>}
          <Text className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{row.info.taskId}</Text>
          {!row.startedHere && <Badge>listed</Badge>}
          <span className="ml-auto flex flex-wrap gap-1">
            <button type="button" className={buttonClass} disabled={!props.connected} onClick={() => props.onPoll(row.info.taskId)}>Check status</button>
            <button type="button" className={buttonClass} disabled={!props.connected || row.result.state === 'waiting'} onClick={() => props.onResult(row.info.taskId)}>Get result</button>
            {!finished && <button type="button" className={buttonClass} disabled={!props.connected || row.cancel?.state === 'sending'} onClick={() => props.onCancel(row.info.taskId)}>Cancel task</button>}
          </span>
        </div>
        {row.info.statusMessage !== undefined && <p className="text-sm"><Text>{row.info.statusMessage}</Text></p>}
        <Facts info={row.info} />
        {row.pollError && <Note tone="warn">tasks/get failed: <Text>{row.pollError}</Text></Note>}
        {row.cancel?.state === 'failed' && <Note tone="bad">tasks/cancel failed: <Text>{row.cancel.error}</Text></Note>}
        {!props.canCancel && !finished && !row.modern && <Note>The server did not declare tasks.cancel; Cancel may be refused.</Note>}
        {row.result.state === 'waiting' && <Note>Waiting for tasks/result (the server answers once the task ends; its requests for input arrive meanwhile)…</Note>}
        {row.result.state === 'done' && (
          <div role="region" aria-label="Task result" className="rounded bg-zinc-50 p-2 dark:bg-zinc-800/60">
            <TaskResultBlocks outcome={row.result.outcome} />
          </div>
        )}
      </section>
    </li>
  );
}

export function TasksView(props: TasksViewProps): ReactNode {
  return (
    <Panel label="Tasks" title="Tasks" actions={
      <span className="flex gap-1">
        <button type="button" className={buttonClass} disabled={!props.connected || !props.canList || props.list.status === 'loading'} onClick={props.onRefresh}>Refresh tasks</button>
        <button type="button" className={buttonClass} onClick={props.onClearFinished}>Clear finished</button>
      </span>
    }>
      {!props.canList && <Note>The server did not declare tasks.list: only tasks started from this page are shown.</Note>}
      {props.list.status === 'error' && <Note tone="bad">tasks/list failed: <Text>{props.list.error}</Text></Note>}
      {props.list.problems.map((p, i) => <Note key={i} tone="warn">⚠ <Text>{p}</Text></Note>)}
      {props.rows.length === 0 ? (
        <Note>No tasks yet. Tools marked “task” can run as tasks from the Tools tab (switch “Run as task”).</Note>
      ) : (
        <ul className="space-y-2">{props.rows.map((row) => <TaskItem key={row.key} row={row} props={props} />)}</ul>
      )}
    </Panel>
  );
}
