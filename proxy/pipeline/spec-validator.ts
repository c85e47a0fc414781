/**
 * Spec validation of every frame of a session, off the hot path (issue 14): it listens to the
 * session's trace recorder, queues each frame as it is recorded (a push, and for frames with an
 * id a map lookup that pairs a response with its request's method), and checks the queue against
 * the schema of the session's version (lib/doctor/spec.ts) later, in batches on timers (the first after a short settle),
 * each within a time budget (a twentieth of the time the loop spent elsewhere since the last batch,
 * at least 2 ms), so that the relay never waits for a check and a flood still gets checked. A frame that
 * breaks its schema gets a `spec` event in the same trace (the History marks its row, the doctor
 * report lists it); a valid frame gets nothing.
 *
 * Why batches on the event loop and not a worker thread (measured for issue 14, see
 * bench/spec-validation.mjs): a check costs about 2 µs for a small notification, 3.5 µs for an
 * echo result and 10 µs for a frame that fails (a tenth of what relaying a frame costs, or less),
 * while a worker holding the SDK's schemas costs about 23 MB of resident memory — a third of
 * Loupe's idle footprint, over the memory target on its own — and a copy of every frame across
 * threads.
 *
 * Bounded: at most `maxQueue` frames and `maxQueueBytes` wait; beyond that frames are dropped
 * unchecked (a flood is not worth a growing queue), as are frames over `maxFrameBytes` (one parse
 * of those would stall the loop); and at most `specPerSecond` spec events are recorded (a flood
 * of broken frames must not double the trace and the page's work). Each is counted and said in a
 * transport event once the queue has drained.
 */
import { loadSpecSchemas, validateFrame, type SpecEra } from '../../lib/doctor/spec.ts';
import { formatSize } from '../../lib/trace/trace.ts';
import { PROTOCOL_VERSION_KEY } from '../../lib/model/modern-meta.ts';
import type { FrameEvent, RequestId, TraceEvent } from '../../lib/wire/wire.ts';
import type { TraceRecorder } from './trace-recorder.ts';

export interface SpecValidatorOptions {
  /** Frames that may wait (default 50,000: one turn of the loop can read 20,000 small frames). */
  maxQueue?: number;
  /** Bytes of frame text that may wait (default 64 MiB; the frames are the trace's own, not copies). */
  maxQueueBytes?: number;
  /** Frames larger than this are not checked (default 8 MiB). */
  maxFrameBytes?: number;
  /** Milliseconds of checking a batch may take at least, before the loop gets a turn again (default 2). */
  budgetMs?: number;
  /** The share of the loop's time checking may take under load (default 0.05). */
  share?: number;
  /** Spec events recorded per second at most, in bursts of as many (default 500). */
  specPerSecond?: number;
}

/** A batch never takes longer than this, however long the loop was busy elsewhere. */
const MAX_BATCH_MS = 20;
/** How long a first batch waits after the queue was empty (see schedule): a connect wave or a page of results goes first. */
const SETTLE_MS = 250;

/**
 * From this size on, a frame is checked against the message it was parsed into when recorded (a
 * 5 MB result is not parsed a second time); a smaller one is parsed again here, which costs a few
 * microseconds and keeps a flood's queue to its texts, not their objects as well.
 */
const REUSE_PARSED_CHARS = 64 * 1024;

/** Requests remembered for pairing, oldest forgotten first (an unanswered flood must not grow it). */
const MAX_PENDING = 10_000;
/** The 2026-07-28 `_meta` key as it appears in a frame's text: a frame carrying it speaks that version. */
const MODERN_META_KEY = JSON.stringify(PROTOCOL_VERSION_KEY);

interface Pending {
  method: string;
  frame: FrameEvent;
}

interface Queued {
  frame: FrameEvent;
  request?: Pending;
  /** The message the frame's text was parsed into when it was recorded (not parsed again here). */
  parsed?: { value: unknown };
}

function plural(n: number): string {
  return `${n.toLocaleString('en')} frame${n === 1 ? '' : 's'}`;
}

