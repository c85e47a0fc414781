import { describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from './wire.ts';
import { eventKindLabel, formatDuration, formatSize, framesOf, historyRows, incomingNotifications, pairFrames, prettyRaw, stderrText } from './trace.ts';

let seq = 0;
function frame(partial: Partial<FrameEvent> & Pick<FrameEvent, 'dir' | 'rpc'>): FrameEvent {
  seq += 1;
  const raw = partial.raw ?? JSON.stringify({ jsonrpc: '2.0', id: partial.id, method: partial.method });
  return { session: 's1', seq, ts: seq * 10, kind: 'frame', raw, size: raw.length, ...partial };
}

describe('pairFrames', () => {
  it('pairs an outgoing request with the incoming response and measures latency', () => {
    const req = frame({ dir: 'out', rpc: 'request', id: 1, method: 'tools/list', ts: 100 });
    const res = frame({ dir: 'in', rpc: 'response', id: 1, ts: 142.5 });
    const links = pairFrames([req, res]);
    expect(links[0]).toEqual({ method: 'tools/list', partnerSeq: res.seq, latencyMs: 42.5 });
    expect(links[1]).toEqual({ method: 'tools/list', partnerSeq: req.seq, latencyMs: 42.5 });
  });

  it('pairs server-initiated requests with our responses, separately from our own ids', () => {
    const ours = frame({ dir: 'out', rpc: 'request', id: 0, method: 'tools/call', ts: 0 });
    const theirs = frame({ dir: 'in', rpc: 'request', id: 0, method: 'sampling/createMessage', ts: 5 });
    const answer = frame({ dir: 'out', rpc: 'response', id: 0, ts: 20 });
    const result = frame({ dir: 'in', rpc: 'error', id: 0, ts: 30 });
    const links = pairFrames([ours, theirs, answer, result]);
    expect(links[2]).toMatchObject({ method: 'sampling/createMessage', partnerSeq: theirs.seq, latencyMs: 15 });
    expect(links[3]).toMatchObject({ method: 'tools/call', partnerSeq: ours.seq, latencyMs: 30 });
  });

  it('treats 1 and "1" as different ids', () => {
    const req = frame({ dir: 'out', rpc: 'request', id: 1, method: 'ping' });
    const res = frame({ dir: 'in', rpc: 'response', id: '1' });
    const links = pairFrames([req, res]);
    expect(links[0].pending).toBe(true);
    expect(links[1].unmatched).toBe(true);
  });

  it('marks unanswered requests pending and duplicate or id-less responses unmatched', () => {
    const req = frame({ dir: 'out', rpc: 'request', id: 7, method: 'ping' });
    const res = frame({ dir: 'in', rpc: 'response', id: 7 });
    const again = frame({ dir: 'in', rpc: 'response', id: 7 });
    const parseError = frame({ dir: 'in', rpc: 'error' });
    const waiting = frame({ dir: 'out', rpc: 'request', id: 8, method: 'tools/call' });
    const links = pairFrames([req, res, again, parseError, waiting]);
    expect(links[2]).toEqual({ unmatched: true });
    expect(links[3]).toEqual({ unmatched: true });
    expect(links[4]).toEqual({ method: 'tools/call', pending: true });
  });

  it('keeps sessions apart', () => {
    const req = frame({ dir: 'out', rpc: 'request', id: 1, method: 'ping' });
    const other = frame({ dir: 'in', rpc: 'response', id: 1, session: 's2' });
    expect(pairFrames([req, other])[1].unmatched).toBe(true);
  });

  it('lets notifications and invalid frames through untouched', () => {
    const note = frame({ dir: 'in', rpc: 'notification', method: 'notifications/message' });
    const bad = frame({ dir: 'in', rpc: 'invalid', raw: '{oops' });
    expect(pairFrames([note, bad])).toEqual([{ method: 'notifications/message' }, {}]);
  });
});

describe('helpers', () => {
  const note = frame({ dir: 'in', rpc: 'notification', method: 'notifications/tools/list_changed' });
  const outNote = frame({ dir: 'out', rpc: 'notification', method: 'notifications/initialized' });
  const later = frame({ dir: 'in', rpc: 'notification', method: 'notifications/progress' });
  const noise: TraceEvent = { session: 's1', seq: 999, ts: 1, kind: 'noise', text: 'hello' };

  it('lists incoming notifications newest first', () => {
    expect(incomingNotifications([note, outNote, noise, later]).map((f) => f.method)).toEqual([
      'notifications/progress',
      'notifications/tools/list_changed',
    ]);
  });
  it('filters frames', () => {
    expect(framesOf([note, noise])).toEqual([note]);
  });
  it('labels kinds', () => {
    expect(eventKindLabel(noise)).toBe('stdout noise');
    expect(eventKindLabel(note)).toBe('notification');
  });
  it('pretty-prints JSON and falls back to raw text', () => {
    expect(prettyRaw('{"a":1}')).toEqual({ json: true, text: '{\n  "a": 1\n}' });
    expect(prettyRaw('not json')).toEqual({ json: false, text: 'not json' });
  });
  it('formats sizes and durations', () => {
    expect(formatSize(12)).toBe('12 B');
    expect(formatSize(2048)).toBe('2.0 KiB');
    expect(formatDuration(3.25)).toBe('3.3 ms');
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(1500)).toBe('1.50 s');
  });
});

describe('historyRows', () => {
  it('makes one row per frame and per non-stderr event, with method and latency on responses', () => {
    const req = frame({ dir: 'out', rpc: 'request', id: 1, method: 'tools/call', ts: 1000 });
    const err: TraceEvent = { session: 's1', seq: req.seq + 1, ts: 1001, kind: 'stderr', text: 'log line\n' };
    const noise: TraceEvent = { session: 's1', seq: req.seq + 2, ts: 1002, kind: 'noise', text: 'Server started' };
    const res = frame({ dir: 'in', rpc: 'response', id: 1, ts: 1010 });
    const exit: TraceEvent = { session: 's1', seq: res.seq + 1, ts: 1020, kind: 'exit', code: 1, signal: null };
    const rows = historyRows([req, err, noise, res, exit]);
    expect(rows.map((r) => r.kind)).toEqual(['request', 'stdout noise', 'response', 'exit']);
    expect(rows[2]).toMatchObject({ method: 'tools/call', latencyMs: 10, dir: 'in', partnerSeq: req.seq });
    expect(rows[1]).toMatchObject({ summary: 'Server started', dir: 'in' });
    expect(rows[3].summary).toBe('exited with code 1');
  });
});

describe('stderrText', () => {
  const chunk = (seq: number, text: string): TraceEvent => ({ session: 's1', seq, ts: seq, kind: 'stderr', text });
  it('joins stderr chunks and keeps the tail', () => {
    const events = [chunk(1, 'abc'), chunk(2, 'def'), chunk(3, 'ghi')];
    expect(stderrText(events, 100)).toEqual({ text: 'abcdefghi', trimmed: 0 });
    expect(stderrText(events, 4)).toEqual({ text: 'fghi', trimmed: 5 });
  });
});
