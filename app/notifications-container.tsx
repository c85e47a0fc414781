'use client';
/**
 * The Notifications tab: every notification of the viewed trace by category, each linked to its
 * frame in History, and the logging level selector (`logging/setLevel`).
 */
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { NotificationList, type LevelControl, type NotificationItem } from '@/components/notification-list.tsx';
import { categoryOf, NOTIFICATION_CATEGORIES, notificationRows, summariseNotification } from '../lib/trace-notifications.ts';
import type { HistoryRow } from '../lib/trace.ts';
import type { ActionsState } from './trace-actions.ts';
import type { TraceView } from './trace-store.ts';
import { useServices, useSession, useTrace, useTraceActions } from './use-loupe.ts';

function levelControl(view: TraceView, level: ActionsState['level']): LevelControl {
  const connected = !view.readOnly && view.session?.status === 'connected';
  const declared = view.session?.capabilities?.logging !== undefined;
  const outcome = level.outcome;
  return {
    value: level.level,
    canSet: connected,
    sending: level.sending,
    note: !connected ? (view.readOnly ? 'An imported trace is read-only' : 'Connect to set the level') : declared ? undefined : 'The server did not declare the logging capability; it may refuse.',
    result: outcome && (outcome.ok ? { ok: true, text: `Level set to ${level.level}` } : { ok: false, text: `logging/setLevel failed: ${outcome.error.message}` }),
  };
}

export function NotificationsContainer(): ReactNode {
  const { nav } = useServices();
  const { trace, traceActions } = useSession();
  const view = useTrace();
  const actions = useTraceActions();
  const [category, setCategory] = useState('all');
  const { index } = view;
  const all = useMemo(() => notificationRows(index.rows), [index, view.version]);
  const counts = useMemo(() => {
    const found = new Map<string, number>();
    for (const row of all) found.set(categoryOf(row.method), (found.get(categoryOf(row.method)) ?? 0) + 1);
    return NOTIFICATION_CATEGORIES.filter((c) => found.has(c)).map((name) => ({ name, count: found.get(name) ?? 0 }));
  }, [all]);
  const shown = useMemo(() => (category === 'all' ? all : all.filter((row) => categoryOf(row.method) === category)), [all, category]);
  // Parsed summaries, only for rows drawn; kept per row object.
  const cache = useRef(new WeakMap<HistoryRow, NotificationItem>());
  const item = (i: number): NotificationItem => {
    const row = shown[i];
    let found = cache.current.get(row);
    if (!found) {
      found = { seq: row.seq, ts: row.ts, dir: row.dir, method: row.method ?? '(no method)', summary: summariseNotification(row) };
      cache.current.set(row, found);
    }
    return found;
  };
  return (
    <NotificationList
      count={shown.length}
      item={item}
      version={view.version}
      categories={counts}
      category={category}
      level={levelControl(view, actions.level)}
      onCategory={setCategory}
      onLevel={(level) => void traceActions.setLevel(level)}
      onShowFrame={(seq) => {
        trace.reveal(seq);
        nav.show('history');
      }}
    />
  );
}