function keyOf(dir: FrameEvent['dir'], id: RequestId): string {
  return `${dir}\u0000${typeof id}\u0000${String(id)}`;
}

const validators = new WeakMap<TraceRecorder, { settled(): Promise<void> }>();

/** Resolves once every frame recorded so far has been checked (the doctor waits for it before reading the spec events). */
export function specValidationSettled(trace: TraceRecorder): Promise<void> {
  return validators.get(trace)?.settled() ?? Promise.resolve();
}

/** The options with their defaults filled in. */
function withDefaults(options: SpecValidatorOptions): Required<SpecValidatorOptions> {
  return {
    maxQueue: options.maxQueue ?? 50_000,
    maxQueueBytes: options.maxQueueBytes ?? 64 * 1024 * 1024,
    maxFrameBytes: options.maxFrameBytes ?? 8 * 1024 * 1024,
    budgetMs: options.budgetMs ?? 2,
    share: options.share ?? 0.05,
    specPerSecond: options.specPerSecond ?? 500,
  };
}

/** The generation a frame is checked in: the session's, or while that is unknown, what the frame (or its request) says. */
function eraOf(item: Queued, session: SpecEra | undefined): SpecEra {
  if (session) return session;
  const own = item.request?.frame ?? item.frame;
  return own.raw.includes(MODERN_META_KEY) ? 'modern' : 'legacy';
}

