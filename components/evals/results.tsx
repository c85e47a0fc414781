/**
 * What the eval runs came to (issue 27): a table of case × model (pass rate, tokens in and out, the
 * mean time of a run, the cost and where it comes from), then every failed run with its reasons in
 * words and, a press away, its transcript as the Playground shows a conversation.
 */
import { useState, type ReactNode } from 'react';
import { createLoop, type LoopState } from '../../lib/playground/loop.ts';
import { costWords, formatMs, passWords, type EvalCell, type EvalReport } from '../../lib/evals/report.ts';
import type { RunRecord } from '../../lib/evals/runner.ts';
import { ConversationView } from '../playground/conversation.tsx';
import { Badge, buttonClass } from '../ui/ui.tsx';

/** A finished run as the loop state the Playground's conversation view draws. */
function loopOf(record: RunRecord): LoopState {
  const t = record.transcript;
  return { ...createLoop({ tools: [] }), messages: t.messages, turns: t.turns, status: t.status, ...(t.reason !== undefined ? { reason: t.reason } : {}) };
}

const runName = (r: RunRecord) => `${r.case} × ${r.model}, run ${r.repeat}`;
const muted = 'text-xs text-zinc-600 dark:text-zinc-300';

function Cell({ cell }: { cell: EvalCell | undefined }): ReactNode {
  if (!cell || cell.runs === 0) return <span className={muted}>not run</span>;
  const tone = cell.passes === cell.runs ? 'good' : cell.passes === 0 ? 'bad' : 'warn';
  return (
    <div className="space-y-0.5">
      <Badge tone={tone}>{passWords(cell)} passed</Badge>
      {cell.errors > 0 && <div className="text-xs text-red-800 dark:text-red-200">{cell.errors} could not be judged</div>}
      <div className={muted}>{cell.inputTokens} in · {cell.outputTokens} out tokens · {formatMs(cell.meanMs)} a run · {costWords(cell.cost)}</div>
    </div>
  );
}

function ResultTable({ report }: { report: EvalReport }): ReactNode {
  const cellOf = (c: string, m: string) => report.cells.find((x) => x.case === c && x.model === m);
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="mb-1 text-left text-xs text-zinc-600 dark:text-zinc-300">Pass rate per case and model; cost as the provider reported it, or from the eval file’s price table</caption>
        <thead>
          <tr className="border-b border-zinc-200 dark:border-zinc-700">
            <th scope="col" className="py-1 pr-3 font-medium">Case</th>
            {report.models.map((m) => (
              <th key={m} scope="col" className="break-all py-1 pr-3 font-mono text-xs font-medium">{m}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.cases.map((c) => (
            <tr key={c} className="border-b border-zinc-100 align-top dark:border-zinc-800">
              <th scope="row" className="py-1 pr-3 font-medium">{c}</th>
              {report.models.map((m) => (
                <td key={m} className="py-1 pr-3">
                  <Cell cell={cellOf(c, m)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FailedRun({ record }: { record: RunRecord }): ReactNode {
  const [open, setOpen] = useState(false);
  const name = runName(record);
  return (
    <li aria-label={name} className="space-y-2 rounded border border-red-200 p-2 dark:border-red-900">
      <h4 className="text-sm font-semibold">{name}</h4>
      <ul className="list-disc pl-5 text-sm text-red-800 dark:text-red-200">
        {record.verdict.reasons.map((reason, i) => <li key={i}>{reason}</li>)}
      </ul>
      <button type="button" className={buttonClass} aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} transcript: {name}
      </button>
      {open && (
        <ConversationView
          label={`Transcript: ${name}`}
          model={record.model}
          loop={loopOf(record)}
          hasExchange={() => false}
          hasFrame={() => false}
          onShowExchange={() => undefined}
          onShowFrame={() => undefined}
          onDecide={() => undefined}
        />
      )}
    </li>
  );
}

export function EvalResults({ report }: { report: EvalReport | undefined }): ReactNode {
  if (!report || report.records.length === 0) return null;
  const failed = report.records.filter((r) => !r.verdict.pass);
  return (
    <div className="space-y-3">
      <section aria-label="Eval results" className="space-y-2">
        <h3 className="text-sm font-semibold">Results</h3>
        <ResultTable report={report} />
      </section>
      {failed.length > 0 && (
        <section aria-label="Failed runs" className="space-y-2">
          <h3 className="text-sm font-semibold">Failed runs ({failed.length})</h3>
          <ul className="space-y-2">
            {failed.map((r) => <FailedRun key={`${r.case}|${r.model}|${r.repeat}`} record={r} />)}
          </ul>
        </section>
      )}
    </div>
  );
}
