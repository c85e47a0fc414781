import { describe, expect, it } from 'vitest';
import { filterRows } from '../../lib/trace/filter.ts';
import { TraceIndex } from '../../lib/trace/row-index.ts';
import type { FrameEvent, SessionInfo, TraceEvent } from '../../lib/wire/wire.ts';
import { PortFixture, testSession } from '../_wire/port-fixture.ts';
import { TraceStore } from './trace-store.ts';


const session: SessionInfo = testSession({ id: 's1', since: 0 });
let seq = 0;
function frame(dir: FrameEvent['dir'], message: Record<string, unknown>, rpc: FrameEvent['rpc']): FrameEvent {
  seq += 1;
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  return { session: 's1', seq, ts: seq, kind: 'frame', dir, raw, size: raw.length, rpc, method: message.method as string | undefined, id: message.id as FrameEvent['id'] };
}
function traffic(n: number): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (let i = 0; i < n; i += 1) {
    out.push(frame('out', { id: i, method: i % 3 === 0 ? 'tools/call' : 'ping', params: { n: i } }, 'request'));
    out.push(i % 5 === 0 ? frame('in', { id: i, error: { code: -1, message: 'no' } }, 'error') : frame('in', { id: i, result: { n: i } }, 'response'));
    out.push(frame('in', { method: 'notifications/message', params: { data: `note ${i}` } }, 'notification'));
  }
  return out;
}

function setup(events: TraceEvent[]) {
  seq = 0;
  const feed = new PortFixture('s1');
  const store = new TraceStore(feed.port);
  feed.apply({ type: 'snapshot', version: 1, sessions: [session], events: [], stats: [], primary: 's1' });
  return { feed, store, events };
}

const seqs = (rows: readonly { seq: number }[]) => rows.map((r) => r.seq);

describe('TraceStore', () => {
  it('appending batch by batch gives what filtering the whole trace gives, for every filter', () => {
    const filters = [{ text: 'note 1' }, { fold: true }, { errorsOnly: true }, { methods: ['tools/call'] }, { dir: 'in' as const, kinds: ['error'] }, { violationsOnly: true }];
    for (const patch of filters) {
      const { feed, store } = setup([]);
      store.setFilter(patch);
      const all = traffic(60);
      for (let i = 0; i < all.length; i += 7) feed.apply({ type: 'events', events: all.slice(i, i + 7) });
      const expected = filterRows(TraceIndex.from(all).rows, store.getSnapshot().filter);
      expect(seqs(store.getSnapshot().rows), JSON.stringify(patch)).toEqual(seqs(expected));
      expect(store.getSnapshot().index.rows).toHaveLength(all.length);
    }
  });

  it('keeps following the filter as frames arrive, pairing included (folded, errors only)', () => {
    const { feed, store } = setup([]);
    store.setFilter({ fold: true, errorsOnly: true });
    const all = traffic(20);
    for (const event of all) feed.apply({ type: 'events', events: [event] });
    expect(seqs(store.getSnapshot().rows)).toEqual(seqs(filterRows(TraceIndex.from(all).rows, store.getSnapshot().filter)));
    expect(store.getSnapshot().rows.length).toBe(4);
  });

  it('narrows by typing without losing matches, and selects and moves', () => {
    const { feed, store } = setup([]);
    feed.apply({ type: 'events', events: traffic(30) });
    store.setFilter({ text: 'note' });
    store.setFilter({ text: 'note 2' });
    expect(store.getSnapshot().rows.map((r) => r.event.kind === 'frame' && r.event.raw.match(/note \d+/)?.[0])).toEqual(['note 2', ...Array.from({ length: 10 }, (_, i) => `note ${20 + i}`)]);
    store.move(1);
    expect(store.getSnapshot().selectedSeq).toBe(store.getSnapshot().rows[0].seq);
    store.move(100);
    expect(store.getSnapshot().selectedSeq).toBe(store.getSnapshot().rows.at(-1)?.seq);
  });

  it('reveal clears a filter that hides the frame and tells who listens', () => {
    const { feed, store } = setup([]);
    feed.apply({ type: 'events', events: traffic(5) });
    store.setFilter({ kinds: ['error'] });
    const revealed: number[] = [];
    store.onReveal((s) => revealed.push(s));
    store.reveal(3);
    expect(store.getSnapshot().filter.kinds).toEqual([]);
    expect(store.getSnapshot().selectedSeq).toBe(3);
    expect(revealed).toEqual([3]);
  });

  it('imports a trace as a read-only source and goes back to live', () => {
    const { feed, store } = setup([]);
    feed.apply({ type: 'events', events: traffic(2) });
    expect(store.importText('bad.jsonl', 'nope')).toBe(false);
    expect(store.getSnapshot().importError).toMatch(/^bad\.jsonl: /);
    const header = JSON.stringify({ format: 'mcp-loupe-trace', version: 1, session: { ...session, id: 'old' } });
    const text = [header, ...traffic(4).map((e) => JSON.stringify({ ...e, session: 'old' }))].join('\n');
    expect(store.importText('t.jsonl', text)).toBe(true);
    const view = store.getSnapshot();
    expect(view).toMatchObject({ readOnly: true, source: 'import-1' });
    expect(view.rows).toHaveLength(12);
    store.setSource('live');
    expect(store.getSnapshot()).toMatchObject({ readOnly: false, source: 'live' });
    expect(store.getSnapshot().rows).toHaveLength(6);
  });

  it('takes a trace-reset as the whole trace, and what was newer than the tab had as live', () => {
    const { feed, store } = setup([]);
    const all = traffic(10);
    feed.apply({ type: 'events', events: all.slice(0, 6) });
    feed.apply({ type: 'trace-reset', session: 's1', events: all, stats: { session: 's1', kept: all.length, dropped: 0 } });
    expect(seqs(store.getSnapshot().index.rows)).toEqual(seqs(all));
    feed.apply({ type: 'events', events: traffic(1).map((e) => ({ ...e, seq: e.seq + 100 })) });
    expect(store.getSnapshot().index.rows).toHaveLength(all.length + 3);
  });
});

