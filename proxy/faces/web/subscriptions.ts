/**
 * Which trace events each tab receives (issue 9, lib/wire/wire.ts `subscribe`), and the proxy's one
 * batching step: events recorded within FLUSH_DELAY_MS go out as one `events` message per tab.
 * A tab gets full events for the sessions it subscribed to and only `stats` (counts) for the
 * others; until it subscribes, it gets everything (a page that never subscribes still works).
 */
import type { WebSocket } from 'ws';
import type { FrameEvent, ServerMessage, TraceEvent, TraceStats } from '../../../lib/wire/wire.ts';
import { serialise } from './messages.ts';

/**
 * A few milliseconds of coalescing: a request's frames go out in one message after its response
 * (not in the way of it), and a flood costs one message per window. This is the only batching
 * step between the tap and the page: the page applies each message as it comes (issue 9).
 */
export const FLUSH_DELAY_MS = 4;

interface Tab {
  /** `default`: never subscribed (everything); `all`: subscribed to `*`; `some`: the sessions in `full`. */
  mode: 'default' | 'all' | 'some';
  /** Sessions whose whole trace this tab has had since a trace-reset (or since they were created). */
  full: Set<string>;
  /** The tab finds a response's result in the trace frame it refers to (`frameSeq`, issue 23). */
  joinsFrames: boolean;
}

/**
 * A frame whose text is longer than this goes to a tab that joins frames as a binary message of its
 * own, just before the `events` message that names it (`rawApart`): the text is then neither
 * escaped into the envelope here nor parsed out of it in the page, which for a 5 MB result was
 * most of the time between the server's answer and the page's (issue 23).
 */
export const RAW_APART_CHARS = 256 * 1024;

export interface FeedDeps {
  sendText(ws: WebSocket, text: string): void;
  /** A frame's text as a binary message (UTF-8), for a tab that joins frames. */
  sendBinary(ws: WebSocket, bytes: Buffer): void;
  stats(session: string): TraceStats | undefined;
  events(session: string): TraceEvent[] | undefined;
  sessionIds(): string[];
}

