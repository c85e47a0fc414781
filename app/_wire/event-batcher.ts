/**
 * The tab's one batching step for trace events (issue 9): events are queued per session as they
 * arrive and handed on once per animation frame, so a flood of 10,000 frames a second costs one
 * fold and one render per frame painted. A hidden tab gets no animation frames: a timer makes
 * sure the queue is still emptied there (at the browser's throttled timer rate).
 */
import type { TraceEvent } from '../../lib/wire/wire.ts';

/** The latest a batch waits when no animation frame comes (hidden tab, tests without rAF). */
const FALLBACK_MS = 100;

export class EventBatcher {
  private queued = new Map<string, TraceEvent[]>();
  private frame?: number;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private readonly deliver: (batches: ReadonlyMap<string, TraceEvent[]>) => void) {}

  push(events: readonly TraceEvent[]): void {
    for (const event of events) {
      const list = this.queued.get(event.session);
      if (list) list.push(event);
      else this.queued.set(event.session, [event]);
    }
    if (this.timer !== undefined || this.queued.size === 0) return;
    this.timer = setTimeout(() => this.flush(), FALLBACK_MS);
    if (typeof requestAnimationFrame === 'function') this.frame = requestAnimationFrame(() => this.flush());
  }

  /** Hand on everything queued now. */
  flush(): void {
    const batches = this.queued;
    this.cancelTimers();
    this.queued = new Map();
    if (batches.size > 0) this.deliver(batches);
  }

  /** Forget what is queued for a session (its trace was replaced), or everything. */
  drop(session?: string): void {
    if (session !== undefined) {
      this.queued.delete(session);
      return;
    }
    this.queued = new Map();
    this.cancelTimers();
  }

  private cancelTimers(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.frame !== undefined && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(this.frame);
    this.frame = undefined;
  }
}
