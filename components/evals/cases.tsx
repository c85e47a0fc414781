/**
 * The eval cases as a form (issue 27): per case its name, prompt, system prompt, the tools the model
 * should call (each with its argument matchers as JSON), their order, the tools it must not call,
 * the words its answer must contain and a pattern it must match, and its step limit. Every field is
 * named by its case's number ("Case 1 prompt"), which stays put while names are typed.
 */
import { useId, type ReactNode } from 'react';
import type { CaseDraft, ToolDraft, ToolOrder } from '../../lib/evals/draft.ts';
import { buttonClass, inputClass, labelClass } from '../ui/ui.tsx';

export interface CaseActions {
  onCase(i: number, patch: Partial<CaseDraft>): void;
  onRemoveCase(i: number): void;
  onAddTool(i: number): void;
  onTool(i: number, j: number, patch: Partial<ToolDraft>): void;
  onRemoveTool(i: number, j: number): void;
}

const hint = 'mt-1 text-xs text-zinc-600 dark:text-zinc-300';

function Field({ label, value, onChange, rows, mono, note }: { label: string; value: string; onChange(v: string): void; rows?: number; mono?: boolean; note?: string }): ReactNode {
  const id = useId();
  const cls = `${inputClass}${mono ? ' font-mono text-xs' : ''}`;
  return (
    <div>
      <label className={labelClass} htmlFor={id}>{label}</label>
      {rows === undefined ? (
        <input id={id} className={cls} value={value} spellCheck={false} onChange={(e) => onChange(e.target.value)} aria-describedby={note ? `${id}-note` : undefined} />
      ) : (
        <textarea id={id} rows={rows} className={cls} value={value} spellCheck={false} onChange={(e) => onChange(e.target.value)} aria-describedby={note ? `${id}-note` : undefined} />
      )}
      {note && <p id={`${id}-note`} className={hint}>{note}</p>}
    </div>
  );
}

function ExpectedTool({ n, j, tool, actions, i }: { n: number; j: number; i: number; tool: ToolDraft; actions: CaseActions }): ReactNode {
  const what = `case ${n} expected tool ${j + 1}`;
  return (
    <li className="grid gap-2 rounded border border-zinc-200 p-2 sm:grid-cols-[12rem_1fr_auto] dark:border-zinc-700">
      <Field label={`Case ${n} expected tool ${j + 1}`} value={tool.name} onChange={(name) => actions.onTool(i, j, { name })} />
      <Field label={`Arguments of ${what}`} rows={2} mono value={tool.arguments} onChange={(text) => actions.onTool(i, j, { arguments: text })} />
      <div className="self-end">
        <button type="button" className={buttonClass} onClick={() => actions.onRemoveTool(i, j)}>Remove {what}</button>
      </div>
    </li>
  );
}

const MATCHERS_NOTE = 'JSON: argument → a value, or {"matches": "re"}, {"contains": "x"}, {"type": "number"}, {"any": true}. Empty: any arguments.';

function Expectations({ c, n, i, actions }: { c: CaseDraft; n: number; i: number; actions: CaseActions }): ReactNode {
  const orderId = useId();
  return (
    <div className="space-y-2">
      <p className={labelClass}>Tools the model should call</p>
      {c.tools.length === 0 && <p className={hint}>None expected: any calls will do.</p>}
      <ul className="space-y-2">
        {c.tools.map((t, j) => <ExpectedTool key={j} n={n} i={i} j={j} tool={t} actions={actions} />)}
      </ul>
      {c.tools.length > 0 && <p className={hint}>{MATCHERS_NOTE}</p>}
      <div className="flex flex-wrap items-end gap-3">
        <button type="button" className={buttonClass} onClick={() => actions.onAddTool(i)}>Add expected tool to case {n}</button>
        <div>
          <label className={labelClass} htmlFor={orderId}>Case {n} order of calls</label>
          <select id={orderId} className={inputClass} value={c.order} onChange={(e) => actions.onCase(i, { order: e.target.value as ToolOrder })}>
            <option value="any">any order</option>
            <option value="subsequence">in this order, others between</option>
            <option value="exact">exactly these, in this order</option>
          </select>
        </div>
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        <Field label={`Case ${n} forbidden tools`} rows={2} value={c.forbid} onChange={(forbid) => actions.onCase(i, { forbid })} note="One a line. A call to one is refused, never made, and fails the case." />
        <Field label={`Case ${n} answer contains`} rows={2} value={c.answerContains} onChange={(answerContains) => actions.onCase(i, { answerContains })} note="One text a line, case ignored." />
        <Field label={`Case ${n} answer matches`} value={c.answerMatches} onChange={(answerMatches) => actions.onCase(i, { answerMatches })} note="A regular expression, or /…/i." />
        <Field label={`Case ${n} step limit`} value={c.maxSteps} onChange={(maxSteps) => actions.onCase(i, { maxSteps })} note="Model calls allowed; empty: 10." />
      </div>
    </div>
  );
}

function CaseEditor({ c, i, actions }: { c: CaseDraft; i: number; actions: CaseActions }): ReactNode {
  const n = i + 1;
  return (
    <li>
      <fieldset className="space-y-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-700">
        <legend className="px-1 text-sm font-semibold">Case {n}{c.name.trim() ? `: ${c.name}` : ''}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          <Field label={`Case ${n} name`} value={c.name} onChange={(name) => actions.onCase(i, { name })} />
          <Field label={`Case ${n} system prompt`} value={c.system} onChange={(system) => actions.onCase(i, { system })} note="Optional." />
        </div>
        <Field label={`Case ${n} prompt`} rows={2} value={c.prompt} onChange={(prompt) => actions.onCase(i, { prompt })} />
        <Expectations c={c} n={n} i={i} actions={actions} />
        <button type="button" className={buttonClass} onClick={() => actions.onRemoveCase(i)}>Remove case {n}</button>
      </fieldset>
    </li>
  );
}

export function EvalCases({ cases, actions }: { cases: readonly CaseDraft[]; actions: CaseActions }): ReactNode {
  if (cases.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-300">No case yet: press Add case, or open an eval file.</p>;
  return (
    <ol className="space-y-3" aria-label="Eval cases">
      {cases.map((c, i) => <CaseEditor key={i} c={c} i={i} actions={actions} />)}
    </ol>
  );
}
