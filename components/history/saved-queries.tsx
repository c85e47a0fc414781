/**
 * Named History queries, kept in the workspace (issue 26): `Save query` asks for a name (`Query
 * name`, Enter saves, Escape cancels) and keeps the query under it (the same name replaces it);
 * `Saved queries` applies one; `Forget query` drops the one applied.
 */
import { useState, type ReactNode } from 'react';
import type { SavedQuery } from '../../lib/workspace/workspace.ts';
import { buttonClass, inputClass } from '../ui/ui.tsx';

export interface SavedQueriesProps {
  queries: readonly SavedQuery[];
  /** The query in the box. */
  current: string;
  /** Keep `query` under `name`; returns why not. */
  onSave(name: string, query: string): string | undefined;
  onApply(query: string): void;
  onForget(name: string): void;
}

const small = `${buttonClass} !px-2 !py-1 !text-xs`;
const selectClass = `${inputClass} !w-auto !py-1 text-xs`;

export function SavedQueries({ queries, current, onSave, onApply, onForget }: SavedQueriesProps): ReactNode {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  const applied = queries.find((q) => q.query === current.trim());
  const save = () => {
    const why = name.trim() === '' ? 'Give the query a name' : onSave(name.trim(), current.trim());
    setProblem(why);
    if (!why) setNaming(false);
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {naming ? (
        <form
          className="inline-flex items-center gap-1.5"
          aria-label="Save query"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <input
            aria-label="Query name"
            className={`${inputClass} !w-48 !py-1 text-xs`}
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                setNaming(false);
                setProblem(undefined);
              }
            }}
          />
          <button type="submit" className={small}>Save</button>
          <button type="button" className={small} onClick={() => setNaming(false)}>Cancel</button>
        </form>
      ) : (
        <button
          type="button"
          className={small}
          disabled={current.trim() === ''}
          onClick={() => {
            setName(applied?.name ?? '');
            setProblem(undefined);
            setNaming(true);
          }}
        >
          Save query
        </button>
      )}
      {queries.length > 0 && (
        <select aria-label="Saved queries" className={selectClass} value={applied?.name ?? ''} onChange={(e) => {
          const chosen = queries.find((q) => q.name === e.target.value);
          if (chosen) onApply(chosen.query);
        }}>
          <option value="">Saved queries…</option>
          {queries.map((q) => (
            <option key={q.name} value={q.name}>{q.name}</option>
          ))}
        </select>
      )}
      {applied && <button type="button" className={small} onClick={() => onForget(applied.name)}>Forget query</button>}
      {problem && <p role="alert" className="text-xs text-red-700 dark:text-red-300">{problem}</p>}
    </div>
  );
}
