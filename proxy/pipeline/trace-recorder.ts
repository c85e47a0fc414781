/**
 * Keeps the trace of one session: every frame, stderr chunk, noise line, exit and transport event,
 * numbered in order. Bounded by count and by bytes; what it lets go is counted.
 */
import { maskTraceEvent, secretScrubber, type Scrub } from '../../lib/trace/secret-mask.ts';
import type { FrameEvent, TraceEvent, TraceStats } from '../../lib/wire/wire.ts';
import type { FrameShape } from '../../lib/trace/frame-classify.ts';

/** A trace event before the recorder numbers and stamps it. */
export type TraceEventInput = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'session' | 'seq' | 'ts'> : never) : never;

/**
 * Told of every event as it is recorded. `parsed`: for a frame, the message its text was parsed
 * into, once, by pipeline/frame-record.ts — only where the recorded text is the text itself (no
 * secret was masked in it), so that a listener never sees through a mask (the spec validator
 * reuses it instead of parsing the text again; issue 23).
 */
export type TraceListener = (event: TraceEvent, parsed?: { value: unknown }) => void;

export interface TraceLimits {
  maxEvents: number;
  maxBytes: number;
}

export const DEFAULT_TRACE_LIMITS: TraceLimits = { maxEvents: 50_000, maxBytes: 256 * 1024 * 1024 };

