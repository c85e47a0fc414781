/** Prompts with their arguments, read-only (a later issue adds getting them). */
import type { ReactNode } from 'react';
import { Text } from './text.tsx';
import { Badge, Note } from './ui.tsx';

export interface PromptItem {
  name: string;
  title?: string;
  description?: string;
  arguments: ReadonlyArray<{ name: string; description?: string; required: boolean }>;
}

export function PromptList({ prompts }: { prompts: readonly PromptItem[] }): ReactNode {
  if (prompts.length === 0) return <Note>No prompts listed.</Note>;
  return (
    <ul className="space-y-1.5">
      {prompts.map((p, i) => (
        <li key={i} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
          <div className="flex flex-wrap items-baseline gap-2">
            <Text className="font-mono text-sm font-semibold">{p.name}</Text>
            {p.title !== undefined && <Text className="text-xs text-zinc-500 dark:text-zinc-400">{p.title}</Text>}
          </div>
          {p.description !== undefined && <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300"><Text>{p.description}</Text></p>}
          {p.arguments.length > 0 && (
            <ul className="mt-1 flex flex-wrap gap-1">
              {p.arguments.map((a) => (
                <li key={a.name} title={a.description}>
                  <Badge tone={a.required ? 'info' : 'neutral'}><Text>{a.name}</Text>{a.required ? ' *' : ''}</Badge>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
