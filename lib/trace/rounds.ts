/**
 * The rounds of one logical call (2026-07-28 multi round trip): a `tools/call`, `prompts/get` or
 * `resources/read` answered `resultType: "input_required"` is sent again, with a fresh JSON-RPC
 * id, once the input is in; the proxy marks each re-sent request with `round: {call, n}` (`call`
 * = the first request's id, lib/wire/events.ts). The History shows those frames as one folded
 * group (first request, input_required result, re-sent request, its result, …), each frame still
 * there when the group is opened.
 *
 * Built incrementally beside the trace index (trace-index.ts pairs the frames first): appending a
 * batch costs that batch, and a trace with no rounds (a flood) pays one property check per row.
 * Folding the rows of a view (`foldRounds`) is one pass, run when a filter or a group changes,
 * never per render.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/mrtr
 */
import { frameMessage, frameParamsObject, frameParsed } from './frame-message.ts';
import type { HistoryRow } from './trace.ts';
import type { FrameEvent, RequestId, ServerRequest, TraceEvent } from '../wire/wire.ts';

/** The requests whose result may ask for input (the spec's multi-round-trip methods). */
export const ROUND_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** How a round ended, in the spec's words where it has them. */
export type RoundOutcome = 'input_required' | 'complete' | 'task' | 'error' | 'waiting' | 'cancelled' | 'no answer';

export interface RoundStep {
  /** 1 for the first request, then the `round.n` the proxy gave the re-sent one. */
  n: number;
  request: HistoryRow;
  response?: HistoryRow;
}

export interface RoundGroup {
  /** The first request's seq: the group's key in a view. */
  readonly headSeq: number;
  /** The first request (or the earliest round still in the trace when the first was let go). */
  readonly head: HistoryRow;
  readonly steps: RoundStep[];
}

const idKey = (id: RequestId): string => `${typeof id}\u0000${String(id)}`;

function frameOf(row: HistoryRow): FrameEvent | undefined {
  return row.event.kind === 'frame' ? row.event : undefined;
}

/** `result.resultType` of a response frame ("complete" when absent, as the spec reads it). */
export function resultTypeOf(response: HistoryRow): RoundOutcome {
  if (response.kind === 'error') return 'error';
  const frame = frameOf(response);
  if (!frame) return 'complete';
  // Only a result that can say so is parsed: a flood of other responses costs a substring check.
  // One parsed already (a call's answer, which the page joined to its response) is read instead:
  // the check scans the whole text, ~2 ms of a 5 MB result's render (issue 23).
  if (!frameParsed(frame) && !/input_required|"task"/.test(frame.raw)) return 'complete';
  const message = frameMessage(frame) as { result?: { resultType?: unknown } } | undefined;
  const type = message?.result?.resultType;
  return type === 'input_required' || type === 'task' ? type : 'complete';
}

function stepOutcome(step: RoundStep): RoundOutcome {
  if (step.response) return resultTypeOf(step.response);
  if (step.request.cancelled) return 'cancelled';
  if (step.request.unanswered) return 'no answer';
  return 'waiting';
}

export class RoundIndex {
  /** Groups in the order they appeared. */
  readonly groups: RoundGroup[] = [];
  private readonly byRow = new WeakMap<HistoryRow, RoundGroup>();
  /** Open groups by the first request's id (Loupe's requests: direction out). */
  private readonly byCall = new Map<string, RoundGroup>();

  static from(rows: readonly HistoryRow[]): RoundIndex {
    const index = new RoundIndex();
    index.append(rows);
    return index;
  }

  get size(): number {
    return this.groups.length;
  }

  groupOf(row: HistoryRow): RoundGroup | undefined {
    return this.groups.length === 0 ? undefined : this.byRow.get(row);
  }

  /** Fold new rows in (after the trace index paired them); returns the groups that gained a row. */
  append(rows: readonly HistoryRow[]): RoundGroup[] {
    const changed: RoundGroup[] = [];
    for (const row of rows) {
      const group = row.kind === 'request' ? this.request(row) : row.kind === 'response' || row.kind === 'error' ? this.response(row) : undefined;
      if (group && changed[changed.length - 1] !== group) changed.push(group);
    }
    return changed;
  }

  /** Forget groups whose every row is older than `seq` (the trace let them go). */
  trimBefore(seq: number): void {
    let n = 0;
    while (n < this.groups.length && lastSeq(this.groups[n]) < seq) n += 1;
    for (const group of this.groups.splice(0, n)) {
      const key = this.keyOf(group);
      if (key !== undefined && this.byCall.get(key) === group) this.byCall.delete(key);
    }
  }

  private keyOf(group: RoundGroup): string | undefined {
    const id = group.head.id;
    return id === undefined ? undefined : idKey(id);
  }

  private request(row: HistoryRow): RoundGroup | undefined {
    const frame = frameOf(row);
    if (!frame || frame.dir !== 'out' || frame.id === undefined) return undefined;
    const round = frame.round;
    if (!round) {
      // A new call that reuses an old call's id starts afresh: later rounds belong to it.
      if (this.byCall.size > 0) this.byCall.delete(idKey(frame.id));
      return undefined;
    }
    const key = idKey(round.call);
    let group = this.byCall.get(key);
    if (!group) {
      // The first request is no longer in the trace (or its result was not seen): this round leads.
      group = { headSeq: row.seq, head: row, steps: [] };
      this.groups.push(group);
      this.byCall.set(key, group);
    }
    group.steps.push({ n: round.n, request: row });
    this.byRow.set(row, group);
    return group;
  }

