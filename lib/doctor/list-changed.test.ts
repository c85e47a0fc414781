import { describe, expect, it } from 'vitest';
import { listChangedFindings } from './list-changed.ts';
import type { TraceEvent } from '../wire/wire.ts';

type Frame = ['out' | 'in', Record<string, unknown>];
const events = (frames: Frame[]): TraceEvent[] =>
  frames.map(([dir, message], i) => {
    const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
    return { session: 's1', seq: i + 1, ts: i, kind: 'frame', dir, raw, size: raw.length, rpc: 'request' } as TraceEvent;
  });

const list = (id: number, names: string[]): Frame[] => [
  ['out', { id, method: 'tools/list' }],
  ['in', { id, result: { tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) } }],
];
const declared = { tools: { listChanged: true } };

describe('list_changed declared but not sent', () => {
  it('is said when the tools changed between two listings with no notification in between', () => {
    const found = listChangedFindings(events([...list(1, ['a']), ...list(2, ['a', 'b'])]), declared);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', rule: 'list-changed-not-sent' });
    expect(found[0].message).toBe("The tools list changed between Loupe's tools/list at frame #1 and the one at #3, but the server, which declares tools.listChanged, sent no notifications/tools/list_changed in between.");
  });

  it('is not said when the server told, when nothing changed, or when it never declared listChanged', () => {
    const told: Frame[] = [...list(1, ['a']), ['in', { method: 'notifications/tools/list_changed' }], ...list(2, ['a', 'b'])];
    expect(listChangedFindings(events(told), declared)).toEqual([]);
    expect(listChangedFindings(events([...list(1, ['a', 'b']), ...list(2, ['b', 'a'])]), declared)).toEqual([]);
    expect(listChangedFindings(events([...list(1, ['a']), ...list(2, ['a', 'b'])]), { tools: {} })).toEqual([]);
  });
});
