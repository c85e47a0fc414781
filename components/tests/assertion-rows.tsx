/**
 * A call's assertions as editable rows (issue 27): per row a check (a select), its path where it has
 * one, its value, and `Remove`; `Add assertion` below. Each control is named by its row's number.
 */
import type { ReactNode } from 'react';
import { blankRow, CHECKS, hasPath, TYPES, VALUE_LABEL, type AssertionRow, type Check } from './assertion-form.ts';
import { buttonClass, inputClass } from '../ui/ui.tsx';

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;
const field = `${inputClass} !py-0.5 text-xs`;

function ValueField({ row, n, onChange }: { row: AssertionRow; n: number; onChange(value: string): void }): ReactNode {
  const label = `${VALUE_LABEL[row.check] ?? 'Value'} of assertion ${n}`;
  if (row.check === 'outputSchema') return null;
  if (row.check === 'isError' || row.check === 'exists') {
    return (
      <select aria-label={label} className={`${field} !w-24`} value={row.value === 'false' ? 'false' : 'true'} onChange={(e) => onChange(e.target.value)}>
        <option value="true">yes</option>
        <option value="false">no</option>
      </select>
    );
  }
  if (row.check === 'type') {
    return (
      <select aria-label={label} className={`${field} !w-28`} value={row.value} onChange={(e) => onChange(e.target.value)}>
        {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
      </select>
    );
  }
  const mono = row.check === 'equals' || row.check === 'matches' || row.check === 'notification';
  return <input aria-label={label} className={`${field} min-w-0 flex-1 ${mono ? 'font-mono' : ''}`} value={row.value} placeholder={VALUE_LABEL[row.check]} onChange={(e) => onChange(e.target.value)} />;
}

export interface AssertionRowsProps {
  rows: readonly AssertionRow[];
  onChange(rows: AssertionRow[]): void;
}

export function AssertionRows({ rows, onChange }: AssertionRowsProps): ReactNode {
  const set = (i: number, next: AssertionRow) => onChange(rows.map((r, j) => (j === i ? next : r)));
  return (
    <fieldset className="space-y-1">
      <legend className="text-xs font-medium text-zinc-600 dark:text-zinc-300">Assertions</legend>
      {rows.length === 0 && <p className="text-xs text-zinc-500 dark:text-zinc-400">None: the call passes when it is answered.</p>}
      <ol className="space-y-1">
        {rows.map((row, i) => {
          const n = i + 1;
          return (
            <li key={i} className="flex flex-wrap items-center gap-1">
              <span aria-hidden="true" className="w-5 text-right text-xs text-zinc-500 dark:text-zinc-400">{n}.</span>
              <select aria-label={`Check of assertion ${n}`} className={`${field} !w-56`} value={row.check} onChange={(e) => set(i, blankRow(e.target.value as Check, row.path || '$'))}>
                {CHECKS.map(([check, words]) => <option key={check} value={check}>{words}</option>)}
              </select>
              {hasPath(row.check) && <input aria-label={`Path of assertion ${n}`} className={`${field} !w-56 font-mono`} value={row.path} onChange={(e) => set(i, { ...row, path: e.target.value })} />}
              <ValueField row={row} n={n} onChange={(value) => set(i, { ...row, value })} />
              <button type="button" className={small} aria-label={`Remove assertion ${n}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove</button>
            </li>
          );
        })}
      </ol>
      <button type="button" className={small} onClick={() => onChange([...rows, blankRow('isError')])}>Add assertion</button>
    </fieldset>
  );
}
