/** The latest tool call: what came back, whether it is an error, and how long it took. */
import { useMemo, type ReactNode } from 'react';
import { normaliseToolResult } from '../lib/tool-result.ts';
import { formatDuration } from '../lib/trace.ts';
import type { LoupeError, RpcError } from '../lib/wire.ts';
import { ResultBlockView } from './result-blocks.tsx';
import { Pre, Text } from './text.tsx';
import { Badge, Note } from './ui.tsx';

export type CallOutcome =
  | { ok: true; result: unknown; durationMs: number }
  | { ok: false; error: RpcError | LoupeError; durationMs: number };

export interface ResultViewProps {
  call?: { tool: string; status: 'running' | 'done'; outcome?: CallOutcome; cancelRequested?: boolean };
}

/** The SDK prefixes JSON-RPC error messages with "MCP error <code>: "; the code is shown already. */
function serverMessage(error: RpcError | LoupeError): string {
  return typeof error.code === 'number' ? error.message.replace(`MCP error ${error.code}: `, '') : error.message;
}

function FailedCall({ error }: { error: RpcError | LoupeError }): ReactNode {
  const rpc = typeof error.code === 'number';
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
      <p className="font-semibold">
        {rpc ? `JSON-RPC error ${error.code}` : `Loupe error ${error.code}`}: <Text>{serverMessage(error)}</Text>
      </p>
      {'hint' in error && error.hint !== undefined && <p><Text>{error.hint}</Text></p>}
      {'data' in error && error.data !== undefined && <Pre className="mt-1 max-h-48 overflow-auto">{JSON.stringify(error.data, null, 2) ?? ''}</Pre>}
    </div>
  );
}

function Succeeded({ result }: { result: unknown }): ReactNode {
  const normalised = useMemo(() => normaliseToolResult(result), [result]);
  return (
    <div className="space-y-2">
      {normalised.isError && (
        <p role="alert" className="flex items-center gap-2 text-sm font-semibold text-red-700 dark:text-red-300">
          <Badge tone="bad">Error</Badge> The tool reported an error (isError: true)
        </p>
      )}
      {normalised.problems.map((p, i) => <Note key={i} tone="warn">⚠ {p}</Note>)}
      {normalised.blocks.map((block, i) => <ResultBlockView key={i} block={block} />)}
      {normalised.structuredContent !== undefined && (
        <div>
          <h3 className="mb-1 font-mono text-xs font-semibold text-zinc-500 dark:text-zinc-400">structuredContent</h3>
          <Pre className="max-h-96 overflow-auto rounded-md bg-zinc-50 p-2 dark:bg-zinc-800/60">{JSON.stringify(normalised.structuredContent.value, null, 2) ?? 'undefined'}</Pre>
        </div>
      )}
    </div>
  );
}

/** ok / isError / failed, from the outcome (a result with isError: true is a tool-level error). */
function verdict(outcome: CallOutcome): { label: string; tone: 'good' | 'bad' } {
  if (!outcome.ok) return { label: 'failed', tone: 'bad' };
  const isError = outcome.result !== null && typeof outcome.result === 'object' && (outcome.result as { isError?: unknown }).isError === true;
  return isError ? { label: 'isError', tone: 'bad' } : { label: 'ok', tone: 'good' };
}

function Heading({ call }: Required<ResultViewProps>): ReactNode {
  const outcome = call.outcome;
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2">
      <h2 className="text-sm font-semibold">Result</h2>
      <Text className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{call.tool}</Text>
      {call.status === 'running' && <Badge tone="info">{call.cancelRequested ? 'cancelling…' : 'running…'}</Badge>}
      {outcome && <Badge tone={verdict(outcome).tone}>{verdict(outcome).label}</Badge>}
      {outcome && <span className="text-xs text-zinc-500 dark:text-zinc-400">{formatDuration(outcome.durationMs)}</span>}
    </div>
  );
}

export function ResultView({ call }: ResultViewProps): ReactNode {
  return (
    <section aria-label="Result" className="rounded-lg border border-zinc-200 bg-white p-3 shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
      {call === undefined ? (
        <>
          <h2 className="mb-1 text-sm font-semibold">Result</h2>
          <Note>Run a tool to see its result here.</Note>
        </>
      ) : (
        <>
          <Heading call={call} />
          {call.outcome === undefined ? <Note>Waiting for the server…</Note> : call.outcome.ok ? <Succeeded result={call.outcome.result} /> : <FailedCall error={call.outcome.error} />}
        </>
      )}
    </section>
  );
}
