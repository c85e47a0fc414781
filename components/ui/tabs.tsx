/**
 * WAI-ARIA tabs: a tablist with roving focus (arrow keys, Home/End) and one visible panel.
 *
 * The tabs stay on one row whatever the width (issue 26): the row scrolls sideways (its scrollbar
 * hidden), the selected tab is kept in view, and `More` lists the tabs the row cannot show, by group.
 * Every tab stays a `tab` in the one tablist, so its name reaches it wherever it sits.
 */
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { TabOverflow, type TabSpec } from './tab-overflow.tsx';

export type { TabSpec };

export interface TabsProps<Id extends string> {
  tabs: readonly TabSpec<Id>[];
  selected: Id;
  onSelect(id: Id): void;
  label: string;
  children: ReactNode;
}

/** The tabs the row shows only in part or not at all, re-measured on a resize and a scroll. */
function useOutOfView<Id extends string>(strip: RefObject<HTMLDivElement | null>, refs: Map<Id, HTMLButtonElement>, tabs: readonly TabSpec<Id>[], selected: Id): { out: readonly Id[]; more: 'left' | 'right' | 'both' | undefined } {
  const [out, setOut] = useState<readonly Id[]>([]);
  const [more, setMore] = useState<'left' | 'right' | 'both'>();
  const ids = tabs.map((t) => t.id).join(' ');
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    const measure = () => {
      const left = el.scrollLeft;
      const right = left + el.clientWidth;
      const next = tabs.filter((t) => {
        const tab = refs.get(t.id);
        return tab !== undefined && (tab.offsetLeft < left - 1 || tab.offsetLeft + tab.offsetWidth > right + 1);
      }).map((t) => t.id);
      setOut((old) => (old.length === next.length && old.every((id, i) => id === next[i]) ? old : next));
      const atLeft = left > 1;
      const atRight = right < el.scrollWidth - 1;
      setMore(atLeft && atRight ? 'both' : atLeft ? 'left' : atRight ? 'right' : undefined);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    // The tabs too: a count that arrives widens its tab without resizing the row, and More must be
    // there before anyone reaches for a tab (appearing later, it shifts the row under the pointer).
    for (const tab of refs.values()) observer.observe(tab);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', measure);
    };
    // `ids` stands for the tabs: a count changing does not move anything worth re-subscribing for.
  }, [ids]);
  // Keep the selected tab in view (the row only: scrollIntoView would move the page too).
  useLayoutEffect(() => {
    const el = strip.current;
    const tab = refs.get(selected);
    if (!el || !tab) return;
    if (tab.offsetLeft < el.scrollLeft) el.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > el.scrollLeft + el.clientWidth) el.scrollLeft = tab.offsetLeft + tab.offsetWidth - el.clientWidth;
  }, [selected, strip, refs, ids]);
  return { out, more };
}

/** The row's edges fade where it has more tabs beyond them. */
const FADE = {
  left: '[mask-image:linear-gradient(to_right,transparent,black_2rem)]',
  right: '[mask-image:linear-gradient(to_left,transparent,black_2rem)]',
  both: '[mask-image:linear-gradient(to_right,transparent,black_2rem,black_calc(100%-2rem),transparent)]',
};

export function Tabs<Id extends string>({ tabs, selected, onSelect, label, children }: TabsProps<Id>): ReactNode {
  const base = useId();
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const strip = useRef<HTMLDivElement>(null);
  const { out, more } = useOutOfView(strip, refs.current, tabs, selected);
  const choose = (id: Id) => {
    onSelect(id);
    refs.current.get(id)?.focus();
  };
  const move = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const target = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    choose(tabs[target].id);
  };
  return (
    <div className="flex min-h-0 flex-col">
      <div className="flex items-end gap-1 border-b border-zinc-200 dark:border-zinc-700">
        <div ref={strip} role="tablist" aria-label={label} className={`relative flex min-w-0 flex-1 overflow-x-auto [scrollbar-width:none] ${more ? FADE[more] : ''}`}>
          {tabs.map((tab, index) => {
            const active = tab.id === selected;
            const starts = index > 0 && tab.group !== undefined && tab.group !== tabs[index - 1].group;
            return (
              <button
                key={tab.id}
                ref={(el) => {
                  if (el) refs.current.set(tab.id, el);
                  else refs.current.delete(tab.id);
                }}
                role="tab"
                id={`${base}-tab-${tab.id}`}
                aria-selected={active}
                aria-controls={`${base}-panel`}
                tabIndex={active ? 0 : -1}
                onClick={() => onSelect(tab.id)}
                onKeyDown={(e) => move(e, index)}
                className={`relative shrink-0 whitespace-nowrap border-b-2 px-2.5 py-2 text-sm font-medium ${starts ? 'ml-2 before:absolute before:-left-1.5 before:top-2.5 before:bottom-2.5 before:w-px before:bg-zinc-300 dark:before:bg-zinc-600' : ''} ${active ? 'border-sky-600 text-sky-700 dark:border-sky-400 dark:text-sky-300' : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100'}`}
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
        {out.length > 0 && <TabOverflow tabs={tabs.filter((t) => out.includes(t.id))} selected={selected} onSelect={choose} />}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} className="min-h-0 flex-1 pt-3">
        {children}
      </div>
    </div>
  );
}
