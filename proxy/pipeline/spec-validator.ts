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
  const maxQueue = options.maxQueue ?? 50_000;
  const maxQueueBytes = options.maxQueueBytes ?? 64 * 1024 * 1024;
  const maxFrameBytes = options.maxFrameBytes ?? 8 * 1024 * 1024;
  const budgetMs = options.budgetMs ?? 2;
  const share = options.share ?? 0.05;
  const specPerSecond = options.specPerSecond ?? 500;
  let queue: (Queued | undefined)[] = [];
  let head = 0;
  let queuedBytes = 0;
  let dropped = 0;
  let tooLarge = 0;
  let unmarked = 0;
  let tokens = specPerSecond;
  let lastBatch = performance.now();
  let scheduled: ReturnType<typeof setTimeout> | undefined;
  let modern: 'unloaded' | 'loading' | 'ready' | 'failed' = 'unloaded';
  let stopped = false;
  let waiters: (() => void)[] = [];
  const pending = new Map<string, Pending>();

  /**
   * A first batch waits SETTLE_MS, so that a burst (ten servers connecting at once, a page of
   * results) is relayed before any of it is checked; the batches after it follow at once. The
   * timer does not hold a process that would otherwise exit (a one-shot CLI run).
   */
  const schedule = (continuing = false) => {
    if (scheduled !== undefined || stopped) return;
    scheduled = setTimeout(run, continuing ? 0 : SETTLE_MS);
    scheduled.unref?.();
  };

  // The hot path: called inside `trace.record`, for every event of the session.
  const listener = (event: TraceEvent) => {
    if (event.kind !== 'frame') return;
    let request: Pending | undefined;
    if (event.id !== undefined && event.method !== undefined) {
      pending.set(keyOf(event.dir, event.id), { method: event.method, frame: event });
      if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value as string);
    } else if (event.id !== undefined) {
      const key = keyOf(event.dir === 'in' ? 'out' : 'in', event.id);
      request = pending.get(key);
      pending.delete(key);
    }
    const size = event.raw.length;
    if (size > maxFrameBytes) tooLarge += 1;
    else if (queue.length - head >= maxQueue || queuedBytes + size > maxQueueBytes) dropped += 1;
    else {
      queue.push({ frame: event, request });
      queuedBytes += size;
    }
    schedule();
  };

  /** The generation a frame is checked in: the session's, or while that is unknown, what the frame (or its request) says. */
  const eraOf = (item: Queued, session: SpecEra | undefined): SpecEra => {
    if (session) return session;
    const own = item.request?.frame ?? item.frame;
    return own.raw.includes(MODERN_META_KEY) ? 'modern' : 'legacy';
  };

  const loadModern = () => {
    modern = 'loading';
    loadSpecSchemas('modern').then(
      () => {
        modern = 'ready';
        schedule();
      },
      (error: unknown) => {
        modern = 'failed';
        trace.record({ kind: 'transport', level: 'warn', message: `Loupe cannot check 2026-07-28 frames against the spec schema (${error instanceof Error ? error.message : String(error)}); they are relayed unchecked.` });
        schedule();
      },
    );
  };

  function check(item: Queued, itemEra: SpecEra, version: string | undefined): void {
    const { frame, request } = item;
    const found = validateFrame(frame.raw, { dir: frame.dir, era: itemEra, requestMethod: request?.method, protocolVersion: version });
    if (!found) return;
    if (tokens < 1) unmarked += 1;
    else {
      tokens -= 1;
      trace.record({ kind: 'spec', of: frame.seq, version: found.version, schema: found.schema, issues: found.issues });
    }
  }

  function run(): void {
    scheduled = undefined;
    if (stopped) return;
    const started = performance.now();
    tokens = Math.min(specPerSecond, tokens + ((started - lastBatch) / 1000) * specPerSecond);
    const deadline = started + Math.min(MAX_BATCH_MS, Math.max(budgetMs, share * (started - lastBatch)));
    const session = era();
    const version = protocolVersion();
    while (head < queue.length) {
      const item = queue[head] as Queued;
      const itemEra = eraOf(item, session);
      if (itemEra === 'modern' && modern !== 'ready' && modern !== 'failed') {
        // The 2026 schemas are imported on first need; the batch goes on once they are in.
        if (modern === 'unloaded') loadModern();
        return;
      }
      queue[head++] = undefined;
      queuedBytes -= item.frame.raw.length;
      if (itemEra === 'legacy' || modern === 'ready') check(item, itemEra, version);
      if (performance.now() >= deadline) break;
    }
    lastBatch = performance.now();
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    if (head < queue.length) return schedule(true);
    drained();
  }

  function drained(): void {
    queue = [];
    head = 0;
    if (dropped > 0 || tooLarge > 0) {
      const parts = [dropped > 0 ? `${plural(dropped)} that came faster than Loupe could check them` : '', tooLarge > 0 ? `${plural(tooLarge)} over ${formatSize(maxFrameBytes)}` : ''];
      trace.record({ kind: 'transport', level: 'info', message: `Spec validation skipped ${parts.filter(Boolean).join(' and ')}; they were relayed unchecked.` });
      dropped = 0;
      tooLarge = 0;
    }
    if (unmarked > 0) {
      trace.record({ kind: 'transport', level: 'info', message: `Spec validation marks at most ${specPerSecond} frames a second in the History; ${unmarked.toLocaleString('en')} more broke the schema and are not marked.` });
      unmarked = 0;
    }
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  }

  const unsubscribe = trace.subscribe(listener);
  validators.set(trace, {
    settled: () => (stopped || (head >= queue.length && scheduled === undefined) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (scheduled !== undefined) clearTimeout(scheduled);
    scheduled = undefined;
    queue = [];
    head = 0;
    pending.clear();
    validators.delete(trace);
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };
}
