/**
 * How a server-side list is doing: loading, unsupported, failed, stopped early, odd items; and on
 * 2026-07-28 sessions the server's cache hint, and a Refresh that the hint answered.
 */
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
  /** The server's cache hint on the last listing (`ttlMs`, `cacheScope`). */
  cache?: { ttlMs: number; scope?: 'public' | 'private' };
  /** Refresh was served from the cache hint: how long the hint still held then. */
  servedFromCache?: { at: number; leftMs: number };
  onFetchAgain?: () => void;
}

/** A time span as a person says it: `30 s`, `1.5 s`, `2 min`, `1 h 30 min`. */
export function spanText(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) {
    const s = ms / 1_000;
    return `${Number.isInteger(s) || s >= 10 ? Math.round(s) : s.toFixed(1)} s`;
  }
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  const h = Math.floor(ms / 3_600_000);
  const min = Math.round((ms % 3_600_000) / 60_000);
  return min === 0 ? `${h} h` : `${h} h ${min} min`;
}

function hintName(scope: 'public' | 'private' | undefined): string {
  return scope === undefined ? 'cache hint' : `${scope} cache hint`;
}

export function cacheHintText(cache: { ttlMs: number; scope?: 'public' | 'private' }): string {
  return cache.ttlMs === 0 ? `Not to be reused (${hintName(cache.scope)})` : `Fresh for ${spanText(cache.ttlMs)} (${hintName(cache.scope)})`;
}

export function servedText(cache: { ttlMs: number }, served: { leftMs: number }): string {
  // Seconds left are rounded up: "0 s left" would read as expired while it still holds.
  const left = served.leftMs < 1_000 ? spanText(served.leftMs) : spanText(Math.ceil(served.leftMs / 1_000) * 1_000);
  return `Served from cache: the server said this list stays fresh for ${spanText(cache.ttlMs)}; ${left} left`;
}

export function ListStatus({ what, status, pages, note, error, problems, changes = 0, fetches, onRefresh, cache, servedFromCache, onFetchAgain }: ListStatusProps): ReactNode {
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
        {status === 'done' && cache && <span title="ttlMs / cacheScope on the list result">{cacheHintText(cache)}</span>}
        {onRefresh && (status === 'done' || status === 'error') && (
          <button type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={onRefresh}>Refresh</button>
        )}
      </div>
      {status === 'done' && cache && servedFromCache && (
        <div role="status" className="flex flex-wrap items-center gap-2 text-xs text-zinc-700 dark:text-zinc-300">
          <span>{servedText(cache, servedFromCache)}</span>
          {onFetchAgain && <button type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={onFetchAgain}>Fetch again</button>}
        </div>
      )}
      {error !== undefined && <Note tone="bad">Listing {what} failed: <Text>{error}</Text></Note>}
      {note !== undefined && <Note tone="warn">{note}</Note>}
      {problems.map((p, i) => <Note key={i} tone="warn">⚠ <Text>{p}</Text></Note>)}
    </div>
  );
}
