/** The merged History's server filter (issue 9): every server, or one of them. */
import type { ReactNode } from 'react';
import { inputClass } from '../ui/ui.tsx';

export interface ServerFilterProps {
  servers: readonly { id: string; name: string }[];
  /** Session ids shown; empty: every server. */
  selected: readonly string[];
  onChange(ids: string[]): void;
}

export function ServerFilter({ servers, selected, onChange }: ServerFilterProps): ReactNode {
  return (
    <label className="inline-flex items-center gap-1.5 text-xs text-zinc-700 dark:text-zinc-200">
      Server
      <select aria-label="Server filter" className={`${inputClass} !w-auto !py-1 text-xs`} value={selected[0] ?? ''} onChange={(e) => onChange(e.target.value === '' ? [] : [e.target.value])}>
        <option value="">All servers</option>
        {servers.map((server) => (
          <option key={server.id} value={server.id}>{server.name}</option>
        ))}
      </select>
    </label>
  );
}
