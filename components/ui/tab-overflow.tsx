/**
 * `More`: the tabs a row of tabs cannot show, as a menu (WAI-ARIA menu button: Enter, Space or the
 * down arrow open it on its first item; arrows, Home and End move; Escape closes it). Choosing an
 * item selects that tab, which the row then scrolls into view and focuses.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabSpec<Id extends string> {
  id: Id;
  label: string;
  /** Shown after the label, outside the tab's accessible name. */
  count?: number;
  /** The group it belongs to (e.g. `Inspect`); a divider starts each group. */
  group?: string;
}

export interface TabOverflowProps<Id extends string> {
  /** The tabs out of view, in row order. */
  tabs: readonly TabSpec<Id>[];
  selected: Id;
  onSelect(id: Id): void;
}

/** Consecutive tabs of one group together, in row order. */
function groupsOf<Id extends string>(tabs: readonly TabSpec<Id>[]): [string | undefined, TabSpec<Id>[]][] {
  const out: [string | undefined, TabSpec<Id>[]][] = [];
  for (const tab of tabs) {
    const last = out[out.length - 1];
    if (last && last[0] === tab.group) last[1].push(tab);
    else out.push([tab.group, [tab]]);
  }
  return out;
}

/** The menu's items, under their groups' names. */
function MenuItems<Id extends string>({ tabs, selected, id, onChoose }: { tabs: readonly TabSpec<Id>[]; selected: Id; id: string; onChoose(id: Id): void }): ReactNode {
  return (
    <>
    {groupsOf(tabs).map(([name, members], i) => (
      <div key={`${i}:${name ?? ""}`} role="group" aria-labelledby={name ? `${id}-${name}` : undefined} aria-label={name ? undefined : 'Tabs'}>
        {name && <div id={`${id}-${name}`} className="px-3 pb-0.5 pt-1.5 text-[11px] font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{name}</div>}
        {members.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => onChoose(tab.id)}
            className={`flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none dark:hover:bg-zinc-800 dark:focus:bg-zinc-800 ${tab.id === selected ? 'font-semibold text-sky-700 dark:text-sky-300' : 'text-zinc-800 dark:text-zinc-100'}`}
          >
            {tab.label}
            {tab.count !== undefined && <span aria-hidden="true" className="ml-auto rounded-full bg-zinc-200 px-1.5 text-[11px] text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200">{tab.count}</span>}
          </button>
        ))}
      </div>
    ))}
    </>
  );
}

export function TabOverflow<Id extends string>({ tabs, selected, onSelect }: TabOverflowProps<Id>): ReactNode {
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const away = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const key = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const next = { ArrowDown: (at + 1) % all.length, ArrowUp: (at - 1 + all.length) % all.length, Home: 0, End: all.length - 1 }[event.key];
    if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      close();
    } else if (next !== undefined) {
      event.preventDefault();
      all[next]?.focus();
    }
  };
  return (
    <div className="relative shrink-0 pb-1">
      <button
        ref={button}
        type="button"
        aria-label="More tabs"
        title={`${tabs.length} more: ${tabs.map((t) => t.label).join(', ')}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        {/* No count on the button: its visible words must stay within its name (`More tabs`). */}
        More
        <svg aria-hidden="true" viewBox="0 0 12 12" className="size-3"><path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" /></svg>
      </button>
      {open && (
        <div ref={menu} id={`${id}-menu`} role="menu" aria-label="More tabs" onKeyDown={key} className="absolute right-0 top-full z-30 mt-1 min-w-44 rounded-md border border-zinc-200 bg-white py-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
          <MenuItems tabs={tabs} selected={selected} id={id} onChoose={(tab) => { setOpen(false); onSelect(tab); }} />
        </div>
      )}
    </div>
  );
}
