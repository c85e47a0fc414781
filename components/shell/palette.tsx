/**
 * The command palette (issue 26): a modal dialog `Command palette` with a combobox and a listbox of
 * results grouped by kind, matched fuzzily (lib/keyboard/fuzzy.ts), recent choices first. The
 * focus stays in the combobox; ArrowUp/Down, Home/End and PageUp/PageDown move the active option
 * (aria-activedescendant), Enter chooses it, Escape closes. Every label may come from a server: it
 * is shown as text, with invisible characters made visible before matching, so the marked letters
 * are the ones on screen.
 */
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { rank, type FuzzyMatch } from '../../lib/keyboard/fuzzy.ts';
import { visibleText } from '../ui/text.tsx';
import { Modal } from './modal.tsx';

export type PaletteKind = 'action' | 'tab' | 'server' | 'tool' | 'resource' | 'prompt' | 'saved-call' | 'frame';

export interface PaletteItem {
  /** Unique among the items, stable across openings (the recent list keeps it). */
  key: string;
  kind: PaletteKind;
  label: string;
  /** A second, dimmer line part: a description, a URI, a frame's kind. Matched too, after the label. */
  detail?: string;
  /** The shortcut's keys, one string a key. */
  keys?: readonly string[];
}

export const GROUPS: ReadonlyArray<[PaletteKind, string]> = [
  ['action', 'Actions'],
  ['tab', 'Tabs'],
  ['server', 'Servers'],
  ['tool', 'Tools'],
  ['resource', 'Resources'],
  ['prompt', 'Prompts'],
  ['saved-call', 'Saved calls'],
  ['frame', 'Recent frames'],
];

/** Options shown per group: the palette is for reaching, not listing (type more to narrow). */
const PER_GROUP = 8;
const PER_GROUP_SCOPED = 50;

export interface PaletteProps {
  items: readonly PaletteItem[];
  /** Keys of recent choices, newest first. */
  recent: readonly string[];
  /** Only this kind (`Switch server…`). */
  scope?: PaletteKind;
  onChoose(item: PaletteItem): void;
  onClose(): void;
}

interface Shown {
  kind: PaletteKind;
  title: string;
  options: Array<{ item: PaletteItem; label: string; detail?: string; match: FuzzyMatch }>;
}

function useResults(items: readonly PaletteItem[], recent: readonly string[], query: string, scope?: PaletteKind): Shown[] {
  return useMemo(() => {
    const pool = items.filter((i) => scope === undefined || i.kind === scope).map((item) => ({ item, label: visibleText(item.label), detail: item.detail === undefined ? undefined : visibleText(item.detail) }));
    // Matched against the label and the detail together; only the label's letters are marked.
    const ranked = rank(pool, query, (p) => (p.detail ? `${p.label} ${p.detail}` : p.label), (p) => p.item.key, recent);
    const groups = new Map<PaletteKind, Shown>();
    for (const { item, match } of ranked) {
      let group = groups.get(item.item.kind);
      if (!group) groups.set(item.item.kind, (group = { kind: item.item.kind, title: GROUPS.find(([k]) => k === item.item.kind)?.[1] ?? item.item.kind, options: [] }));
      if (group.options.length < (scope ? PER_GROUP_SCOPED : PER_GROUP)) group.options.push({ ...item, match: { ...match, ranges: match.ranges.filter(([s]) => s < item.label.length).map(([s, e]) => [s, Math.min(e, item.label.length)]) } });
    }
    // Groups in the order of their best option (a Map keeps insertion order, which is that).
    return [...groups.values()];
  }, [items, recent, query, scope]);
}

