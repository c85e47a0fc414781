/**
 * Notifications in the trace, by what they are about: logging, progress, list_changed, resource
 * updates, cancellations. One line each for a list view; the frame itself stays in the trace.
 * https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
import type { HistoryRow } from './trace.ts';
import { parseFrame } from './violations.ts';
import { stringifySafe } from '../json/safe-json.ts';

export const NOTIFICATION_CATEGORIES = ['logging', 'progress', 'list_changed', 'resource updates', 'cancellations', 'other'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** RFC 5424 severities, least severe first (the order `logging/setLevel` uses). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function categoryOf(method: string | undefined): NotificationCategory {
  if (method === 'notifications/message') return 'logging';
  if (method === 'notifications/progress') return 'progress';
  if (method?.endsWith('/list_changed')) return 'list_changed';
  if (method === 'notifications/resources/updated') return 'resource updates';
  if (method === 'notifications/cancelled') return 'cancellations';
  return 'other';
}

/** Notification rows (both directions), oldest first. */
export function notificationRows(rows: readonly HistoryRow[]): HistoryRow[] {
  const out: HistoryRow[] = [];
  for (const row of rows) if (row.kind === 'notification') out.push(row);
  return out;
}

export interface NotificationSummary {
  category: NotificationCategory;
  level?: string;
  /** One line: the log message, the progress, the resource's URI, the cancelled request. */
  text: string;
}

function str(value: unknown): string {
  if (typeof value === 'string') return value;
  return stringifySafe(value) ?? '';
}

function paramsOf(row: HistoryRow): Record<string, unknown> {
  if (row.event.kind !== 'frame') return {};
  const message = parseFrame(row.event) as { params?: unknown } | undefined;
  const params = message?.params;
  return params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
}

function progressText(p: Record<string, unknown>): string {
  const total = typeof p.total === 'number' ? ` / ${p.total}` : '';
  const percent = typeof p.total === 'number' && typeof p.progress === 'number' && p.total > 0 ? ` (${Math.round((p.progress / p.total) * 100)}%)` : '';
  return `${str(p.progress)}${total}${percent}${typeof p.message === 'string' ? ` ${p.message}` : ''} · token ${str(p.progressToken)}`;
}

export function summariseNotification(row: HistoryRow): NotificationSummary {
  const category = categoryOf(row.method);
  const p = paramsOf(row);
  switch (category) {
    case 'logging':
      return { category, level: typeof p.level === 'string' ? p.level : undefined, text: `${typeof p.logger === 'string' ? `[${p.logger}] ` : ''}${str(p.data)}` };
    case 'progress':
      return { category, text: progressText(p) };
    case 'list_changed':
      return { category, text: `${row.method?.split('/')[1] ?? ''} list changed` };
    case 'resource updates':
      return { category, text: str(p.uri) };
    case 'cancellations':
      return { category, text: `request ${str(p.requestId)}${typeof p.reason === 'string' ? `: ${p.reason}` : ''}` };
    default:
      return { category, text: Object.keys(p).length > 0 ? str(p) : '' };
  }
}