export class TabFeed {
  private readonly tabs = new Map<WebSocket, Tab>();
  private pending: TraceEvent[] = [];
  /** Sessions with events in `pending` (kept as they are queued: no pass over the batch to find them). */
  private touched = new Set<string>();
  private readonly droppedSent = new Map<string, number>();
  /**
   * Armed while a flush is due. A flush that comes earlier (a response joins its frame, hub.ts)
   * leaves it armed: it then finds nothing and ends, and the next batch does not arm another. One
   * timer per FLUSH_DELAY_MS, not one per call (a timer each cost ~19 µs of the proxy's time a
   * call in bench/echo-latency.mjs: as many timers as calls in 4 ms, each a turn of the loop).
   */
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: FeedDeps) {}

  get size(): number {
    return this.tabs.size;
  }

  tabList(): IterableIterator<WebSocket> {
    return this.tabs.keys();
  }

  add(ws: WebSocket, joinsFrames = false): void {
    this.tabs.set(ws, { mode: 'default', full: new Set(), joinsFrames });
  }

  /** The tab takes this session's frames and finds an answer in them: a response may refer to its frame. */
  joinsFramesOf(ws: WebSocket, session: string): boolean {
    const tab = this.tabs.get(ws);
    return tab !== undefined && tab.joinsFrames && (tab.mode !== 'some' || tab.full.has(session));
  }

  delete(ws: WebSocket): void {
    this.tabs.delete(ws);
  }

  /** A new session: tabs subscribed to `*` get its whole trace live from its first event. */
  sessionCreated(id: string): void {
    for (const tab of this.tabs.values()) if (tab.mode === 'all') tab.full.add(id);
  }

  sessionRemoved(id: string): void {
    this.flush();
    this.droppedSent.delete(id);
    for (const tab of this.tabs.values()) tab.full.delete(id);
  }

  /**
   * Replaces the tab's set. Events queued so far go out first (under the old set); then every
   * newly subscribed session gets a `trace-reset` with all that was kept, and live events after it.
   */
  subscribe(ws: WebSocket, sessions: string[]): void {
    const tab = this.tabs.get(ws);
    if (!tab) return;
    this.flush();
    const all = sessions.includes('*');
    const known = this.deps.sessionIds();
    const wanted = all ? known : known.filter((id) => sessions.includes(id));
    for (const id of [...tab.full]) if (!wanted.includes(id)) tab.full.delete(id);
    for (const id of wanted) {
      if (tab.full.has(id)) continue;
      tab.full.add(id);
      const events = this.deps.events(id) ?? [];
      const stats = this.deps.stats(id) ?? { session: id, kept: events.length, dropped: 0 };
      this.deps.sendText(ws, serialise({ type: 'trace-reset', session: id, events, stats }));
    }
    tab.mode = all ? 'all' : 'some';
  }

  queue(event: TraceEvent): void {
    this.pending.push(event);
    this.touched.add(event.session);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, FLUSH_DELAY_MS);
  }

  /**
   * Sends what is queued: one text for every tab that takes everything, one per tab that picked
   * sessions. `answer`: a `response` (its text) for one tab, which goes in that tab's message as
   * its `response` member, after the events (one message, one socket write, one message for the
   * page to read instead of two: bench/echo-latency.mjs), or alone when nothing is queued.
   */
  flush(answer?: Answer): void {
    if (this.pending.length === 0) {
      if (answer) this.deps.sendText(answer.ws, answer.text);
      return;
    }
    const events = this.pending;
    const touched = this.touched;
    this.pending = [];
    this.touched = new Set();
    const changed = this.changedStats(touched);
    const everything: Partial<Record<'inline' | 'apart', Encoded>> = {};
    let counts: TraceStats[] | undefined;
    for (const [ws, tab] of this.tabs) {
      const way = tab.joinsFrames ? 'apart' : 'inline';
      if (tab.mode !== 'some') {
        this.send(ws, (everything[way] ??= encode(changed.length > 0 ? { type: 'events', events, stats: changed } : { type: 'events', events }, way === 'apart')), answer);
        continue;
      }
      // Counts for every session in the batch: the tab shows them for the sessions it does not follow.
      counts ??= [...touched].map((id) => this.deps.stats(id)).filter((s): s is TraceStats => s !== undefined);
      const message: Extract<ServerMessage, { type: 'events' }> = { type: 'events', events: tab.full.size > 0 ? events.filter((e) => tab.full.has(e.session)) : [], stats: counts };
      this.send(ws, encode(message, way === 'apart'), answer);
    }
  }

  private send(ws: WebSocket, encoded: Encoded, answer: Answer | undefined): void {
    for (const bytes of encoded.apart) this.deps.sendBinary(ws, bytes);
    // The response spliced in as text: the shared events text is not serialised again per tab.
    this.deps.sendText(ws, answer?.ws === ws ? `${encoded.text.slice(0, -1)},"response":${answer.text}}` : encoded.text);
  }

  /** Trace stats of the sessions in this batch whose dropped count moved: the page shows drops live. */
  private changedStats(touched: Set<string>): TraceStats[] {
    const out: TraceStats[] = [];
    for (const id of touched) {
      const stats = this.deps.stats(id);
      if (!stats || stats.dropped === (this.droppedSent.get(id) ?? 0)) continue;
      this.droppedSent.set(id, stats.dropped);
      out.push(stats);
    }
    return out;
  }
}

/** A response for one tab, to go with the events it completes (TabFeed.flush). */
export interface Answer {
  ws: WebSocket;
  text: string;
}

interface Encoded {
  /** The texts sent apart, in the order of the events that name them. */
  apart: Buffer[];
  text: string;
}

/** An `events` message as text; `apart`: long frame texts go as binary messages before it (RAW_APART_CHARS). */
function encode(message: Extract<ServerMessage, { type: 'events' }>, apart: boolean): Encoded {
  if (!apart || !message.events.some(isLong)) return { apart: [], text: serialise(message) };
  const texts: Buffer[] = [];
  const events = message.events.map((event) => {
    if (!isLong(event)) return event;
    texts.push(Buffer.from((event as FrameEvent).raw, 'utf8'));
    return { ...event, raw: '', rawApart: true };
  });
  return { apart: texts, text: serialise({ ...message, events } as ServerMessage) };
}

function isLong(event: TraceEvent): boolean {
  return event.kind === 'frame' && event.raw.length > RAW_APART_CHARS;
}
