/** Prompts the server listed, with their arguments; one is selected to fill in and get. */
import { useState, type ReactNode } from 'react';
import type { PromptEntry } from '../../lib/client/catalog.ts';
import { IconImage } from '../ui/icon.tsx';
import { Text } from '../ui/text.tsx';
import { Badge, inputClass, Note } from '../ui/ui.tsx';

export type PromptItem = PromptEntry;

export function PromptList({ prompts, selected, onSelect }: { prompts: readonly PromptItem[]; selected?: number; onSelect(index: number): void }): ReactNode {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = prompts.map((p, index) => ({ p, index })).filter(({ p }) => needle === '' || [p.name, p.title ?? '', p.description ?? ''].some((s) => s.toLowerCase().includes(needle)));
  if (prompts.length === 0) return <Note>No prompts listed.</Note>;
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2">
        <input type="search" aria-label="Filter prompts" placeholder="Filter prompts" className={inputClass} value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{shown.length === prompts.length ? `${prompts.length} ${prompts.length === 1 ? 'prompt' : 'prompts'}` : `${shown.length} of ${prompts.length} prompts`}</span>
      </div>
      <ul aria-label="Prompts" className="max-h-[60vh] space-y-1.5 overflow-auto pr-1">
        {shown.map(({ p, index }) => (
          <li key={index} className={`min-w-0 rounded-md border p-2 ${index === selected ? 'border-sky-500 bg-sky-50 dark:border-sky-500 dark:bg-sky-950/50' : 'border-zinc-200 dark:border-zinc-700'}`}>
            <div className="flex min-w-0 items-start gap-1.5">
              <IconImage icons={p.icons ?? []} size={16} />
              <button type="button" aria-pressed={index === selected} onClick={() => onSelect(index)} className="min-w-0 flex-1 break-all text-left">
                <Text className="font-mono text-sm font-semibold">{p.name}</Text>
                {p.title !== undefined && p.title !== p.name && <> <Text className="text-xs text-zinc-500 dark:text-zinc-400">{p.title}</Text></>}
              </button>
            </div>
            {p.description !== undefined && <p className="mt-1 line-clamp-2 break-words text-xs text-zinc-600 dark:text-zinc-300"><Text>{p.description}</Text></p>}
            {p.arguments.length > 0 && (
              <ul className="mt-1 flex flex-wrap gap-1" aria-label="Arguments">
                {p.arguments.map((a, i) => (
                  <li key={i} title={a.description}>
                    <Badge tone={a.required ? 'info' : 'neutral'}><Text>{a.name}</Text>{a.required ? ' *' : ''}</Badge>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
