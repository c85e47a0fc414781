/**
 * The latest call of the selected tool: progress while it runs, then every content block, the
 * `structuredContent` as a tree with its `outputSchema` verdict (shown whatever the verdict: the
 * SDK would throw and hide it), `isError` as an error, failures in plain words.
 */
import { useMemo, type ReactNode } from 'react';
import type { SchemaCheck } from '../../lib/schema/tool-schema.ts';
import { validationIssues } from '../../lib/schema/tool-schema.ts';
import { formatJson } from '../../lib/json/safe-json.ts';
import { normaliseToolResult } from '../../lib/content/tool-result.ts';
import { formatDuration } from '../../lib/trace/trace.ts';
import type { LoupeError, RpcError } from '../../lib/wire/wire.ts';
import { CallProgress, type ProgressInfo } from '../tools/call-progress.tsx';
import { ResultJsonTree } from './json-tree.tsx';
import { ResultBlockView } from './blocks.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, Note } from '../ui/ui.tsx';

export type CallOutcome =
  | { ok: true; result: unknown; durationMs: number }
  | { ok: false; error: RpcError | LoupeError; durationMs: number };

export interface ResultCall {
  tool: string;
  status: 'running' | 'done';
  outcome?: CallOutcome;
  cancelRequested?: boolean;
  progress?: ProgressInfo;
  /** Set when the server answered after the cancel (the trace's sequence number). */
  lateResponseSeq?: number;
}

/** The task the tool's latest run became (tasks, issue 4), while it runs and once it has ended. */
export interface ResultTask {
  tool: string;
  /** The task's status (`working`, `input_required`, …), or `creating` before the server made it. */
  status: string;
  ended: boolean;
  /** The server made a plain call a task (2026-07-28): its result is shown here once it ends. */
  modern: boolean;
}

export interface ResultViewProps {
  call?: ResultCall;
  task?: ResultTask;
  /** What interception did to the call (held by a rule, edited…), drawn under the heading (issue 26). */
  interception?: ReactNode;
  /** The tool's checked `outputSchema`, when it has one. */
  output?: SchemaCheck;
  onCancel?: () => void;
  onOpenResource?: (uri: string) => void;
  /** More to do with the call, beside its heading (issue 27: `Save as test`). */
  actions?: ReactNode;
}

/** The SDK prefixes JSON-RPC error messages with "MCP error <code>: "; the code is shown already. */
function serverMessage(error: RpcError | LoupeError): string {
  return typeof error.code === 'number' ? error.message.replace(`MCP error ${error.code}: `, '') : error.message;
}

const isCancelled = (outcome?: CallOutcome): boolean => outcome !== undefined && !outcome.ok && outcome.error.code === 'CANCELLED';

function FailedCall({ error }: { error: RpcError | LoupeError }): ReactNode {
  const rpc = typeof error.code === 'number';
  if (error.code === 'CANCELLED') return <Note>Cancelled: <Text>{error.message}</Text></Note>;
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
      <p className="font-semibold">
        {rpc ? `JSON-RPC error ${error.code}` : `Loupe error ${error.code}`}: <Text>{serverMessage(error)}</Text>
      </p>
      {'hint' in error && error.hint !== undefined && <p><Text>{error.hint}</Text></p>}
      {'data' in error && error.data !== undefined && <Pre className="mt-1 max-h-48 overflow-auto">{formatJson(error.data).text}</Pre>}
    </div>
  );
}

function OutputVerdict({ output, value, isError }: { output?: SchemaCheck; value?: { value: unknown }; isError: boolean }): ReactNode {
  const issues = useMemo(() => (output?.ok && value ? validationIssues(output, value.value) : []), [output, value]);
  if (!output) return null;
  if (!output.ok) return <Badge tone="warn" title={output.reason}>outputSchema unusable</Badge>;
  if (!value) return isError ? null : <Badge tone="bad" title="The tool declares an outputSchema, so its results must carry structuredContent">invalid: no structuredContent</Badge>;
  if (issues.length === 0) return <Badge tone="good" title="structuredContent matches the tool's outputSchema">valid</Badge>;
  return (
    <div className="w-full space-y-1">
      <Badge tone="bad" title="structuredContent does not match the tool's outputSchema">invalid</Badge>
      <ul aria-label="outputSchema errors" className="list-inside list-disc text-xs text-red-800 dark:text-red-300">
        {issues.slice(0, 50).map((issue, i) => <li key={i}><code><Text>{issue.path || '(root)'}</Text></code> <Text>{issue.message}</Text></li>)}
      </ul>
    </div>
  );
}

