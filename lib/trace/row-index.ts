/**
 * The trace of one session as history rows, built incrementally: appending a batch of events
 * costs that batch, not the whole trace (a flood of 10,000 frames a second must not re-pair
 * 100,000 frames per batch, which is how other inspectors freeze). It pairs requests with their
 * responses (latency), follows cancellations, and marks protocol violations where they happen.
 *
 * Pairing rules as in trace.ts: ids are scoped per direction and compared with their type.
 *
 * It also tells which generation the session speaks from its own frames (issue 12): a request
 * whose `_meta` names 2026-07-28 makes it modern, an `initialize` legacy (the latest one wins: a
 * probe that fell back, a reconnect). The 2026-07-28 checks (trace-violations-modern.ts) run
 * only on a modern session; a 2025 session pays one `includes` per request it sends. A `spec`
 * event (issue 14: a frame breaks its version's schema) is no row: it marks its frame's row.
 */
import type { HistoryRow } from './trace.ts';
import { cancelledRequestId, capabilityViolation, declaredInInitialize, frameViolations, parseFrame, requiredCapabilities, type Violation } from './violations.ts';
import { deprecatedMethodViolation, frameEra, headerViolation, isMcpPost, pickBody, resultTypeViolation, serverAccepted, sessionIdViolation, standaloneGetViolation, type Era } from './violations-modern.ts';
import type { ClientCapabilityChoice, FrameEvent, HttpEvent, RequestId, StderrEvent, TraceEvent } from '../wire/wire.ts';
import type { SpecEvent } from '../wire/events.ts';
import { schemaReferenceUrl } from '../wire/constants.ts';
import { otherRow } from './other-rows.ts';

/** Stderr text kept for the stderr stream (the rows keep every chunk too, within the event cap). */
const STDERR_KEEP_CHARS = 64 * 1024;
/** Bodies sent on a modern session still waiting for their HTTP exchange (stdio sends none: bounded). */
const BODIES_KEPT = 64;

/** `view`: the MCP Apps view a frame belongs to (issue 24): its ids are its own, paired apart from the server's. */
function keyOf(requestDir: FrameEvent['dir'], id: RequestId, view?: string): string {
  return `${view ?? ''}\u0000${requestDir}\u0000${typeof id}\u0000${String(id)}`;
}

function opposite(dir: FrameEvent['dir']): FrameEvent['dir'] {
  return dir === 'out' ? 'in' : 'out';
}

function addViolation(row: HistoryRow, violation: Violation): void {
  (row.violations ??= []).push(violation);
}

export interface AppendResult {
  /** New rows, in order. */
  added: HistoryRow[];
  /** Earlier rows whose pairing, cancellation or error state changed (or a violation's message: a mismatch the server then took). */
  touched: HistoryRow[];
}

export class TraceIndex {
  /** Every row, oldest first (stderr chunks included: they are a kind of their own). */
  readonly rows: HistoryRow[] = [];
  /** Bumped on every change, so that views of mutable rows know to redraw. */
  version = 0;
  /** Rows per method (a response counts for its request's method). */
  readonly methods = new Map<string, number>();
  /** Rows with at least one violation. */
  violationRows = 0;
  /** Events appended so far (also those trimmed away since). */
  total = 0;
  /** Bumped when a row of an earlier batch gains a violation (a spec event about it): a violations-only view must filter again. */
  flags = 0;
  private lastEventSeq = 0;
  private readonly open = new Map<string, HistoryRow>();
  private readonly answered = new Map<string, HistoryRow>();
  private readonly cancelled = new Map<string, number>();
  private stderrChunks: StderrEvent[] = [];
  private stderrChars = 0;
  private stderrTrimmed = 0;
  private stderrCount = 0;
  private stderrCache?: { count: number; value: { text: string; trimmed: number } };
  /** False when the trace did not start at seq 1: a request may be missing, so "unknown id" is hedged. */
  private complete = true;
  /** What the client declared, from the latest `initialize` frame in the trace. */
  private declared?: ClientCapabilityChoice;
  private sessionEra?: Era;
  /** Frames Loupe sent on a modern session whose HTTP exchange has not been recorded yet, oldest first. */
  private readonly bodies: FrameEvent[] = [];
  private readonly modernRequests = new WeakSet<HistoryRow>();
  /** Requests whose POST's headers disagreed with them and that the server did not refuse (yet). */
  private readonly mismatches = new WeakMap<HistoryRow, { http: HistoryRow; violation: Violation; status: number }>();
  private readonly attached = new WeakMap<HistoryRow, SpecEvent[]>();

