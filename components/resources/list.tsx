/**
 * Resources and resource templates as the server listed them: each opens (reads) on click, with its
 * icon, MIME type, size, and marks for subscriptions and `notifications/resources/updated`.
 */
import { useState, type ReactNode } from 'react';
import type { ResourceEntry, TemplateEntry } from '../../lib/client/catalog.ts';
import type { IconView } from '../../lib/content/icons.ts';
import { formatSize } from '../../lib/trace/trace.ts';
import { IconImage } from '../ui/icon.tsx';
import { Text } from '../ui/text.tsx';
import { Badge, inputClass, Note } from '../ui/ui.tsx';

export type ResourceItem = ResourceEntry;
export type TemplateItem = TemplateEntry;

interface EntryProps {
  address: string;
  label?: string;
  mimeType?: string;
  description?: string;
  size?: number;
  icons?: readonly IconView[];
  active: boolean;
  marks?: ReactNode;
  onOpen(): void;
}

function Entry({ address, label, mimeType, description, size, icons = [], active, marks, onOpen }: EntryProps): ReactNode {
  return (
    <li className={`min-w-0 rounded-md border p-2 ${active ? 'border-sky-500 bg-sky-50 dark:border-sky-500 dark:bg-sky-950/50' : 'border-zinc-200 dark:border-zinc-700'}`}>
      <div className="flex min-w-0 items-start gap-1.5">
        <IconImage icons={icons} size={16} />
        <button type="button" aria-pressed={active} onClick={onOpen} className="min-w-0 flex-1 break-all text-left text-sm font-semibold hover:underline">
          <Text>{label ?? address}</Text>
        </button>
      </div>
      <div className="mt-0.5 flex flex-wrap items-center gap-1">
        {mimeType !== undefined && <Badge><Text>{mimeType}</Text></Badge>}
        {size !== undefined && <Badge>{formatSize(size)}</Badge>}
        {marks}
      </div>
      <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-300"><Text>{address}</Text></p>
      {description !== undefined && <p className="mt-1 line-clamp-3 break-words text-xs text-zinc-600 dark:text-zinc-300"><Text>{description}</Text></p>}
    </li>
  );
}

const matches = (needle: string, ...fields: Array<string | undefined>): boolean => needle === '' || fields.some((f) => f?.toLowerCase().includes(needle));

export interface ResourceListProps {
  resources: readonly ResourceItem[];
  openUri?: string;
  subscribed?: Readonly<Record<string, { status: string }>>;
  updated?: Readonly<Record<string, number>>;
  onOpen(uri: string): void;
}

export function ResourceList({ resources, openUri, subscribed = {}, updated = {}, onOpen }: ResourceListProps): ReactNode {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = resources.filter((r) => matches(needle, r.uri, r.name, r.title, r.description));
  if (resources.length === 0) return <Note>No resources listed.</Note>;
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2">
        <input type="search" aria-label="Filter resources" placeholder="Filter resources" className={inputClass} value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{shown.length === resources.length ? `${resources.length}` : `${shown.length} of ${resources.length}`}</span>
      </div>
      <ul aria-label="Resources" className="max-h-[60vh] space-y-1.5 overflow-auto pr-1">
        {shown.map((r, i) => (
          <Entry
            key={i}
            address={r.uri}
            label={r.title ?? r.name}
            mimeType={r.mimeType}
            description={r.description}
            size={r.size}
            icons={r.icons}
            active={r.uri === openUri}
            onOpen={() => onOpen(r.uri)}
            marks={
              <>
                {subscribed[r.uri]?.status === 'subscribed' && <Badge tone="info">subscribed</Badge>}
                {(updated[r.uri] ?? 0) > 0 && <Badge tone="warn">updated ×{updated[r.uri]}</Badge>}
              </>
            }
          />
        ))}
      </ul>
    </div>
  );
}

export function TemplateList({ templates, selected, onSelect }: { templates: readonly TemplateItem[]; selected?: number; onSelect(index: number): void }): ReactNode {
  if (templates.length === 0) return <Note>No resource templates listed.</Note>;
  return (
    <ul aria-label="Resource templates" className="max-h-[40vh] space-y-1.5 overflow-auto pr-1">
      {templates.map((t, i) => (
        <Entry key={i} address={t.uriTemplate} label={t.title ?? t.name} mimeType={t.mimeType} description={t.description} icons={t.icons} active={i === selected} onOpen={() => onSelect(i)} />
      ))}
    </ul>
  );
}
