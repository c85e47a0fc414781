'use client';
/** The Notifications tab: incoming notification frames, newest first. */
import { useMemo, type ReactNode } from 'react';
import { NotificationList, type NotificationItem } from '@/components/notification-list.tsx';
import { frameParams, incomingNotifications } from '../lib/trace.ts';
import { currentEvents } from './loupe-state.ts';
import { useLoupeSelector } from './use-loupe.ts';

const CAP = 500;

export function NotificationsContainer(): ReactNode {
  const events = useLoupeSelector(currentEvents);
  const all = useMemo(() => incomingNotifications(events), [events]);
  const items: NotificationItem[] = useMemo(
    () => all.slice(0, CAP).map((frame) => ({ seq: frame.seq, ts: frame.ts, method: frame.method ?? '(no method)', params: frameParams(frame) })),
    [all],
  );
  return <NotificationList items={items} hidden={all.length - items.length} />;
}