function Marked({ text, ranges }: { text: string; ranges: FuzzyMatch['ranges'] }): ReactNode {
  const parts: ReactNode[] = [];
  let at = 0;
  ranges.forEach(([s, e], i) => {
    if (s > at) parts.push(text.slice(at, s));
    parts.push(<mark key={i} className="rounded-sm bg-transparent font-semibold text-sky-700 underline decoration-sky-500/60 dark:text-sky-300">{text.slice(s, e)}</mark>);
    at = e;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <bdi dir="auto">{parts}</bdi>;
}

export function Keys({ keys }: { keys: readonly string[] }): ReactNode {
  return (
    <span className="flex shrink-0 items-center gap-0.5">
      {keys.map((k, i) => (
        <kbd key={i} className="rounded border border-zinc-300 bg-zinc-50 px-1.5 font-sans text-[11px] text-zinc-700 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-200">{k}</kbd>
      ))}
    </span>
  );
}

const MOVES: Record<string, (at: number, count: number) => number> = {
  ArrowDown: (at, n) => (at + 1) % n,
  ArrowUp: (at, n) => (at - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
  PageDown: (at, n) => Math.min(n - 1, at + PER_GROUP),
  PageUp: (at) => Math.max(0, at - PER_GROUP),
};

/** The listbox: a group per kind, each option with its marked label, detail and keys. */
function Results({ id, groups, at, optionId, onActive, onChoose }: { id: string; groups: Shown[]; at: number; optionId(i: number): string; onActive(i: number): void; onChoose(item: PaletteItem): void }): ReactNode {
  const none = groups.every((g) => g.options.length === 0);
  let index = -1;
  return (
    // Scrolled by the combobox's arrows (aria-activedescendant); focusable (axe: a scrolled region is), though Tab stays in the combobox.
    <div tabIndex={0} className="max-h-[60vh] overflow-y-auto p-1 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500/40">
      {none && <p role="status" className="px-2 py-3 text-sm text-zinc-600 dark:text-zinc-300">Nothing matches.</p>}
      <div id={id} role="listbox" aria-label="Results">
      {groups.map((group) => (
        <div key={group.kind} role="group" aria-labelledby={`${id}-group-${group.kind}`}>
          <div id={`${id}-group-${group.kind}`} role="presentation" className="px-2 pb-0.5 pt-2 text-[11px] font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">{group.title}</div>
          {group.options.map((option) => {
            index += 1;
            const i = index;
            const selected = i === at;
            return (
              <div
                key={option.item.key}
                id={optionId(i)}
                role="option"
                aria-selected={selected}
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => onActive(i)}
                onClick={() => onChoose(option.item)}
                className={`flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 text-sm ${selected ? 'bg-sky-100 dark:bg-sky-900/60' : ''}`}
              >
                <span className="min-w-0 flex-1 truncate">
                  <Marked text={option.label} ranges={option.match.ranges} />
                  {option.detail && <span className="ml-2 text-xs text-zinc-600 dark:text-zinc-400"><bdi dir="auto">{option.detail}</bdi></span>}
                </span>
                {option.item.keys && <Keys keys={option.item.keys} />}
              </div>
            );
          })}
        </div>
      ))}
      </div>
    </div>
  );
}

export function Palette({ items, recent, scope, onChoose, onClose }: PaletteProps): ReactNode {
  const base = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const groups = useResults(items, recent, query, scope);
  const flat = groups.flatMap((g) => g.options);
  const at = Math.min(active, flat.length - 1);
  const optionId = (i: number) => `${base}-option-${i}`;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = MOVES[event.key];
    if (move && flat.length > 0 && !event.altKey) {
      event.preventDefault();
      const next = move(at, flat.length);
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (flat[at]) onChoose(flat[at].item);
    } else if (event.key === 'Tab') {
      // The combobox is the dialog's only stop: Tab does not leave it.
      event.preventDefault();
    }
  };
  return (
    <Modal label="Command palette" onClose={onClose}>
      <div className="border-b border-zinc-200 p-2 dark:border-zinc-700">
        <input
          autoFocus
          role="combobox"
          aria-label={scope === 'server' ? 'Switch to server' : 'Command'}
          aria-expanded="true"
          aria-controls={`${base}-list`}
          aria-autocomplete="list"
          aria-activedescendant={flat.length > 0 ? optionId(at) : undefined}
          placeholder={scope === 'server' ? 'Switch to server…' : 'Type a command, tab, server, tool, resource, prompt or frame…'}
          spellCheck={false}
          autoComplete="off"
          className="w-full rounded-md bg-transparent px-2 py-1.5 text-sm outline-none placeholder:text-zinc-500 dark:placeholder:text-zinc-400"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <Results id={`${base}-list`} groups={groups} at={at} optionId={optionId} onActive={setActive} onChoose={onChoose} />
      <p className="border-t border-zinc-200 px-3 py-1.5 text-[11px] text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">↑↓ to move · Enter to choose · Esc to close</p>
    </Modal>
  );
}
