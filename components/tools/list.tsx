/** The tools the server listed: a count, a filter, and one button per tool. */
import { useId, useState, type ReactNode } from 'react';
import { taskSupportOf } from '../../lib/client/tasks.ts';
import { viewUriOf } from '../../lib/apps/meta.ts';
import type { ToolEntry, ToolHints } from '../../lib/schema/tool-schema.ts';
import { IconImage } from '../ui/icon.tsx';
import { TaskSupportBadge } from '../tasks/task-run.tsx';
import { Text } from '../ui/text.tsx';
import { Badge, Note, inputClass, type Tone } from '../ui/ui.tsx';

export interface ToolListProps {
  tools: readonly ToolEntry[];
  selected?: number;
  onSelect(index: number): void;
}

const HINTS: Array<{ key: keyof ToolHints; on: string; off?: string; tone: Tone }> = [
  { key: 'readOnlyHint', on: 'read-only', tone: 'good' },
  { key: 'destructiveHint', on: 'destructive', off: 'non-destructive', tone: 'bad' },
  { key: 'idempotentHint', on: 'idempotent', tone: 'info' },
  { key: 'openWorldHint', on: 'open world', off: 'closed world', tone: 'neutral' },
];

/** Annotation badges; `compact` shows only the hints that are set to true. */
export function HintBadges({ hints, broken, compact = false }: { hints: ToolHints; broken?: string; compact?: boolean }): ReactNode {
  const badges = HINTS.flatMap(({ key, on, off, tone }) => {
    const value = hints[key];
    if (value === true) return [<Badge key={key} tone={tone} title={`${key}: true`}>{on}</Badge>];
    if (value === false && off && !compact) return [<Badge key={key} tone="neutral" title={`${key}: false`}>{off}</Badge>];
    return [];
  });
  if (broken !== undefined) badges.unshift(<Badge key="invalid" tone="warn" title={broken}>invalid schema</Badge>);
  return badges.length > 0 ? <span className="flex flex-wrap gap-1">{badges}</span> : null;
}

/**
 * The tool links an MCP Apps view (`_meta.ui.resourceUri`, issue 24): a `view` badge, its URI in
 * the words a screen reader gives the tool's button (the badge is part of its description); a link
 * that is no `ui://` URI is marked as broken, with why.
 */
export function ViewBadge({ raw }: { raw: unknown }): ReactNode {
  const link = viewUriOf(raw);
  if (!link) return null;
  if (!link.ok) {
    return (
      <Badge tone="warn" title={`_meta.ui.resourceUri ${link.problem}`}>
        view link broken<span className="sr-only">: the MCP Apps view link <Text>{link.value}</Text> {link.problem}</span>
      </Badge>
    );
  }
  return (
    <Badge tone="info" title={`MCP Apps view ${link.uri}${link.deprecated ? ' (deprecated _meta["ui/resourceUri"])' : ''}`}>
      view<span className="sr-only">: has an MCP Apps view, <Text>{link.uri}</Text></span>
    </Badge>
  );
}

function matches(tool: ToolEntry, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  return [tool.name, tool.title ?? '', tool.description ?? ''].some((s) => s.toLowerCase().includes(needle));
}

function ToolItem({ tool, active, onSelect }: { tool: ToolEntry; active: boolean; onSelect(): void }): ReactNode {
  const descId = useId();
  return (
    <li className={`min-w-0 rounded-md border p-2 ${active ? 'border-sky-500 bg-sky-50 dark:border-sky-500 dark:bg-sky-950/50' : 'border-zinc-200 hover:border-zinc-400 dark:border-zinc-700 dark:hover:border-zinc-500'}`}>
      <div className="flex min-w-0 items-start gap-1.5">
      <IconImage icons={tool.icons} size={16} />
      <button type="button" aria-pressed={active} aria-describedby={descId} onClick={onSelect} title={tool.name.length > 80 ? tool.name : undefined} className="line-clamp-4 min-w-0 flex-1 text-left [overflow-wrap:anywhere]">
        <Text className="font-mono text-sm font-semibold">{tool.name}</Text>
        {tool.title !== undefined && tool.title !== tool.name && ' '}
        {tool.title !== undefined && tool.title !== tool.name && (
          <span className="ml-1 break-words text-xs text-zinc-500 dark:text-zinc-400"><Text>{tool.title}</Text></span>
        )}
      </button>
      </div>
      <div id={descId} className="mt-1 space-y-1">
        {tool.description !== undefined && <p className="line-clamp-2 break-words text-xs text-zinc-600 dark:text-zinc-300"><Text>{tool.description}</Text></p>}
        <HintBadges compact hints={tool.hints} broken={tool.check.ok ? undefined : tool.check.reason} />
        <TaskSupportBadge support={taskSupportOf(tool.raw)} />
        <ViewBadge raw={tool.raw} />
      </div>
    </li>
  );
}

export function ToolList({ tools, selected, onSelect }: ToolListProps): ReactNode {
  const [filter, setFilter] = useState('');
  const shown = tools.map((tool, index) => ({ tool, index })).filter(({ tool }) => matches(tool, filter));
  return (
    <div className="flex h-full min-h-0 flex-col gap-2">
      <div className="flex items-center gap-2">
        <input type="search" aria-label="Filter tools" placeholder="Filter tools" className={inputClass} value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400" aria-live="polite">
          {shown.length === tools.length ? `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}` : `${shown.length} of ${tools.length} tools`}
        </span>
      </div>
      {shown.length === 0 && tools.length > 0 && <Note>No tool matches the filter.</Note>}
      <ul data-skip="tools" className="min-h-0 flex-1 space-y-1.5 overflow-auto pr-1">
        {shown.map(({ tool, index }) => (
          <ToolItem key={index} tool={tool} active={index === selected} onSelect={() => onSelect(index)} />
        ))}
      </ul>
    </div>
  );
}
