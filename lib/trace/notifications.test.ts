import { describe, expect, it } from 'vitest';
import { TraceIndex } from './row-index.ts';
import { categoryOf, notificationRows, summariseNotification } from './notifications.ts';
import type { FrameEvent } from '../wire/wire.ts';

let seq = 0;
function note(dir: FrameEvent['dir'], method: string, params?: unknown): FrameEvent {
  seq += 1;
  const raw = JSON.stringify({ jsonrpc: '2.0', method, params });
  return { session: 's', seq, ts: seq, kind: 'frame', dir, raw, size: raw.length, rpc: 'notification', method };
}

describe('notifications', () => {
  const index = TraceIndex.from([
    note('in', 'notifications/message', { level: 'warning', logger: 'db', data: 'slow query' }),
    note('in', 'notifications/progress', { progressToken: 't1', progress: 5, total: 10, message: 'half' }),
    note('in', 'notifications/tools/list_changed'),
    note('in', 'notifications/resources/updated', { uri: 'file:///a.txt' }),
    note('out', 'notifications/cancelled', { requestId: 'loupe-3', reason: 'Cancelled by the user' }),
    note('in', 'notifications/tasks/status', { taskId: 'x' }),
  ]);
  const rows = notificationRows(index.rows);

  it('categorises by method', () => {
    expect(rows.map((r) => categoryOf(r.method))).toEqual(['logging', 'progress', 'list_changed', 'resource updates', 'cancellations', 'other']);
  });
  it('summarises each in one line', () => {
    expect(rows.map((r) => summariseNotification(r))).toEqual([
      { category: 'logging', level: 'warning', text: '[db] slow query' },
      { category: 'progress', text: '5 / 10 (50%) half · token t1' },
      { category: 'list_changed', text: 'tools list changed' },
      { category: 'resource updates', text: 'file:///a.txt' },
      { category: 'cancellations', text: 'request loupe-3: Cancelled by the user' },
      { category: 'other', text: '{"taskId":"x"}' },
    ]);
  });
  it('logs non-string data as JSON', () => {
    const [row] = TraceIndex.from([note('in', 'notifications/message', { level: 'info', data: { a: 1 } })]).rows;
    expect(summariseNotification(row).text).toBe('{"a":1}');
  });
});
