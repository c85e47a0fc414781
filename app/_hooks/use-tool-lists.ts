'use client';
/** Every session model's tool list at once, for the views that span servers (All servers' tools, the workspace export). */
import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import type { ListState } from '../_stores/list-store.ts';
import type { SessionModel } from '../_session/model.ts';

/** Every model's tool list at once (their number changes, so one subscription for all). */
export function useToolLists(models: readonly SessionModel[]): readonly ListState<ToolEntry>[] {
  const cache = useRef<readonly ListState<ToolEntry>[]>([]);
  const subscribe = useCallback(
    (listener: () => void) => {
      const offs = models.map((m) => m.tools.subscribe(listener));
      return () => offs.forEach((off) => off());
    },
    [models],
  );
  const get = () => {
    const next = models.map((m) => m.tools.getSnapshot());
    if (next.length === cache.current.length && next.every((s, i) => s === cache.current[i])) return cache.current;
    cache.current = next;
    return next;
  };
  return useSyncExternalStore(subscribe, get, get);
}