  private response(row: HistoryRow): RoundGroup | undefined {
    const request = row.partner;
    if (!request || request.partner !== row || request.kind !== 'request') return undefined;
    const known = this.groupOf(request);
    if (known) {
      const step = known.steps.find((s) => s.request === request);
      if (step) step.response = row;
      this.byRow.set(row, known);
      return known;
    }
    const frame = frameOf(request);
    if (!frame || frame.dir !== 'out' || frame.id === undefined || !ROUND_METHODS.has(frame.method ?? '') || resultTypeOf(row) !== 'input_required') return undefined;
    const group: RoundGroup = { headSeq: request.seq, head: request, steps: [{ n: 1, request, response: row }] };
    this.groups.push(group);
    this.byCall.set(idKey(frame.id), group);
    this.byRow.set(request, group);
    this.byRow.set(row, group);
    return group;
  }
}

function lastSeq(group: RoundGroup): number {
  const last = group.steps[group.steps.length - 1];
  return last.response?.seq ?? last.request.seq;
}

/** What the first request asked for: the tool or prompt name, or the resource URI. */
export function callTarget(request: Pick<FrameEvent, 'raw'>): string | undefined {
  const params = frameParamsObject(request);
  const target = params?.name ?? params?.uri;
  return typeof target === 'string' ? target : undefined;
}

export interface GroupSummary {
  /** E.g. `tools/call confirm-delete`. */
  title: string;
  rounds: number;
  first: RoundOutcome;
  last: RoundOutcome;
  /** E.g. `3 rounds · input_required → complete`. */
  text: string;
  /** First request to final answer, once there is one. */
  latencyMs?: number;
  isError: boolean;
}

export function describeGroup(group: RoundGroup): GroupSummary {
  const head = frameOf(group.head);
  const target = head ? callTarget(head) : undefined;
  const title = `${group.head.method ?? 'request'}${target === undefined ? '' : ` ${target}`}`;
  const steps = group.steps;
  const first = stepOutcome(steps[0]);
  const lastStep = steps[steps.length - 1];
  const last = stepOutcome(lastStep);
  const count = steps.length;
  const text = `${count} ${count === 1 ? 'round' : 'rounds'} · ${count === 1 && last === first ? first : `${first} → ${last}`}`;
  const end = lastStep.response;
  const isError = end !== undefined && (end.isError === true || end.kind === 'error');
  return { title, rounds: count, first, last, text, latencyMs: end ? Math.max(0, end.ts - group.head.ts) : undefined, isError };
}

/** A member row's place in its group, in words (e.g. `round 2`, `round 1 result: input_required`). */
export function roundNote(group: RoundGroup, row: HistoryRow): string | undefined {
  for (const step of group.steps) {
    if (step.request === row) return `round ${step.n}`;
    if (step.response === row) return `round ${step.n} result: ${resultTypeOf(row)}`;
  }
  return undefined;
}

/** Position of the first row with a seq of at least `seq` (rows in seq order). */
export function lowerBound(rows: readonly HistoryRow[], seq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The rows of a view with each closed group drawn as its first request only. A member is hidden
 * only where its group's first request is among `rows` to stand for it: when a filter (or the
 * trace's cap) leaves the first request out, the members that passed stay visible.
 * `from`: fold only `rows[from…]` (an append, or a change past that point); the rows before it
 * are the caller's.
 */
export function foldRounds(rows: readonly HistoryRow[], rounds: RoundIndex, open: ReadonlySet<number>, from = 0): HistoryRow[] {
  const out: HistoryRow[] = [];
  if (rounds.size === 0) {
    for (let i = from; i < rows.length; i += 1) out.push(rows[i]);
    return out;
  }
  const headShown = new Map<RoundGroup, boolean>();
  for (let i = from; i < rows.length; i += 1) {
    const row = rows[i];
    const group = rounds.groupOf(row);
    if (group && group.head !== row && !open.has(group.headSeq)) {
      let shown = headShown.get(group);
      if (shown === undefined) {
        const at = lowerBound(rows, group.headSeq);
        shown = rows[at] === group.head;
        headShown.set(group, shown);
      }
      if (shown) continue;
    }
    out.push(row);
  }
  return out;
}

/** The first request of a logical call, found in the session's trace by its JSON-RPC id (newest first). */
export function findCallRequest(events: readonly TraceEvent[], call: RequestId): FrameEvent | undefined {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i];
    if (event.kind === 'frame' && event.dir === 'out' && event.rpc === 'request' && event.id === call) return event;
  }
  return undefined;
}

/**
 * Where a pending request embedded in an `input_required` result came from, as one sentence.
 * The proxy's `via.method` may name the call already (`tools/call confirm-delete`); `target`, read
 * from the trace, is added where it does not.
 */
export function viaSentence(via: NonNullable<ServerRequest['via']>, target: string | undefined): string {
  const named = target === undefined || via.method === target || via.method.endsWith(` ${target}`);
  return `Asked inside the result of ${via.method}${named ? '' : ` ${target}`} (round ${via.round}, key ${via.key})`;
}
