'use client';
/**
 * What the History's query needs from the tab (issue 26): the values a query may complete to
 * (collected on demand, once per version of the trace), and the workspace's saved queries
 * (`set-saved-queries`, then broadcast as `workspace`: the file keeps them, every tab sees them).
 */
import { useMemo } from 'react';
import { queryValues, type QueryValues } from '../../lib/trace/query-complete.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { SavedQuery } from '../../lib/workspace/workspace.ts';
import type { SavedQueriesProps } from '@/components/history/saved-queries.tsx';
import { useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';
import { useSentAheadUntilShown } from '@/components/ui/use-sent-ahead.ts';

const NONE: readonly SavedQuery[] = [];

/** A function the completion calls when its list opens: one pass over the rows per version. */
export function useQueryValues(rows: readonly HistoryRow[], methods: () => Iterable<string>, servers: readonly string[], version: number): () => QueryValues {
  const key = servers.join('\n');
  return useMemo(() => {
    let cached: QueryValues | undefined;
    return () => (cached ??= queryValues(rows, methods(), servers));
  }, [rows, version, key]);
}

/**
 * The workspace's saved queries, and saving / forgetting one (false when the socket is down); a
 * change right after another builds on what was just sent (components/ui/use-sent-ahead.ts).
 */
export function useSavedQueries(): Omit<SavedQueriesProps, 'current' | 'onApply'> {
  const { app } = useServices();
  const shown = useLoupeSelector((s) => s.workspace?.savedQueries) ?? NONE;
  const ahead = useSentAheadUntilShown<readonly SavedQuery[]>(shown, (next) => app.send({ type: 'set-saved-queries', queries: [...next] }));
  return {
    // What is drawn is the proxy's (once it is shown, it is kept); a change builds on what was sent.
    queries: shown,
    onSave: (name, query) => {
      const queries = ahead.base();
      const next = queries.some((q) => q.name === name) ? queries.map((q) => (q.name === name ? { name, query } : q)) : [...queries, { name, query }];
      return ahead.send(next) ? undefined : 'Not connected to Loupe; the query was not saved';
    },
    onForget: (name) => void ahead.send(ahead.base().filter((q) => q.name !== name)),
  };
}