function Succeeded({ result, output, onOpenResource }: { result: unknown; output?: SchemaCheck; onOpenResource?: (uri: string) => void }): ReactNode {
  const normalised = useMemo(() => normaliseToolResult(result), [result]);
  return (
    <div className="space-y-2">
      {normalised.isError && (
        <p role="alert" className="flex items-center gap-2 text-sm font-semibold text-red-700 dark:text-red-300">
          <Badge tone="bad">Error</Badge> The tool reported an error (isError: true)
        </p>
      )}
      {normalised.problems.map((p, i) => <Note key={i} tone="warn">⚠ {p}</Note>)}
      {normalised.blocks.map((block, i) => <ResultBlockView key={i} block={block} onOpenResource={onOpenResource} />)}
      {(normalised.structuredContent !== undefined || output !== undefined) && (
        <section aria-label="structuredContent" className="space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-mono text-xs font-semibold text-zinc-500 dark:text-zinc-400">structuredContent</h3>
            <OutputVerdict output={output} value={normalised.structuredContent} isError={normalised.isError} />
          </div>
          {normalised.structuredContent !== undefined && (
            <div className="max-h-96 overflow-auto rounded-md bg-zinc-50 p-2 dark:bg-zinc-800/60">
              <ResultJsonTree value={normalised.structuredContent.value} label="structuredContent tree" />
            </div>
          )}
        </section>
      )}
    </div>
  );
}

/** ok / isError / failed / cancelled, from the outcome. */
function verdict(outcome: CallOutcome): { label: string; tone: 'good' | 'bad' | 'neutral' } {
  if (isCancelled(outcome)) return { label: 'cancelled', tone: 'neutral' };
  if (!outcome.ok) return { label: 'failed', tone: 'bad' };
  const isError = outcome.result !== null && typeof outcome.result === 'object' && (outcome.result as { isError?: unknown }).isError === true;
  return isError ? { label: 'isError', tone: 'bad' } : { label: 'ok', tone: 'good' };
}

function Heading({ call, actions }: { call: ResultCall; actions?: ReactNode }): ReactNode {
  const outcome = call.outcome;
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2">
      <h2 className="text-sm font-semibold">Result</h2>
      <Text className="min-w-0 break-all font-mono text-xs text-zinc-500 dark:text-zinc-400">{call.tool}</Text>
      {call.status === 'running' && <Badge tone="info">{call.cancelRequested ? 'cancelling…' : 'running…'}</Badge>}
      {outcome && <Badge tone={verdict(outcome).tone}>{verdict(outcome).label}</Badge>}
      {outcome && <span className="text-xs text-zinc-500 dark:text-zinc-400">{formatDuration(outcome.durationMs)}</span>}
      {actions && <span className="ml-auto flex items-center gap-2">{actions}</span>}
    </div>
  );
}

/** A task in flight, or a task of this tab (2025-11-25 "Run as task") whose result is in its own panel. */
function TaskNote({ task }: { task: ResultTask }): ReactNode {
  const status = task.status === 'creating' ? 'creating the task' : task.status;
  return (
    <>
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">Result</h2>
        <Text className="min-w-0 break-all font-mono text-xs text-zinc-500 dark:text-zinc-400">{task.tool}</Text>
        <Badge tone={task.ended ? 'neutral' : 'info'}>{task.ended ? `task ${task.status}` : 'task running…'}</Badge>
      </div>
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-200">
        {task.ended ? `The task ended (${task.status}): its result is in the Task result above.` : `The task is running (${status}): its result appears ${task.modern ? 'here' : 'in the task panel above'} when it ends.`}
      </p>
    </>
  );
}

export function ResultView({ call, task, interception, output, onCancel, onOpenResource, actions }: ResultViewProps): ReactNode {
  const taskFirst = task !== undefined && (!task.ended || call === undefined);
  return (
    <section aria-label="Result" className="rounded-lg border border-zinc-200 bg-white p-3 shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
      {taskFirst ? (
        <TaskNote task={task} />
      ) : call === undefined ? (
        <>
          <h2 className="mb-1 text-sm font-semibold">Result</h2>
          <Note>Run a tool to see its result here.</Note>
        </>
      ) : (
        <>
          <Heading call={call} actions={actions} />
          {interception}
          {call.status === 'running' && <CallProgress progress={call.progress} label={`Progress of ${call.tool}`} cancelling={call.cancelRequested} onCancel={onCancel} />}
          {call.outcome !== undefined && (call.outcome.ok ? <Succeeded result={call.outcome.result} output={output} onOpenResource={onOpenResource} /> : <FailedCall error={call.outcome.error} />)}
          {call.lateResponseSeq !== undefined && (
            <Note tone="warn">The server answered after the cancel (trace #{call.lateResponseSeq}): the late response is in History, not shown as the result.</Note>
          )}
        </>
      )}
    </section>
  );
}
