'use client';
/** The Tasks tab: the current session's tasks, listed once when the tab opens. */
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { TasksView, type TaskRow } from '@/components/tasks/view.tsx';
import { isTerminal, serverTaskFeature } from '../../lib/client/tasks.ts';
import { useSession, useSessionInfo, useTasks } from '../_hooks/use-loupe.ts';

export function TasksContainer(): ReactNode {
  const { tasks } = useSession();
  const state = useTasks();
  const session = useSessionInfo();
  const connected = session?.status === 'connected';
  const canList = serverTaskFeature(session?.capabilities, 'list');
  const id = session?.id;
  const since = session?.since;
  useEffect(() => {
    if (id !== undefined && connected && canList) void tasks.refreshList();
  }, [tasks, id, since, connected, canList]);
  const rows: TaskRow[] = state.tasks
    .filter((t) => t.session === id)
    .map((t) => ({ key: `${t.session}/${t.info.taskId}`, info: t.info, tool: t.tool, startedHere: t.startedHere, result: t.result, pollError: t.pollError, cancel: t.cancel, modern: t.modern }));
  return (
    <TasksView
      rows={rows}
      connected={connected}
      canList={canList}
      canCancel={serverTaskFeature(session?.capabilities, 'cancel')}
      list={state.list}
      onRefresh={() => void tasks.refreshList()}
      onClearFinished={() => tasks.clearFinished()}
      onPoll={(taskId) => void tasks.poll(taskId)}
      onResult={(taskId) => void tasks.fetchResult(taskId)}
      onCancel={(taskId) => void tasks.cancel(taskId)}
    />
  );
}

/** Tasks of this session that have not ended (for the tab's count; re-renders only when it changes). */
export function useActiveTaskCount(): number {
  const { tasks } = useSession();
  const count = () => tasks.getSnapshot().tasks.filter((t) => !isTerminal(t.info.status)).length;
  return useSyncExternalStore(tasks.subscribe, count, count);
}
