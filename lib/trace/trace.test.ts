import { describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';
import { eventKindLabel, formatDuration, formatSize, frameParams } from './trace.ts';

let seq = 0;
function frame(partial: Partial<FrameEvent> & Pick<FrameEvent, 'dir' | 'rpc'>): FrameEvent {
  seq += 1;
  const raw = partial.raw ?? JSON.stringify({ jsonrpc: '2.0', id: partial.id, method: partial.method });
  return { session: 's1', seq, ts: seq * 10, kind: 'frame', raw, size: raw.length, ...partial };
}

describe('helpers', () => {
  const note = frame({ dir: 'in', rpc: 'notification', method: 'notifications/tools/list_changed' });
  const noise: TraceEvent = { session: 's1', seq: 999, ts: 1, kind: 'noise', text: 'hello' };

  it('reads params of a frame, and nothing from one that is not JSON', () => {
    const progress = frame({ dir: 'in', rpc: 'notification', method: 'notifications/progress', raw: '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}' });
    expect(frameParams(progress)).toEqual({ progress: 1 });
    expect(frameParams(frame({ dir: 'in', rpc: 'invalid', raw: 'not json' }))).toBeUndefined();
  });
  it('labels kinds', () => {
    expect(eventKindLabel(noise)).toBe('stdout noise');
    expect(eventKindLabel(note)).toBe('notification');
  });
  it('formats sizes and durations', () => {
    expect(formatSize(12)).toBe('12 B');
    expect(formatSize(2048)).toBe('2.0 KiB');
    expect(formatDuration(3.25)).toBe('3.3 ms');
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(1500)).toBe('1.50 s');
  });
});
