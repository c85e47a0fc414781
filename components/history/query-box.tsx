/**
 * The History's searchbox, which takes the query language (lib/trace/query.ts), with completion
 * as a listbox driven from the keyboard: ArrowDown / ArrowUp move (ArrowDown also opens it, with
 * every field when nothing is typed), Enter takes the active suggestion, Escape closes the list.
 * The box keeps its role (searchbox, `Filter history`): the list is tied to it by aria-controls and
 * aria-activedescendant. A fault is said under the box (aria-describedby), and what was typed stays.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { completeQuery, type QuerySuggestion, type QueryValues } from '../../lib/trace/query-complete.ts';
import { parseQuery } from '../../lib/trace/query.ts';
import { inputClass } from '../ui/ui.tsx';

export interface QueryBoxProps {
  value: string;
  onChange(value: string): void;
  /** What the trace holds, for completion (asked when the list opens). */
  values(): QueryValues;
}

const EMPTY: readonly QuerySuggestion[] = [];

/** The list's state and the keys that drive it. */
function useCompletion({ value, onChange, values }: QueryBoxProps) {
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [all, setAll] = useState(false);
  const [active, setActive] = useState(-1);
  const [caret, setCaret] = useState(value.length);
  const pendingCaret = useRef<number | undefined>(undefined);
  const completion = useMemo(() => (open ? completeQuery(value, Math.min(caret, value.length), values(), all) : undefined), [open, value, caret, all, values]);
  const items = completion?.items ?? EMPTY;
  const shown = open && items.length > 0;

  useEffect(() => {
    const at = pendingCaret.current;
    if (at === undefined || !input.current) return;
    pendingCaret.current = undefined;
    input.current.setSelectionRange(at, at);
  }, [value]);

  const close = () => {
    setOpen(false);
    setAll(false);
    setActive(-1);
  };
  const take = (item: QuerySuggestion) => {
    if (!completion) return;
    const next = value.slice(0, completion.from) + item.insert + value.slice(completion.to);
    const at = completion.from + item.insert.length;
    pendingCaret.current = at;
    setCaret(at);
    setActive(-1);
    setAll(false);
    // A field name goes on to its values; a value closes the list.
    setOpen(item.insert.endsWith(':'));
    onChange(next);
  };
  const typed = (text: string, at: number | null) => {
    setCaret(at ?? text.length);
    setOpen(true);
    setAll(false);
    setActive(-1);
    onChange(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!shown) {
        setOpen(true);
        setAll(true);
        setActive(0);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((at) => (at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length));
    } else if (event.key === 'Enter' && shown && active >= 0 && active < items.length) {
      event.preventDefault();
      take(items[active]);
    } else if (event.key === 'Escape' && shown) {
      // Closes the list only; a second Escape clears the box (the searchbox's own).
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') close();
  };
  return { input, items, shown, active, take, typed, close, onKeyDown, setCaret };
}

function CompletionList({ id, items, active, optionId, onTake }: { id: string; items: readonly QuerySuggestion[]; active: number; optionId(i: number): string; onTake(item: QuerySuggestion): void }): ReactNode {
  return (
    <ul id={id} role="listbox" aria-label="Query completions" className="absolute left-0 top-full z-20 mt-1 max-h-64 w-full max-w-xl overflow-auto rounded-md border border-zinc-300 bg-white py-1 text-xs shadow-lg dark:border-zinc-600 dark:bg-zinc-900">
      {items.map((item, i) => (
        <li
          key={item.label}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          className={`flex cursor-pointer justify-between gap-3 px-2 py-1 ${i === active ? 'bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100' : 'text-zinc-800 dark:text-zinc-200'}`}
          onMouseDown={(e) => {
            e.preventDefault();
            onTake(item);
          }}
        >
          <span className="font-mono">{item.label}</span>
          <span className="text-zinc-500 dark:text-zinc-400">{item.detail}</span>
        </li>
      ))}
    </ul>
  );
}

export function QueryBox(props: QueryBoxProps): ReactNode {
  const { value } = props;
  const id = useId();
  const error = useMemo(() => parseQuery(value).error, [value]);
  const { input, items, shown, active, take, typed, close, onKeyDown, setCaret } = useCompletion(props);
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const optionId = (i: number) => `${id}-option-${i}`;
  return (
    <div className="relative min-w-0 flex-1">
      <input
        ref={input}
        type="search"
        aria-label="Filter history"
        aria-autocomplete="list"
        aria-controls={shown ? listId : undefined}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder='Text, or a query: method:tools/call -status:error duration:>500ms "text"'
        className={`${inputClass} font-mono ${error ? '!border-red-600 dark:!border-red-400' : ''}`}
        value={value}
        onChange={(e) => typed(e.target.value, e.target.selectionStart)}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? value.length)}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {shown && <CompletionList id={listId} items={items} active={active} optionId={optionId} onTake={take} />}
      {error && (
        <p id={errorId} className="mt-1 text-xs text-red-700 dark:text-red-300">
          {error.message}
        </p>
      )}
    </div>
  );
}
