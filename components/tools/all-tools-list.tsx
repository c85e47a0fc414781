/**
 * Every connected server's tools as hosts name them, `server__tool` (issue 9), searchable across
 * servers. A name a host would refuse or confuse (two servers giving the same namespaced name, or
 * one over 64 characters) says so in words, on the tool and in a summary. Arrow keys move between
 * the tools (one tab stop, roving tabindex); Enter or Space selects.
 */
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Text } from '../ui/text.tsx';
import { Note, inputClass } from '../ui/ui.tsx';

export interface AllToolsEntry {
  /** Unique in the list: the session id and the tool's position there. */
  key: string;
  /** `server__tool`. */
  name: string;
  server: string;
  tool: string;
  title?: string;
  description?: string;
  /** Why a host would refuse or confuse the name, in words. */
  problem?: string;
}

export interface AllToolsListProps {
  tools: readonly AllToolsEntry[];
  /** Servers whose tools are not (or not yet) in the list, with why: `memory: listing tools…`. */
  notes: readonly string[];
  selected?: string;
  search: string;
  onSearch(text: string): void;
  onSelect(key: string): void;
}

function matches(tool: AllToolsEntry, needle: string): boolean {
  if (needle === '') return true;
  return [tool.name, tool.title ?? '', tool.description ?? ''].some((s) => s.toLowerCase().includes(needle));
}

function Problems({ tools }: { tools: readonly AllToolsEntry[] }): ReactNode {
  const bad = tools.filter((t) => t.problem !== undefined);
  if (bad.length === 0) return null;
  return (
    <div role="note" aria-label="Tool name problems" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <p className="font-medium">{bad.length === 1 ? '1 name' : `${bad.length} names`} a host would refuse or confuse:</p>
      <ul className="mt-1 list-disc pl-4">
        {bad.map((t) => (
          <li key={t.key} className="[overflow-wrap:anywhere]"><Text>{`${t.name}: ${t.problem ?? ''}`}</Text></li>
        ))}
      </ul>
    </div>
  );
}

export function AllToolsList({ tools, notes, selected, search, onSearch, onSelect }: AllToolsListProps): ReactNode {
  const needle = search.trim().toLowerCase();
  const shown = tools.filter((t) => matches(t, needle));
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const [focus, setFocus] = useState<number>();
  const current = Math.max(0, shown.findIndex((t) => t.key === selected));
  const stop = focus !== undefined && focus < shown.length ? focus : current;
  const move = (event: KeyboardEvent, at: number) => {
    const last = shown.length - 1;
    const to = { ArrowDown: Math.min(last, at + 1), ArrowUp: Math.max(0, at - 1), Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    setFocus(to);
    refs.current[to]?.focus();
  };
  return (
    <div className="flex h-full min-h-0 flex-col gap-2">
      <div className="flex items-center gap-2">
        <input type="search" aria-label="Search all tools" placeholder="Search every server's tools" className={inputClass} value={search} onChange={(e) => onSearch(e.target.value)} />
        <span role="status" aria-label="Tools shown" className="shrink-0 text-xs text-zinc-600 dark:text-zinc-300">
          {shown.length === tools.length ? `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}` : `${shown.length} of ${tools.length} tools`}
        </span>
      </div>
      {notes.map((note) => <Note key={note}><Text>{note}</Text></Note>)}
      <Problems tools={tools} />
      {shown.length === 0 && tools.length > 0 && <Note>No tool matches the search.</Note>}
      <ul aria-label="Tools of every server" className="min-h-0 flex-1 space-y-1.5 overflow-auto pr-1">
        {shown.map((tool, i) => {
          const active = tool.key === selected;
          return (
            <li key={tool.key} className={`min-w-0 rounded-md border p-2 ${active ? 'border-sky-500 bg-sky-50 dark:border-sky-500 dark:bg-sky-950/50' : 'border-zinc-200 hover:border-zinc-400 dark:border-zinc-700 dark:hover:border-zinc-500'}`}>
              <button
                type="button"
                ref={(el) => { refs.current[i] = el; }}
                tabIndex={i === stop ? 0 : -1}
                aria-pressed={active}
                onKeyDown={(e) => move(e, i)}
                onFocus={() => setFocus(i)}
                onClick={() => onSelect(tool.key)}
                className="block w-full min-w-0 text-left [overflow-wrap:anywhere]"
              >
                <Text className="font-mono text-sm font-semibold">{tool.name}</Text>
                {tool.title !== undefined && tool.title !== tool.tool && <span className="ml-1 text-xs text-zinc-600 dark:text-zinc-300"> <Text>{tool.title}</Text></span>}
                {tool.problem !== undefined && <span className="mt-0.5 block text-xs text-amber-800 dark:text-amber-300"> ⚠ <Text>{tool.problem}</Text></span>}
              </button>
              {tool.description !== undefined && <p className="mt-1 line-clamp-2 break-words text-xs text-zinc-600 dark:text-zinc-300"><Text>{tool.description}</Text></p>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