/** Wall clock with sub-millisecond resolution. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

function weigh(event: TraceEvent): number {
  switch (event.kind) {
    case 'frame':
      return 200 + event.raw.length;
    case 'stderr':
    case 'noise':
      return 100 + event.text.length;
    case 'provider':
      return 300 + event.requestBody.length + event.responseBody.length;
    case 'intervention':
      return 300 + event.original.length + (event.result?.length ?? 0);
    default:
      return 300;
  }
}

export class TraceRecorder {
  private events: TraceEvent[] = [];
  /** Index of the oldest kept event in `events` (a cheap ring: compacted when half is dead). */
  private head = 0;
  private bytes = 0;
  private seq = 0;
  private droppedCount = 0;

  /** The number of the last event recorded (0: none yet). */
  get lastSeq(): number {
    return this.seq;
  }
  private listeners = new Set<TraceListener>();

  constructor(
    readonly session: string,
    private readonly limits: TraceLimits = DEFAULT_TRACE_LIMITS,
  ) {}

  /** Raw text of frames about to be sent by hand, with how they came to be (see `expectOut`). */
  private readonly origins = new Map<string, 'replay' | 'edited' | 'composer'>();

  /**
   * The next outgoing frame with exactly this text was sent by the user by hand: the tap that
   * records it (stdio or HTTP) marks it so, without having to know about hand-sent frames.
   */
  expectOut(raw: string, origin: 'replay' | 'edited' | 'composer'): void {
    this.origins.set(raw, origin);
  }

  /** Rounds of multi-round-trip calls (issue 12), by the JSON-RPC id of the re-sent request. */
  private readonly rounds = new Map<string, { call: string | number; n: number }>();

  /** The outgoing request with this id re-sends `round.call` (round `round.n`): its frame says so. */
  expectRound(id: string | number, round: { call: string | number; n: number }): void {
    this.rounds.set(`${typeof id}:${id}`, round);
  }

  /** Requests sent for an MCP Apps view (issue 24), by their JSON-RPC id: the view's id. */
  private readonly byViews = new Map<string, string>();

  /** The outgoing request with this id was sent for view `view`: its frame says so. */
  expectByView(id: string | number, view: string): void {
    this.byViews.set(`${typeof id}:${id}`, view);
  }

  private values: readonly string[] = [];
  private scrub: Scrub = secretScrubber([]);

  /**
   * Values the page must never see (issue 9: the secret env/header values of this session). Every
   * event is masked here, at the source, before any listener (the page, a recording, `--verbose`)
   * has it: secret headers by name, and these values wherever they appear (lib/trace/secret-mask.ts).
   */
  get secretValues(): readonly string[] {
    return this.values;
  }

  set secretValues(values: readonly string[]) {
    this.values = values;
    this.scrub = secretScrubber(values, 'masked');
  }

  /** Frames that are what went on after an intervention (issue 13), by their exact text: the seq of the intervention. */
  private readonly interventions = new Map<string, number>();

  /** The next outgoing frame with exactly this text is the result of intervention `seq`: its frame says so. */
  expectIntervention(raw: string, seq: number): void {
    this.interventions.set(raw, seq);
  }

  /** `at`: when it happened, where that is not now (a tap's events, recorded in its own process first). */
  record(input: TraceEventInput, at?: number): TraceEvent {
    return this.commit({ ...input, session: this.session, seq: ++this.seq, ts: at ?? now() } as TraceEvent);
  }

  /**
   * A frame, built as its final object at once (the hot path of a flood: `record` copies its input
   * once more). pipeline/frame-record.ts is its one caller.
   */
  recordFrame(dir: 'in' | 'out', raw: string, size: number, shape: FrameShape, at?: number, parsed?: { value: unknown }, view?: string): FrameEvent {
    const event: FrameEvent = { kind: 'frame', dir, raw, size, rpc: shape.rpc, session: this.session, seq: ++this.seq, ts: at ?? now() };
    if (shape.method !== undefined) event.method = shape.method;
    if (shape.id !== undefined) event.id = shape.id;
    if (view !== undefined) event.view = view;
    return this.commit(event, parsed) as FrameEvent;
  }

  private commit(input: TraceEvent, parsed?: { value: unknown }): TraceEvent {
    let event = input;
    if (this.interventions.size > 0 && event.kind === 'frame' && event.dir === 'out') {
      const seq = this.interventions.get(event.raw);
      if (seq !== undefined) {
        this.interventions.delete(event.raw);
        event.intervention = seq;
      }
    }
    if (this.origins.size > 0 && event.kind === 'frame' && event.dir === 'out') {
      const origin = this.origins.get(event.raw);
      if (origin) {
        this.origins.delete(event.raw);
        event.origin = origin;
      }
    }
    if (this.byViews.size > 0 && event.kind === 'frame' && event.dir === 'out' && event.id !== undefined && event.view === undefined) {
      const key = `${typeof event.id}:${event.id}`;
      const view = this.byViews.get(key);
      if (view !== undefined) {
        this.byViews.delete(key);
        event.byView = view;
      }
    }
    if (this.rounds.size > 0 && event.kind === 'frame' && event.dir === 'out' && event.id !== undefined) {
      const key = `${typeof event.id}:${event.id}`;
      const round = this.rounds.get(key);
      if (round) {
        this.rounds.delete(key);
        event.round = round;
      }
    }
    // After the annotations above, which match frames by the exact text that was sent.
    if (this.values.length > 0 || event.kind === 'http') event = maskTraceEvent(event, this.scrub);
    this.events.push(event);
    this.bytes += weigh(event);
    this.evict();
    const exact = parsed !== undefined && event.kind === 'frame' && event.raw === (input as FrameEvent).raw ? parsed : undefined;
    for (const listener of this.listeners) listener(event, exact);
    return event;
  }

  /** Called for every event recorded from now on. Returns the unsubscribe function. */
  subscribe(listener: TraceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The kept events, oldest first. */
  all(): TraceEvent[] {
    return this.events.slice(this.head);
  }

  /** The last `count` kept events, oldest first (the snapshot's tail, issue 9). */
  tail(count: number): TraceEvent[] {
    return this.events.slice(Math.max(this.head, this.events.length - count));
  }

  stats(): TraceStats {
    return { session: this.session, kept: this.events.length - this.head, dropped: this.droppedCount };
  }

  private evict(): void {
    while (this.events.length - this.head > 1 && (this.events.length - this.head > this.limits.maxEvents || this.bytes > this.limits.maxBytes)) {
      this.bytes -= weigh(this.events[this.head]);
      this.head++;
      this.droppedCount++;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}