  /** `clientCapabilities`: what the session says Loupe declared, for a trace whose `initialize` was let go. */
  constructor(private readonly clientCapabilities?: ClientCapabilityChoice) {}

  static from(events: readonly TraceEvent[], clientCapabilities?: ClientCapabilityChoice): TraceIndex {
    const index = new TraceIndex(clientCapabilities);
    index.append(events);
    return index;
  }

  /** The generation the session speaks, from its latest frame that tells (undefined until one does). */
  get era(): Era | undefined {
    return this.sessionEra;
  }

  /** The seq of the last event taken (a spec event is taken without a row of its own). */
  get lastSeq(): number {
    return Math.max(this.lastEventSeq, this.rows.length === 0 ? 0 : this.rows[this.rows.length - 1].seq);
  }

  /** The spec events attached to this row, in order (an export writes them after its frame). */
  specEvents(row: HistoryRow): readonly SpecEvent[] {
    return this.attached.get(row) ?? [];
  }

  append(events: readonly TraceEvent[]): AppendResult {
    const added: HistoryRow[] = [];
    const touched: HistoryRow[] = [];
    const lastRowBefore = this.rows.length === 0 ? 0 : this.rows[this.rows.length - 1].seq;
    if (this.total === 0 && events.length > 0 && events[0].seq > 1) this.complete = false;
    for (const event of events) {
      this.total += 1;
      this.lastEventSeq = event.seq;
      if (event.kind === 'spec') {
        this.attachSpec(event, lastRowBefore, touched);
        continue;
      }
      const row = event.kind === 'frame' ? this.frameRow(event, touched) : otherRow(event);
      if (event.kind === 'http' && this.sessionEra === 'modern') this.modernHttp(row, event);
      if (event.kind === 'stderr') this.keepStderr(event);
      if (row.method !== undefined) this.methods.set(row.method, (this.methods.get(row.method) ?? 0) + 1);
      if (row.violations) this.violationRows += 1;
      this.rows.push(row);
      added.push(row);
    }
    if (added.length > 0 || touched.length > 0) this.version += 1;
    return { added, touched };
  }

  /** A spec event marks its frame's row if it is still kept; a row of an earlier batch is touched (one of this batch is new anyway). */
  private attachSpec(event: SpecEvent, lastRowBefore: number, touched: HistoryRow[]): void {
    const row = this.find(event.of);
    if (!row || row.event.kind !== 'frame') return;
    if (!row.violations) this.violationRows += 1;
    addViolation(row, { code: 'spec-schema', message: `Breaks the ${event.version} schema (${event.schema}): ${event.issues.join('; ')}.`, spec: schemaReferenceUrl(event.version) });
    this.attached.set(row, [...(this.attached.get(row) ?? []), event]);
    if (row.seq > lastRowBefore) return;
    touched.push(row);
    this.flags += 1;
  }

  /** Drop rows older than `seq` (the tab's event cap let them go); returns how many. */
  trimBefore(seq: number): number {
    let n = 0;
    while (n < this.rows.length && this.rows[n].seq < seq) n += 1;
    if (n === 0) return 0;
    for (const row of this.rows.slice(0, n)) {
      if (row.method !== undefined) {
        const left = (this.methods.get(row.method) ?? 1) - 1;
        if (left > 0) this.methods.set(row.method, left);
        else this.methods.delete(row.method);
      }
      if (row.violations) this.violationRows -= 1;
    }
    this.rows.splice(0, n);
    this.complete = false;
    if (this.answered.size > this.rows.length) {
      for (const [key, row] of this.answered) if (row.seq < seq) this.answered.delete(key);
    }
    this.version += 1;
    return n;
  }

  /** The server's stderr as one text (the last 64 KiB), and how many characters were let go. */
  stderr(): { text: string; trimmed: number } {
    if (this.stderrCache?.count !== this.stderrCount) {
      const text = this.stderrChunks.map((chunk) => chunk.text).join('');
      const over = Math.max(0, text.length - STDERR_KEEP_CHARS);
      this.stderrCache = { count: this.stderrCount, value: { text: text.slice(over), trimmed: this.stderrTrimmed + over } };
    }
    return this.stderrCache.value;
  }

