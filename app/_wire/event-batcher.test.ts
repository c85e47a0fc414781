import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '../../lib/wire/wire.ts';
import { EventBatcher } from './event-batcher.ts';

const noise = (session: string, seq: number): TraceEvent => ({ session, seq, ts: seq, kind: 'noise', text: String(seq) });

describe('EventBatcher', () => {
  afterEach(() => vi.useRealTimers());

  it('hands on everything that arrived before the next frame as one batch per session', () => {
    vi.useFakeTimers();
    const batches: Array<Record<string, number[]>> = [];
    const batcher = new EventBatcher((b) => batches.push(Object.fromEntries([...b].map(([s, e]) => [s, e.map((x) => x.seq)]))));
    batcher.push([noise('a', 1), noise('b', 1)]);
    batcher.push([noise('a', 2)]);
    expect(batches).toEqual([]);
    // No animation frame here (as in a hidden tab): the fallback timer empties the queue.
    vi.advanceTimersByTime(100);
    expect(batches).toEqual([{ a: [1, 2], b: [1] }]);
    vi.advanceTimersByTime(1_000);
    expect(batches).toHaveLength(1);
  });

  it('forgets a session whose trace was replaced, and everything on drop()', () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const batcher = new EventBatcher((b) => seen.push(...b.keys()));
    batcher.push([noise('a', 1), noise('b', 1)]);
    batcher.drop('a');
    batcher.flush();
    expect(seen).toEqual(['b']);
    batcher.push([noise('c', 1)]);
    batcher.drop();
    vi.advanceTimersByTime(200);
    expect(seen).toEqual(['b']);
  });
});
