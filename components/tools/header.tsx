/** The selected tool: name, title, icon, description, annotation badges, and what of its schema the form cannot do. */
import type { ReactNode } from 'react';
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import { IconImage, IconNote } from '../ui/icon.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { HintBadges } from './list.tsx';

export function ToolHeader({ tool, json, onJson }: { tool: ToolEntry; json: boolean; onJson(on: boolean): void }): ReactNode {
  const check = tool.check;
  return (
    <>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 items-start gap-2">
          <IconImage icons={tool.icons} size={28} />
          <div className="min-w-0">
            <h2 className="break-all font-mono text-base font-semibold"><Text>{tool.name}</Text></h2>
            {tool.title !== undefined && <p className="break-words text-sm text-zinc-600 dark:text-zinc-300"><Text>{tool.title}</Text></p>}
            <IconNote icons={tool.icons} />
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" role="switch" aria-checked={json} checked={json} disabled={!check.ok} onChange={(e) => onJson(e.target.checked)} className="size-4 accent-sky-600" />
          Edit as JSON
        </label>
      </div>
      {tool.description !== undefined && <Pre mono={false} className="mb-2 max-h-48 overflow-auto text-sm text-zinc-700 dark:text-zinc-300">{tool.description}</Pre>}
      <div className="mb-3"><HintBadges hints={tool.hints} broken={check.ok ? undefined : check.reason} /></div>
      {!check.ok && (
        <p className="mb-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-200">
          Invalid schema: <Text>{check.reason}</Text>. Write the arguments as JSON.
        </p>
      )}
      {check.ok && check.unchecked.length > 0 && (
        <ul aria-label="Not validated" className="mb-2 text-xs text-amber-800 dark:text-amber-300">
          {check.unchecked.map((part) => <li key={part.path}>Not validated: <code><Text>{part.path || '(root)'}</Text></code>, <Text>{part.reason}</Text></li>)}
        </ul>
      )}
    </>
  );
}
