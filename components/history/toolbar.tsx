/**
 * The History filters: the query (text anywhere in the raw JSON, or the query language of
 * lib/trace/query.ts, with completion and saved queries), kinds, method, direction, errors,
 * violations, folding. The controls and the query are ANDed.
 */
import type { ReactNode } from 'react';
import { ROW_KINDS, type DirectionFilter, type TraceFilter } from '../../lib/trace/filter.ts';
import type { QueryValues } from '../../lib/trace/query-complete.ts';
import { buttonClass, inputClass } from '../ui/ui.tsx';
import { QueryBox } from './query-box.tsx';
import { SavedQueries, type SavedQueriesProps } from './saved-queries.tsx';

export interface HistoryToolbarProps {
  filter: TraceFilter;
  /** Methods seen in the trace, with their row counts. */
  methods: readonly (readonly [string, number])[];
  shown: number;
  total: number;
  violations: number;
  onFilter(patch: Partial<TraceFilter>): void;
  onReset(): void;
  /** What the trace holds, for the query's completion. */
  values?(): QueryValues;
  /** The workspace's saved queries (absent: none can be saved here). */
  saved?: Omit<SavedQueriesProps, 'current' | 'onApply'>;
}

const NO_VALUES: QueryValues = { method: [], server: [], kind: [], tool: [] };
const noValues = () => NO_VALUES;

const chip = 'rounded-full border px-2 py-0.5 text-xs';
const chipOn = 'border-sky-700 bg-sky-700 text-white dark:border-sky-500 dark:bg-sky-700';
const chipOff = 'border-zinc-300 text-zinc-700 hover:bg-zinc-100 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800';
const selectClass = `${inputClass} !w-auto !py-1 text-xs`;

function toggle(list: readonly string[], item: string): string[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange(checked: boolean): void }): ReactNode {
  return (
    <label className="inline-flex items-center gap-1.5 text-xs text-zinc-700 dark:text-zinc-200">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

export function HistoryToolbar({ filter, methods, shown, total, violations, onFilter, onReset, values, saved }: HistoryToolbarProps): ReactNode {
  const narrowed = shown !== total;
  return (
    <div className="space-y-2">
      <div className="flex items-start gap-2">
        <QueryBox value={filter.query ?? ''} onChange={(query) => onFilter({ query })} values={values ?? noValues} />
        <span role="status" aria-label="Rows shown" className="shrink-0 text-xs tabular-nums text-zinc-500 dark:text-zinc-400">
          {narrowed ? `${shown.toLocaleString('en')} of ${total.toLocaleString('en')} rows` : `${total.toLocaleString('en')} rows`}
        </span>
        <button type="button" className={`${buttonClass} !px-2 !py-1 !text-xs`} onClick={onReset}>Clear filters</button>
      </div>
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Kinds">
        {ROW_KINDS.map((kind) => {
          const on = filter.kinds.includes(kind);
          return (
            <button key={kind} type="button" aria-pressed={on} className={`${chip} ${on ? chipOn : chipOff}`} onClick={() => onFilter({ kinds: toggle(filter.kinds, kind) })}>
              {kind}
            </button>
          );
        })}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <label className="inline-flex items-center gap-1.5 text-xs text-zinc-700 dark:text-zinc-200">
          Method
          <select aria-label="Method" className={selectClass} value={filter.methods[0] ?? ''} onChange={(e) => onFilter({ methods: e.target.value === '' ? [] : [e.target.value] })}>
            <option value="">All methods</option>
            {methods.map(([method, count]) => (
              <option key={method} value={method}>{`${method} (${count})`}</option>
            ))}
          </select>
        </label>
        <label className="inline-flex items-center gap-1.5 text-xs text-zinc-700 dark:text-zinc-200">
          Direction
          <select aria-label="Direction" className={selectClass} value={filter.dir} onChange={(e) => onFilter({ dir: e.target.value as DirectionFilter })}>
            <option value="any">Both ways</option>
            <option value="out">→ out (Loupe → server)</option>
            <option value="in">← in (server → Loupe)</option>
          </select>
        </label>
        <Check label="Errors only" checked={filter.errorsOnly} onChange={(errorsOnly) => onFilter({ errorsOnly })} />
        <Check label={`Violations only (${violations})`} checked={filter.violationsOnly} onChange={(violationsOnly) => onFilter({ violationsOnly })} />
        <Check label="Fold responses into requests" checked={filter.fold} onChange={(fold) => onFilter({ fold })} />
      </div>
      {saved && <SavedQueries {...saved} current={filter.query ?? ''} onApply={(query) => onFilter({ query })} />}
    </div>
  );
}
