'use client';
/**
 * The `Saved calls` tab of a server (issue 9, item 6) and the hook the Tools, Resources and Prompts
 * tabs use for `Save call`. The list is the proxy's (`set-saved-calls`, then broadcast as
 * `workspace`): the workspace file keeps it and a second tab sees it. Runs are this tab's own.
 */
import type { ReactNode } from 'react';
import { SavedCalls, type SavedCallView } from '@/components/tools/saved-calls.tsx';
import type { SavedCall } from '../../lib/workspace/workspace.ts';
import { changed, savedCallsOf } from '../_stores/saved-calls-store.ts';
import { useLoupeSelector, useServices, useSession, useSessionInfo } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { useSentAheadUntilShown } from '@/components/ui/use-sent-ahead.ts';

const NONE: readonly SavedCall[] = [];

/**
 * This session's saved calls, and a way to replace them (false when the socket is down).
 * `current()` is what was just sent until the proxy shows the workspace again: a change right
 * after another builds on it (components/ui/use-sent-ahead.ts).
 */
function useSavedCallList(): { calls: readonly SavedCall[]; current(): readonly SavedCall[]; set(calls: SavedCall[]): boolean } {
  const { app } = useServices();
  const model = useSession();
  const shown = useLoupeSelector((s) => s.workspace?.savedCalls[model.id]) ?? NONE;
  const ahead = useSentAheadUntilShown<readonly SavedCall[]>(shown, (next) => app.send({ type: 'set-saved-calls', session: model.id, calls: [...next] }));
  // What is drawn is the proxy's (once it is shown, it is kept); what the next change builds on, `current()`.
  return { calls: shown, current: ahead.base, set: ahead.send };
}

/** How many saved calls this session has (the tab's count). */
export function useSavedCallCount(): number {
  const model = useSession();
  return useLoupeSelector((s) => s.workspace?.savedCalls[model.id]?.length ?? 0);
}

/** Keep `call` in the server's saved calls; returns why not (a name taken, no socket). */
export function useSaveCall(): (call: SavedCall) => string | undefined {
  const { current, set } = useSavedCallList();
  return (call) => {
    const calls = current();
    if (calls.some((c) => c.name === call.name)) return `A saved call named ${call.name} exists already: choose another name`;
    return set([...calls, call]) ? undefined : 'Not connected to Loupe; the call was not saved';
  };
}

/** Arguments as a saved call keeps them: an object, else why not. */
export function argumentsOf(value: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, value: {} };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'The arguments must be a JSON object to be saved' };
  return { ok: true, value: value as Record<string, unknown> };
}

export function SavedCallsContainer(): ReactNode {
  const model = useSession();
  const session = useSessionInfo();
  const store = savedCallsOf(model);
  const state = useStore(store);
  const { calls, current, set } = useSavedCallList();
  const views: SavedCallView[] = calls.map((call) => {
    const results = state.results[call.name];
    return { call, latest: results?.latest, previous: results?.previous, running: results?.running ?? false, changed: changed(results) };
  });
  return (
    <SavedCalls
      calls={views}
      canRun={session?.status === 'connected'}
      runningAll={state.runningAll}
      onRun={(call) => void store.run(call)}
      onRunAll={() => void store.runAll(current())}
      onDelete={(name) => {
        if (set(current().filter((c) => c.name !== name))) store.forget(name);
      }}
      onEdit={(from, next) => {
        if (next.name !== from && current().some((c) => c.name === next.name)) return `A saved call named ${next.name} exists already`;
        if (!set(current().map((c) => (c.name === from ? next : c)))) return 'Not connected to Loupe; nothing was changed';
        store.rename(from, next.name);
        return undefined;
      }}
    />
  );
}
