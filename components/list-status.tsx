/** How a server-side list is doing: loading, unsupported, failed, stopped early, odd items. */
import type { ReactNode } from 'react';
import { Text } from './text.tsx';
import { buttonClass, Note } from './ui.tsx';

export interface ListStatusProps {
  what: string;
  status: 'idle' | 'unsupported' | 'loading' | 'done' | 'error';
  pages: number;
  note?: string;
  error?: string;
  problems: readonly string[];
  /** `list_changed` notifications seen, and listings made, for this connection. */
  changes?: number;
  fetches?: number;
  onRefresh?: () => void;
}

export function ListStatus({ what, status, pages, note, error, problems, changes = 0, fetches, onRefresh }: ListStatusProps): ReactNode {
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        {status === 'idle' && <span>Not connected.</span>}
        {status === 'unsupported' && <span>The server did not declare {what}.</span>}
        {status === 'loading' && <span>Listing {what}…</span>}
        {status === 'done' && pages > 1 && <span>{pages} pages</span>}
        {changes > 0 && (
          <span title="notifications/…/list_changed: a burst is coalesced into one listing">
            {changes} list_changed {changes === 1 ? 'notification' : 'notifications'}{fetches !== undefined ? `, listed ${fetches} ${fetches === 1 ? 'time' : 'times'}` : ''}
          </span>
        )}
        {onRefresh && (status === 'done' || status === 'error') && (
          <button type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={onRefresh}>Refresh</button>
        )}
      </div>
      {error !== undefined && <Note tone="bad">Listing {what} failed: <Text>{error}</Text></Note>}
      {note !== undefined && <Note tone="warn">{note}</Note>}
      {problems.map((p, i) => <Note key={i} tone="warn">⚠ <Text>{p}</Text></Note>)}
    </div>
  );
}
