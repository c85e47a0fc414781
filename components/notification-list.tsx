/** Notifications from the server, newest first: method, level (for log messages) and params. */
import type { ReactNode } from 'react';
import { Pre, Text } from './text.tsx';
import { Badge, Note, type Tone } from './ui.tsx';

export interface NotificationItem {
  seq: number;
  ts: number;
  method: string;
  params: unknown;
}

export interface NotificationListProps {
  items: readonly NotificationItem[];
  /** Older notifications not rendered (render cap). */
  hidden: number;
}

const LEVEL_TONES: Record<string, Tone> = {
  debug: 'neutral',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'bad',
  critical: 'bad',
  alert: 'bad',
  emergency: 'bad',
};

function level(item: NotificationItem): string | undefined {
  if (item.method !== 'notifications/message' || item.params === null || typeof item.params !== 'object') return undefined;
  const value = (item.params as { level?: unknown }).level;
  return typeof value === 'string' ? value : undefined;
}

function Item({ item }: { item: NotificationItem }): ReactNode {
  const lvl = level(item);
  return (
    <li className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <div className="mb-1 flex flex-wrap items-center gap-2 text-xs">
        <span className="tabular-nums text-zinc-500">#{item.seq} · {new Date(item.ts).toTimeString().slice(0, 8)}</span>
        <Text className="font-mono font-semibold">{item.method}</Text>
        {lvl !== undefined && <Badge tone={LEVEL_TONES[lvl] ?? 'neutral'}><Text>{lvl}</Text></Badge>}
      </div>
      {item.params !== undefined && <Pre className="max-h-48 overflow-auto rounded bg-zinc-50 p-2 dark:bg-zinc-800/60">{JSON.stringify(item.params, null, 2) ?? ''}</Pre>}
    </li>
  );
}

export function NotificationList({ items, hidden }: NotificationListProps): ReactNode {
  if (items.length === 0) return <Note>No notifications from the server yet.</Note>;
  return (
    <div>
      <ul className="space-y-2">
        {items.map((item) => <Item key={item.seq} item={item} />)}
      </ul>
      {hidden > 0 && <Note>{hidden} older notifications not shown</Note>}
    </div>
  );
}