/** One trace's validation: the frames waiting for their check, and the batches that check them. */
class SpecValidator {
  private queue: (Queued | undefined)[] = [];
  private head = 0;
  private queuedBytes = 0;
  private dropped = 0;
  private tooLarge = 0;
  private unmarked = 0;
  private tokens: number;
  private lastBatch = performance.now();
  private scheduled: ReturnType<typeof setTimeout> | undefined;
  private modern: 'unloaded' | 'loading' | 'ready' | 'failed' = 'unloaded';
  private stopped = false;
  private waiters: (() => void)[] = [];
  private readonly pending = new Map<string, Pending>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly trace: TraceRecorder,
    private readonly era: () => SpecEra | undefined,
    private readonly protocolVersion: () => string | undefined,
    private readonly limits: Required<SpecValidatorOptions>,
  ) {
    this.tokens = limits.specPerSecond;
    this.unsubscribe = trace.subscribe((event, parsed) => this.listen(event, parsed));
  }

  /**
   * A first batch waits SETTLE_MS, so that a burst (ten servers connecting at once, a page of
   * results) is relayed before any of it is checked; the batches after it follow at once. The
   * timer does not hold a process that would otherwise exit (a one-shot CLI run).
   */
  private schedule(continuing = false): void {
    if (this.scheduled !== undefined || this.stopped) return;
    this.scheduled = setTimeout(() => this.run(), continuing ? 0 : SETTLE_MS);
    this.scheduled.unref?.();
  }

  // The hot path: called inside `trace.record`, for every event of the session.
  private listen(event: TraceEvent, parsed: { value: unknown } | undefined): void {
    // A frame between Loupe and an MCP Apps view (issue 24) is the view's protocol, not the server's.
    if (event.kind !== 'frame' || event.view !== undefined) return;
    let request: Pending | undefined;
    if (event.id !== undefined && event.method !== undefined) {
      this.pending.set(keyOf(event.dir, event.id), { method: event.method, frame: event });
      if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
    } else if (event.id !== undefined) {
      const key = keyOf(event.dir === 'in' ? 'out' : 'in', event.id);
      request = this.pending.get(key);
      this.pending.delete(key);
    }
    const size = event.raw.length;
    if (size > this.limits.maxFrameBytes) this.tooLarge += 1;
    else if (this.queue.length - this.head >= this.limits.maxQueue || this.queuedBytes + size > this.limits.maxQueueBytes) this.dropped += 1;
    else {
      this.queue.push({ frame: event, request, parsed: size >= REUSE_PARSED_CHARS ? parsed : undefined });
      this.queuedBytes += size;
    }
    this.schedule();
  }

  private loadModern(): void {
    this.modern = 'loading';
    loadSpecSchemas('modern').then(
      () => {
        this.modern = 'ready';
        this.schedule();
      },
      (error: unknown) => {
        this.modern = 'failed';
        this.trace.record({ kind: 'transport', level: 'warn', message: `Loupe cannot check 2026-07-28 frames against the spec schema (${error instanceof Error ? error.message : String(error)}); they are relayed unchecked.` });
        this.schedule();
      },
    );
  }

  private check(item: Queued, itemEra: SpecEra, version: string | undefined): void {
    const { frame, request, parsed } = item;
    const found = validateFrame(frame.raw, { dir: frame.dir, era: itemEra, requestMethod: request?.method, protocolVersion: version }, parsed);
    if (!found) return;
    if (this.tokens < 1) this.unmarked += 1;
    else {
      this.tokens -= 1;
      this.trace.record({ kind: 'spec', of: frame.seq, version: found.version, schema: found.schema, issues: found.issues });
    }
  }

  private run(): void {
    this.scheduled = undefined;
    if (this.stopped) return;
    const { specPerSecond, budgetMs, share } = this.limits;
    const started = performance.now();
    this.tokens = Math.min(specPerSecond, this.tokens + ((started - this.lastBatch) / 1000) * specPerSecond);
    const deadline = started + Math.min(MAX_BATCH_MS, Math.max(budgetMs, share * (started - this.lastBatch)));
    const session = this.era();
    const version = this.protocolVersion();
    while (this.head < this.queue.length) {
      const item = this.queue[this.head] as Queued;
      const itemEra = eraOf(item, session);
      if (itemEra === 'modern' && this.modern !== 'ready' && this.modern !== 'failed') {
        // The 2026 schemas are imported on first need; the batch goes on once they are in.
        if (this.modern === 'unloaded') this.loadModern();
        return;
      }
      this.queue[this.head++] = undefined;
      this.queuedBytes -= item.frame.raw.length;
      if (itemEra === 'legacy' || this.modern === 'ready') this.check(item, itemEra, version);
      if (performance.now() >= deadline) break;
    }
    this.lastBatch = performance.now();
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.head < this.queue.length) return this.schedule(true);
    this.drained();
  }

  private drained(): void {
    this.queue = [];
    this.head = 0;
    if (this.dropped > 0 || this.tooLarge > 0) {
      const { dropped, tooLarge } = this;
      const parts = [dropped > 0 ? `${plural(dropped)} that came faster than Loupe could check them` : '', tooLarge > 0 ? `${plural(tooLarge)} over ${formatSize(this.limits.maxFrameBytes)}` : ''];
      this.trace.record({ kind: 'transport', level: 'info', message: `Spec validation skipped ${parts.filter(Boolean).join(' and ')}; they were relayed unchecked.` });
      this.dropped = 0;
      this.tooLarge = 0;
    }
    if (this.unmarked > 0) {
      this.trace.record({ kind: 'transport', level: 'info', message: `Spec validation marks at most ${this.limits.specPerSecond} frames a second in the History; ${this.unmarked.toLocaleString('en')} more broke the schema and are not marked.` });
      this.unmarked = 0;
    }
    this.wake();
  }

  settled(): Promise<void> {
    return this.stopped || (this.head >= this.queue.length && this.scheduled === undefined) ? Promise.resolve() : new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    if (this.scheduled !== undefined) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.queue = [];
    this.head = 0;
    this.pending.clear();
    validators.delete(this.trace);
    this.wake();
  }

  /** Resolves what waits on `settled`. */
  private wake(): void {
    const done = this.waiters;
    this.waiters = [];
    for (const resolve of done) resolve();
  }
}

/**
 * Validates the frames `trace` records from now on. `era` and `protocolVersion` are read once per
 * batch (the session's generation and negotiated version; before they are known, a frame's own
 * `_meta` tells). Returns the function that stops it.
 */
export function attachSpecValidator(
  trace: TraceRecorder,
  era: () => SpecEra | undefined,
  protocolVersion: () => string | undefined,
  options: SpecValidatorOptions = {},
): () => void {
  const validator = new SpecValidator(trace, era, protocolVersion, withDefaults(options));
  validators.set(trace, validator);
  return () => validator.stop();
}
