/**
 * A text field with suggestions (an ARIA combobox): the server's `completion/complete` values for
 * what has been typed so far. Arrow keys move, Enter picks, Escape closes.
 */
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Text } from './text.tsx';
import { inputClass } from './ui.tsx';

export interface Suggestions {
  values: readonly string[];
  total?: number;
  hasMore: boolean;
  loading: boolean;
  error?: string;
  problem?: string;
}

export interface CompletionInputProps {
  label: string;
  description?: string;
  required?: boolean;
  value: string;
  suggestions?: Suggestions;
  onChange(value: string): void;
  /** Ask for suggestions for this value (on typing and on focus). */
  onQuery?: (value: string) => void;
}

export function CompletionInput({ label, description, required, value, suggestions, onChange, onQuery }: CompletionInputProps): ReactNode {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const values = suggestions?.values ?? [];
  const showList = open && values.length > 0;
  const pick = (v: string) => {
    onChange(v);
    onQuery?.(v);
    setOpen(false);
    setActive(-1);
  };
  const keys = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (values.length === 0 ? -1 : (a + step + values.length) % values.length));
    } else if (e.key === 'Enter' && showList && active >= 0) {
      e.preventDefault();
      pick(values[active]);
    } else if (e.key === 'Escape') setOpen(false);
  };
  return (
    <div className="relative">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-700 dark:text-zinc-300">
        <Text>{label}</Text>{required && <span className="ml-0.5 text-red-600 dark:text-red-400" aria-label="required">*</span>}
      </label>
      <input
        id={id}
        role="combobox"
        aria-expanded={showList}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${id}-opt-${active}` : undefined}
        aria-describedby={description !== undefined ? `${id}-desc` : undefined}
        autoComplete="off"
        className={inputClass}
        value={value}
        onChange={(e) => { onChange(e.target.value); onQuery?.(e.target.value); setOpen(true); setActive(-1); }}
        onFocus={() => { onQuery?.(value); setOpen(true); }}
        onBlur={() => setOpen(false)}
        onKeyDown={keys}
      />
      {description !== undefined && <p id={`${id}-desc`} className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400"><Text>{description}</Text></p>}
      {showList && (
        <ul role="listbox" id={`${id}-list`} aria-label={`Suggestions for ${label}`} className="absolute z-20 mt-1 max-h-60 w-full overflow-auto rounded-md border border-zinc-300 bg-white py-1 text-sm shadow-lg dark:border-zinc-600 dark:bg-zinc-900">
          {values.map((v, i) => (
            <li key={`${i}:${v}`} id={`${id}-opt-${i}`} role="option" aria-selected={i === active} onMouseDown={(e) => { e.preventDefault(); pick(v); }}
              className={`cursor-pointer break-all px-2 py-1 ${i === active ? 'bg-sky-100 dark:bg-sky-900' : 'hover:bg-zinc-100 dark:hover:bg-zinc-800'}`}>
              <Text>{v}</Text>
            </li>
          ))}
          {(suggestions?.hasMore || (suggestions?.total ?? 0) > values.length) && <li className="px-2 py-1 text-xs text-zinc-500 dark:text-zinc-400">{suggestions?.total !== undefined ? `${suggestions.total} in all` : 'more on the server'}: keep typing</li>}
        </ul>
      )}
      {suggestions?.error !== undefined && <p className="mt-0.5 text-xs text-amber-800 dark:text-amber-300">Completions failed: <Text>{suggestions.error}</Text></p>}
      {suggestions?.problem !== undefined && <p className="mt-0.5 text-xs text-amber-800 dark:text-amber-300">⚠ <Text>{suggestions.problem}</Text></p>}
    </div>
  );
}
