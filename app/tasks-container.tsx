'use client';
/** The Tasks tab: the current session's tasks, listed once when the tab opens. */
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { TasksView, type TaskRow } from '@/components/tasks-view.tsx';
import { isTerminal, serverTaskFeature } from '../lib/tasks.ts';
import { currentSession } from './loupe-state.ts';
import { useLoupeSelector, useServices, useTasks } from './use-loupe.ts';

export function TasksContainer(): ReactNode {
  const { tasks } = useServices();
  const state = useTasks();
  const session = useLoupeSelector(currentSession);
  const connected = session?.status === 'connected';
  const canList = serverTaskFeature(session?.capabilities, 'list');
  const id = session?.id;
  const since = session?.since;
  useEffect(() => {
    if (id !== undefined && connected && canList) void tasks.refreshList(id);
  }, [tasks, id, since, connected, canList]);
  const rows: TaskRow[] = state.tasks
    .filter((t) => t.session === id)
    .map((t) => ({ key: `${t.session}/${t.info.taskId}`, info: t.info, tool: t.tool, startedHere: t.startedHere, result: t.result, pollError: t.pollError, cancel: t.cancel }));
  return (
    <TasksView
      rows={rows}
      connected={connected}
      canList={canList}
      canCancel={serverTaskFeature(session?.capabilities, 'cancel')}
      list={state.list}
      onRefresh={() => id !== undefined && void tasks.refreshList(id)}
      onClearFinished={() => id !== undefined && tasks.clearFinished(id)}
      onPoll={(taskId) => id !== undefined && void tasks.poll(id, taskId)}
      onResult={(taskId) => id !== undefined && void tasks.fetchResult(id, taskId)}
      onCancel={(taskId) => id !== undefined && void tasks.cancel(id, taskId)}
    />
  );
}

/** Tasks of the current session that have not ended (for the tab's count; re-renders only when it changes). */
export function useActiveTaskCount(): number {
  const { tasks } = useServices();
  const id = useLoupeSelector((s) => s.current);
  const count = () => tasks.getSnapshot().tasks.filter((t) => t.session === id && !isTerminal(t.info.status)).length;
  return useSyncExternalStore(tasks.subscribe, count, count);
}