  /** The row with this seq (binary search: rows are in seq order). */
  find(seq: number): HistoryRow | undefined {
    let lo = 0;
    let hi = this.rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.rows[mid].seq;
      if (at === seq) return this.rows[mid];
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  private keepStderr(event: StderrEvent): void {
    this.stderrCount += 1;
    this.stderrChunks.push(event);
    this.stderrChars += event.text.length;
    while (this.stderrChunks.length > 1 && this.stderrChars - this.stderrChunks[0].text.length >= STDERR_KEEP_CHARS) {
      const gone = this.stderrChunks.shift() as StderrEvent;
      this.stderrChars -= gone.text.length;
      this.stderrTrimmed += gone.text.length;
    }
  }

  private frameRow(event: FrameEvent, touched: HistoryRow[]): HistoryRow {
    const row: HistoryRow = { seq: event.seq, ts: event.ts, kind: event.rpc, event, dir: event.dir, method: event.method, id: event.id, size: event.size, origin: event.origin };
    if (event.view !== undefined) return this.viewFrameRow(row, event, touched);
    for (const violation of frameViolations(event)) addViolation(row, violation);
    const era = event.dir === 'out' ? this.noteEra(event) : this.sessionEra;
    if (era === 'modern') this.modernFrame(row, event);
    if (event.rpc === 'error') row.isError = true;
    switch (event.rpc) {
      case 'request':
        this.request(row, event, touched, era);
        break;
      case 'response':
      case 'error':
        this.response(row, event, touched);
        break;
      case 'notification':
        this.notification(event, touched);
        break;
      default:
        break;
    }
    return row;
  }

  /**
   * A frame between Loupe and an MCP Apps view (issue 24): paired with its partner within the
   * view, and judged by nothing of the server's protocol (its methods are the view's: `ui/…`).
   */
  private viewFrameRow(row: HistoryRow, event: FrameEvent, touched: HistoryRow[]): HistoryRow {
    if (event.rpc === 'error') row.isError = true;
    if (event.rpc === 'request' && event.id !== undefined) {
      row.pending = true;
      this.open.set(keyOf(event.dir, event.id, event.view), row);
    } else if (event.rpc === 'response' || event.rpc === 'error') this.response(row, event, touched);
    return row;
  }

  /** What a frame Loupe sent says of the session's generation; the generation it is sent in. */
  private noteEra(event: FrameEvent): Era | undefined {
    const own = frameEra(event);
    if (own !== undefined) this.sessionEra = own;
    // A 2025 connection now (a probe that fell back, a reconnect): nothing modern is in flight.
    if (own === 'legacy') this.bodies.length = 0;
    return this.sessionEra;
  }

  /** A frame of a modern session: what that version removed; a body its HTTP exchange will name. */
  private modernFrame(row: HistoryRow, event: FrameEvent): void {
    const deprecated = deprecatedMethodViolation(event);
    if (deprecated) addViolation(row, deprecated);
    if (event.dir !== 'out') return;
    if (event.rpc === 'request') this.modernRequests.add(row);
    this.bodies.push(event);
    if (this.bodies.length > BODIES_KEPT) this.bodies.shift();
  }

  /** An HTTP exchange on a modern session: its headers against the body it carried, a session id, a standalone GET stream. */
  private modernHttp(row: HistoryRow, event: HttpEvent): void {
    const at = isMcpPost(event) && this.bodies.length > 0 ? pickBody(event, this.bodies) : -1;
    const body = at >= 0 ? this.bodies.splice(at, 1)[0] : undefined;
    const mismatch = body && headerViolation(event, body);
    if (mismatch) {
      addViolation(row, mismatch);
      const request = body.id === undefined ? undefined : this.open.get(keyOf('out', body.id));
      if (request && event.status !== undefined && event.status < 300) this.mismatches.set(request, { http: row, violation: mismatch, status: event.status });
    }
    const sessionId = sessionIdViolation(event);
    if (sessionId) addViolation(row, sessionId);
    const stream = standaloneGetViolation(event);
    if (stream) addViolation(row, stream);
  }

  /** The answer to a modern request: its resultType; the server taking a request whose headers lied. */
  private modernResponse(request: HistoryRow, row: HistoryRow, event: FrameEvent, touched: HistoryRow[]): void {
    const waiting = this.bodies.indexOf(request.event as FrameEvent);
    if (waiting >= 0) this.bodies.splice(waiting, 1);
    const resultType = resultTypeViolation(request.event as FrameEvent, event);
    if (resultType) addViolation(row, resultType);
    const mismatch = this.mismatches.get(request);
    if (!mismatch) return;
    this.mismatches.delete(request);
    const violations = mismatch.http.violations ?? [];
    const at = violations.indexOf(mismatch.violation);
    if (event.rpc !== 'response' || at < 0) return;
    violations[at] = serverAccepted(mismatch.violation, mismatch.status);
    touched.push(mismatch.http);
  }

  private request(row: HistoryRow, event: FrameEvent, touched: HistoryRow[], era: Era | undefined): void {
    // A "notification" sent with an id is a request as far as the other side can tell: it may be answered.
    if (event.id === undefined) return;
    if (event.dir === 'out' && event.method === 'initialize') this.newConnection(touched);
    const key = keyOf(event.dir, event.id);
    if (this.open.has(key) || this.answered.has(key)) {
      addViolation(row, { code: 'reused-id', message: `The id ${JSON.stringify(event.id)} was already used by an earlier request in this session.` });
    }
    this.answered.delete(key);
    this.cancelled.delete(key);
    row.pending = true;
    this.open.set(key, row);
    if (event.dir === 'out' && event.method === 'initialize') this.declared = declaredInInitialize(event) ?? this.declared;
    const declared = this.declared ?? this.clientCapabilities;
    // On a modern session a server request is wrong whatever was declared (deprecated-method says so).
    if (event.dir === 'in' && era !== 'modern' && declared && event.method !== undefined && requiredCapabilities(event.method, undefined)) {
      const violation = capabilityViolation(event.method, parseFrame(event), declared);
      if (violation) addViolation(row, violation);
    }
  }

  /**
   * A new `initialize` starts a new MCP session (a reconnect): ids may start over, and what was
   * still waiting will never be answered.
   */
  private newConnection(touched: HistoryRow[]): void {
    for (const request of this.open.values()) {
      if (!request.pending && !request.cancelled) continue;
      request.pending = undefined;
      request.unanswered = true;
      touched.push(request);
    }
    this.open.clear();
    this.answered.clear();
    this.cancelled.clear();
  }

  private response(row: HistoryRow, event: FrameEvent, touched: HistoryRow[]): void {
    if (event.id === undefined) {
      row.unmatched = true;
      return;
    }
    if (event.rpc === 'response' && event.raw.includes('"isError":true')) row.isError = true;
    const key = keyOf(opposite(event.dir), event.id, event.view);
    const request = this.open.get(key);
    if (request) {
      this.open.delete(key);
      this.answered.set(key, request);
      this.link(request, row);
      touched.push(request);
      if (this.modernRequests.has(request)) this.modernResponse(request, row, event, touched);
      const cancelSeq = this.cancelled.get(key);
      if (cancelSeq !== undefined) {
        addViolation(row, { code: 'late-response', message: `A response to request #${request.seq} after it was cancelled (#${cancelSeq}); the receiver of a cancellation should not respond.` });
      }
      return;
    }
    row.unmatched = true;
    const earlier = this.answered.get(key);
    if (earlier) {
      row.method = earlier.method;
      row.partner = earlier;
      row.partnerSeq = earlier.seq;
      addViolation(row, { code: 'duplicate-response', message: `Request #${earlier.seq} (id ${JSON.stringify(event.id)}) was already answered by #${earlier.partnerSeq}.` });
      return;
    }
    const hedge = this.complete ? '' : ' (it may be older than the kept trace)';
    addViolation(row, { code: 'unknown-id', message: `No request with the id ${JSON.stringify(event.id)} was sent${hedge}.` });
  }

  private link(request: HistoryRow, response: HistoryRow): void {
    const latencyMs = Math.max(0, response.ts - request.ts);
    request.pending = undefined;
    request.partner = response;
    request.partnerSeq = response.seq;
    request.latencyMs = latencyMs;
    response.partner = request;
    response.partnerSeq = request.seq;
    response.latencyMs = latencyMs;
    if (response.method === undefined) response.method = request.method;
  }

  /** `notifications/cancelled` marks the request it names (sent earlier by the same side). */
  private notification(event: FrameEvent, touched: HistoryRow[]): void {
    const id = cancelledRequestId(event);
    if (id === undefined) return;
    const key = keyOf(event.dir, id);
    this.cancelled.set(key, event.seq);
    const request = this.open.get(key);
    if (!request) return;
    request.cancelled = true;
    request.pending = undefined;
    touched.push(request);
  }
}
