'use client';
/**
 * The Notifications tab: every notification of the viewed trace by category, each linked to its
 * frame in History, and the logging level selector (`logging/setLevel` on a 2025 session, the
 * per-request `_meta` level on a 2026-07-28 one). On a 2026-07-28 session, above them, the
 * Subscriptions region that opens the `subscriptions/listen` stream.
 */
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { NotificationList, type LevelControl, type ModernLevelControl, type NotificationItem } from '@/components/notifications/list.tsx';
import { isModern } from '@/components/connection/protocol-model.ts';
import { SubscriptionsPanel } from '@/components/resources/subscriptions-panel.tsx';
import { categoryOf, NOTIFICATION_CATEGORIES, notificationRows, summariseNotification } from '../../lib/trace/notifications.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { ClientMessage, SessionInfo } from '../../lib/wire/wire.ts';
import type { ActionsState } from '../_stores/trace-actions.ts';
import type { TraceView } from '../_stores/trace-store.ts';
import { useServices, useSession, useTrace, useTraceActions } from '../_hooks/use-loupe.ts';

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

const NOT_SENT = 'Not connected to Loupe; nothing was sent. Wait for the page to reconnect and try again.';

/** Whether a capability declares a sub-flag (`tools.listChanged` …). */
function flag(session: SessionInfo | undefined, capability: string, name: string): boolean {
  const value = session?.capabilities?.[capability];
  return value !== null && typeof value === 'object' && (value as Record<string, unknown>)[name] === true;
}

function liveReason(view: TraceView, what: string): string | undefined {
  if (view.readOnly) return 'An imported trace is read-only';
  return view.session?.status === 'connected' ? undefined : `Connect to ${what}`;
}

/** The Subscriptions region and the `_meta` log level: a 2026-07-28 session's own controls. */
function useModernControls(view: TraceView): { subscriptions?: ReactNode; level?: ModernLevelControl } {
  const { port } = useSession();
  const [problem, setProblem] = useState<string>();
  const session = view.session;
  if (!session || !isModern(session)) return {};
  const reason = liveReason(view, 'listen');
  const levelReason = liveReason(view, 'set the level');
  const send = (message: ClientMessage) => setProblem(port.send(message) ? undefined : NOT_SENT);
  const subscriptions = (
    <SubscriptionsPanel
      // Another session's form starts afresh (prefilled from its own stream).
      key={session.id}
      listen={view.readOnly ? undefined : session.listen}
      canListen={reason === undefined}
      cannotReason={reason}
      declared={{ tools: flag(session, 'tools', 'listChanged'), prompts: flag(session, 'prompts', 'listChanged'), resources: flag(session, 'resources', 'listChanged'), subscribe: flag(session, 'resources', 'subscribe') }}
      problem={problem}
      onListen={(filter) => send({ type: 'listen', session: session.id, filter })}
      onStop={() => send({ type: 'unlisten', session: session.id })}
    />
  );
  const level: ModernLevelControl = {
    value: session.logLevel,
    canSet: levelReason === undefined,
    note: levelReason,
    onSet: (value) => send({ type: 'set-log-level', session: session.id, level: value }),
  };
  return { subscriptions, level };
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
  const modern = useModernControls(view);
  const list = (
    <NotificationList
      count={shown.length}
      item={item}
      version={view.version}
      categories={counts}
      category={category}
      level={levelControl(view, actions.level)}
      modernLevel={modern.level}
      onCategory={setCategory}
      onLevel={(level) => void traceActions.setLevel(level)}
      onShowFrame={(seq) => {
        trace.reveal(seq);
        nav.show('history');
      }}
    />
  );
  if (!modern.subscriptions) return list;
  return (
    <div className="space-y-3">
      {modern.subscriptions}
      {list}
    </div>
  );
}
