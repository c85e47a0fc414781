/**
 * The tab feed's one batching step (subscriptions.ts): events go out FLUSH_DELAY_MS after the first
 * of a batch, or at once when a response joins its frame; and one timer serves a window however
 * many early flushes come in it (a timer per call cost the echo bench a turn of the loop each).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '../../../lib/wire/wire.ts';
import { FLUSH_DELAY_MS, TabFeed } from './subscriptions.ts';
import { asWs, FakeSocket } from '../../testing/socket.ts';

const frame = (seq: number): TraceEvent => ({ kind: 'frame', dir: 'in', raw: `{"jsonrpc":"2.0","id":${seq},"result":{}}`, size: 36, rpc: 'response', id: seq, session: 's1', seq, ts: seq });

function feedWithTab(): { feed: TabFeed; tab: FakeSocket } {
  const tab = new FakeSocket();
  const feed = new TabFeed({
    sendText: (ws, text) => ws.send(text),
    sendBinary: (ws, bytes) => ws.send(bytes),
    stats: (session) => ({ session, kept: 0, dropped: 0 }),
    events: () => [],
    sessionIds: () => ['s1'],
  });
  feed.add(asWs(tab), true);
  return { feed, tab };
}

const sentSeqs = (tab: FakeSocket) => tab.sent.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.seq) : []));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TabFeed batching', () => {
  it('sends a batch FLUSH_DELAY_MS after its first event, as one message', () => {
    const { feed, tab } = feedWithTab();
    feed.queue(frame(1));
    feed.queue(frame(2));
    expect(tab.sent).toHaveLength(0);
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(tab.sent).toHaveLength(1);
    expect(sentSeqs(tab)).toEqual([1, 2]);
  });

  it('keeps one timer through early flushes, and still sends what came after them', () => {
    const { feed, tab } = feedWithTab();
    for (let seq = 1; seq <= 5; seq++) {
      feed.queue(frame(seq));
      // A response joins its frame: the batch goes out at once (hub.ts sendJoined).
      feed.flush();
    }
    feed.queue(frame(6));
    expect(vi.getTimerCount()).toBe(1);
    expect(sentSeqs(tab)).toEqual([1, 2, 3, 4, 5]);
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(sentSeqs(tab)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a response rides in its tab\'s events message, after the events; alone when nothing is queued', () => {
    const { feed, tab } = feedWithTab();
    const other = new FakeSocket();
    feed.add(asWs(other), true);
    const response = (id: string) => ({ ws: asWs(tab), text: JSON.stringify({ type: 'response', id, session: 's1', ok: true, durationMs: 1, frameSeq: 1 }) });
    feed.queue(frame(1));
    feed.flush(response('r1'));
    expect(tab.texts).toHaveLength(1);
    expect(tab.sent.map((m) => m.type)).toEqual(['events', 'response']);
    expect(other.sent.map((m) => m.type)).toEqual(['events']);
    feed.flush(response('r2'));
    expect(tab.texts).toHaveLength(2);
    expect(tab.sent.map((m) => m.type)).toEqual(['events', 'response', 'response']);
  });
});
