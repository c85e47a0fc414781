import { useSyncExternalStore } from 'react';

/** A store with the subscribe/getSnapshot pair of useSyncExternalStore. */
export interface ExternalStore<T> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): T;
}

/** Read a store; during the static prerender the store's initial snapshot is used. */
export function useStore<T>(store: ExternalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