/** A 2026-07-28 call that asked for input twice before its result, with other traffic between. */
function rounds(firstId: number): TraceEvent[] {
  const call = (id: number, round?: { call: number; n: number }) => ({ ...frame('out', { id, method: 'tools/call', params: { name: 'confirm-delete', arguments: {} } }, 'request'), ...(round ? { round } : {}) });
  const asks = (id: number) => frame('in', { id, result: { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: {} } } } }, 'response');
  return [
    call(firstId),
    asks(firstId),
    frame('in', { method: 'notifications/message', params: { data: 'between' } }, 'notification'),
    call(firstId + 1, { call: firstId, n: 2 }),
    asks(firstId + 1),
    call(firstId + 2, { call: firstId, n: 3 }),
    frame('in', { id: firstId + 2, result: { resultType: 'complete', content: [{ type: 'text', text: 'Deleted a.txt' }] } }, 'response'),
  ];
}

describe('TraceStore: rounds of one call', () => {
  it('folds the rounds into the first request, batch by batch as in one go, and shows them on request', () => {
    const { feed, store } = setup([]);
    const all = [...traffic(3), ...rounds(1000), ...traffic(2)];
    for (const event of all) feed.apply({ type: 'events', events: [event] });
    const view = store.getSnapshot();
    const head = view.index.rows[9];
    expect(view.rounds.size).toBe(1);
    // Every frame is a row of the view; the table draws the six frames of the three rounds as the first request.
    expect(view.rows).toHaveLength(all.length);
    expect(view.display.map((r) => r.seq)).toEqual(view.rows.filter((r) => !view.rounds.groupOf(r) || r === head).map((r) => r.seq));
    expect(view.display).toHaveLength(all.length - 5);
    store.setRoundsOpen(head.seq, true);
    expect(seqs(store.getSnapshot().display)).toEqual(seqs(all));
    store.setRoundsOpen(head.seq, false);
    expect(store.getSnapshot().display).toHaveLength(all.length - 5);

    // The same trace arriving as a snapshot folds the same way.
    const again = setup([]);
    again.feed.apply({ type: 'trace-reset', session: 's1', events: all, stats: { session: 's1', kept: all.length, dropped: 0 } });
    expect(seqs(again.store.getSnapshot().display)).toEqual(seqs(view.display));
  });

  it('keeps its folding under a filter, and moves and reveals through closed groups', () => {
    const { feed, store } = setup([]);
    const all = rounds(1);
    feed.apply({ type: 'events', events: all });
    const [first, , note, second] = all;
    expect(seqs(store.getSnapshot().display)).toEqual([first.seq, note.seq]);
    store.setFilter({ text: 'Deleted' });
    // The first request does not match: the matching result shows on its own.
    expect(seqs(store.getSnapshot().display)).toEqual([all[6].seq]);
    store.setFilter({ text: '' });
    store.move(1);
    store.move(1);
    expect(store.getSnapshot().selectedSeq).toBe(note.seq);
    store.reveal(second.seq);
    expect(store.getSnapshot().openRounds.has(first.seq)).toBe(true);
    expect(store.getSnapshot().selectedSeq).toBe(second.seq);
    expect(seqs(store.getSnapshot().display)).toContain(second.seq);
  });

  it('without rounds the drawn rows are the filtered rows themselves (no copy per batch)', () => {
    const { feed, store } = setup([]);
    feed.apply({ type: 'events', events: traffic(50) });
    const view = store.getSnapshot();
    expect(view.display).toBe(view.rows);
  });
});
