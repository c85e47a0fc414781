/** Resources and resource templates, read-only (a later issue adds reading and subscribing). */
import type { ReactNode } from 'react';
import { formatSize } from '../lib/trace.ts';
import { Text } from './text.tsx';
import { Badge, Note } from './ui.tsx';

export interface ResourceItem {
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
  size?: number;
}

export interface TemplateItem {
  uriTemplate: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
}

function Entry({ address, label, mimeType, description, size }: { address: string; label?: string; mimeType?: string; description?: string; size?: number }): ReactNode {
  return (
    <li className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2">
        {label !== undefined && <Text className="text-sm font-semibold">{label}</Text>}
        {mimeType !== undefined && <Badge><Text>{mimeType}</Text></Badge>}
        {size !== undefined && <Badge>{formatSize(size)}</Badge>}
      </div>
      <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-300"><Text>{address}</Text></p>
      {description !== undefined && <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300"><Text>{description}</Text></p>}
    </li>
  );
}

export function ResourceList({ resources }: { resources: readonly ResourceItem[] }): ReactNode {
  if (resources.length === 0) return <Note>No resources listed.</Note>;
  return (
    <ul className="space-y-1.5">
      {resources.map((r, i) => (
        <Entry key={i} address={r.uri} label={r.title ?? r.name} mimeType={r.mimeType} description={r.description} size={r.size} />
      ))}
    </ul>
  );
}

export function TemplateList({ templates }: { templates: readonly TemplateItem[] }): ReactNode {
  if (templates.length === 0) return <Note>No resource templates listed.</Note>;
  return (
    <ul className="space-y-1.5">
      {templates.map((t, i) => (
        <Entry key={i} address={t.uriTemplate} label={t.title ?? t.name} mimeType={t.mimeType} description={t.description} />
      ))}
    </ul>
  );
}
