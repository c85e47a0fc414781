/** WAI-ARIA tabs: a tablist with roving focus (arrow keys, Home/End) and one visible panel. */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabSpec<Id extends string> {
  id: Id;
  label: string;
  /** Shown after the label, outside the tab's accessible name. */
  count?: number;
}

export interface TabsProps<Id extends string> {
  tabs: readonly TabSpec<Id>[];
  selected: Id;
  onSelect(id: Id): void;
  label: string;
  children: ReactNode;
}

export function Tabs<Id extends string>({ tabs, selected, onSelect, label, children }: TabsProps<Id>): ReactNode {
  const base = useId();
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const move = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const target = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    onSelect(tabs[target].id);
    refs.current.get(tabs[target].id)?.focus();
  };
  return (
    <div className="flex min-h-0 flex-col">
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-x-1 border-b border-zinc-200 dark:border-zinc-700">
        {tabs.map((tab, index) => {
          const active = tab.id === selected;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                if (el) refs.current.set(tab.id, el);
              }}
              role="tab"
              id={`${base}-tab-${tab.id}`}
              aria-selected={active}
              aria-controls={`${base}-panel`}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(tab.id)}
              onKeyDown={(e) => move(e, index)}
              className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium ${active ? 'border-sky-600 text-sky-700 dark:border-sky-400 dark:text-sky-300' : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100'}`}
            >
              {tab.label}
              {tab.count !== undefined && (
                <span aria-hidden="true" className="ml-1.5 rounded-full bg-zinc-200 px-1.5 text-[11px] text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200">
                  {tab.count}
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} className="min-h-0 flex-1 pt-3">
        {children}
      </div>
    </div>
  );
}
