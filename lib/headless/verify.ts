/**
 * Verify (issue 10, `--verify FILE`): a recording's client side replayed against a live server,
 * every answer compared with the recorded one. This module is the pure half: which recorded
 * requests are replayed and how (`planReplay`), the comparison with ignore rules for volatile
 * values (`Verification`), and the report (its words are verify-text.ts, which reads this). The replay
 * itself (a live session) is proxy/faces/cli/verify.ts; the plan is verify-plan.ts, the words verify-text.ts.
 *
 * Only responses are compared. Notifications and the server's own requests depend on timing (a
 * log line may come before or after an answer) and on who answered them, so they are not.
 */
import { jsonDifferences, parsePath, matches, type JsonPath, type PathKey } from '../json/json-path.ts';
import { describeFailure, isRpcError } from '../client/outcome-text.ts';
import { stringifySafe } from '../json/safe-json.ts';
import type { Exchange, ReadFrame } from '../trace/exchanges.ts';
import type { LoupeError, RpcError } from '../wire/wire.ts';
import { isRecord, recordedModern, type ReplayPlan, type ReplayStep } from './verify-plan.ts';

export { planReplay, recordedClientChoice, recordedModern, type ReplayPlan, type ReplayStep } from './verify-plan.ts';

/**
 * Built-in ignore rules, printed in every report. Each is a value that differs on every run of the
 * same server doing the same thing. Left out on purpose: `_meta` (a tool's or result's `_meta` can
 * carry real surface, e.g. a UI template; the volatile part of the related-task `_meta` is its
 * `taskId`, covered below) and `$..id` (too many ids are stable data).
 */
export const DEFAULT_IGNORES: readonly { path: string; why: string }[] = [
  { path: '$..timestamp', why: 'a clock reading' },
  { path: '$..createdAt', why: 'a clock reading (tasks have one)' },
  { path: '$..updatedAt', why: 'a clock reading' },
  { path: '$..lastUpdatedAt', why: 'a clock reading (tasks have one)' },
  { path: '$..taskId', why: 'the server makes a new one for each task; later requests get the live id' },
  { path: '$..requestId', why: 'a JSON-RPC id, numbered anew each run' },
  { path: '$..sessionId', why: 'made anew for each connection' },
  { path: '$.serverInfo.version', why: "a new release of the same server is not drift; its answers and the lockfile say what changed" },
];

export interface IgnoreRule {
  path: string;
  builtIn: boolean;
  why?: string;
  compiled: JsonPath;
}

/**
 * The rules for a run: the built-in ones (unless `defaults: false`) and the user's. Bad syntax is
 * one sentence. A rule's `$` is each answer's `result` (its `error` object when it is an error;
 * for the handshake, `{protocolVersion, capabilities, serverInfo, instructions}`).
 */
export function compileIgnores(user: readonly string[], options: { defaults?: boolean } = {}): { ok: true; rules: IgnoreRule[] } | { ok: false; error: string } {
  const rules: IgnoreRule[] = [];
  const add = (path: string, builtIn: boolean, why?: string): string | undefined => {
    const parsed = parsePath(path.trim());
    if (!parsed.ok) return `--ignore: ${parsed.error}`;
    if (!rules.some((r) => r.path === parsed.path.text)) rules.push({ path: parsed.path.text, builtIn, why, compiled: parsed.path });
    return undefined;
  };
  if (options.defaults !== false) for (const rule of DEFAULT_IGNORES) add(rule.path, true, rule.why);
  for (const path of user) {
    const error = add(path, false);
    if (error) return { ok: false, error };
  }
  return { ok: true, rules };
}

// ---------------------------------------------------------------------------------------------
// Comparing

export type LiveOutcome = { ok: true; result: unknown } | { ok: false; error: RpcError | LoupeError };

export interface LiveAnswer {
  outcome: LiveOutcome;
  /** The live response's text as it arrived, when there was one. */
  frame?: string;
}

export interface ContextFrame {
  label: 'before' | 'request' | 'recorded response' | 'live response' | 'after';
  seq?: number;
  dir?: 'in' | 'out';
  text: string;
}

export interface Divergence {
  seq: number;
  method: string;
  params?: unknown;
  kind: 'value' | 'outcome' | 'timeout' | 'failed';
  /** One sentence. */
  message: string;
  path: string;
  /** Both values as short JSON text ("(absent)" where a side has none). */
  recorded: string;
  live: string;
  /** Differing locations in this answer (at most 100 counted). */
  differences: number;
  frames: ContextFrame[];
}

export interface VerifyReport {
  recording: { session: string; exportedAt?: string; exportedBy?: string; requests: number };
  live?: { name?: string; version?: string; protocolVersion?: string };
  ignores: { path: string; builtIn: boolean; why?: string; absorbed: number }[];
  /** Answers compared (the handshake counts as one). */
  compared: number;
  same: number;
  /** All divergences counted; the first `MAX_KEPT` kept in `divergences`. */
  divergenceCount: number;
  divergences: Divergence[];
  notCompared: { seq: number; method: string; why: string }[];
  problems: string[];
  notes: string[];
  /** Set when the replay ended early (the server stopped). */
  stopped?: string;
}

const MAX_KEPT = 200;
/** The shortest absorbed string taken for an id to rename in later requests. */
const MIN_ID_LENGTH = 6;
const MAX_VALUE = 200;
const MAX_FRAME = 600;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** A value as short JSON text for a report line. */
export function shown(value: unknown): string {
  return value === undefined ? '(absent)' : cut(stringifySafe(value) ?? String(value), MAX_VALUE);
}

const isTimeout = (error: RpcError | LoupeError) => (isRpcError(error) && error.code === -32001 && /timed out/i.test(error.message)) || error.code === 'TIMEOUT';

/** The object without its undefined members (a session's snapshot has some; JSON has none). */
function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** Replaces recorded ids (learnt from ignored differences) with their live counterparts. */
function substitute(value: unknown, ids: ReadonlyMap<string, string>, depth = 0): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => substitute(v, ids, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, ids, depth + 1)]));
}

/** One run's comparison: fed each live answer in recorded order, then asked for the report. */
export class Verification {
  private readonly absorbed: number[];
  /** Recorded string → live string, for values an ignore rule absorbed (a task's id, a session id). */
  private readonly ids = new Map<string, string>();
  private readonly divergences: Divergence[] = [];
  private divergenceCount = 0;
  private compared = 0;
  private same = 0;
  private readonly notCompared: VerifyReport['notCompared'] = [];
  private readonly notes: string[] = [];
  private stopped?: string;
  private live?: VerifyReport['live'];

  constructor(
    readonly plan: ReplayPlan,
    readonly rules: readonly IgnoreRule[],
    private readonly timeoutMs?: number,
  ) {
    this.absorbed = rules.map(() => 0);
    for (const s of plan.steps) if (!s.compare) this.notCompared.push({ seq: s.exchange.seq, method: s.exchange.method, why: s.why ?? 'no answer in the recording: replayed, not compared' });
  }

  /** The params to send for a step: recorded ids the live server renamed are sent as the live ones. */
  paramsFor(step: ReplayStep): Record<string, unknown> | undefined {
    return this.ids.size === 0 || step.params === undefined ? step.params : (substitute(step.params, this.ids) as Record<string, unknown>);
  }

  /** The handshake: the recorded initialize result against the live one (serverInfo, capabilities, protocolVersion, instructions). */
  compareInitialize(live: { result: Record<string, unknown>; frame?: string; declared?: unknown }): void {
    const pick = (r: Record<string, unknown>) => defined({ protocolVersion: r.protocolVersion, capabilities: r.capabilities, serverInfo: isRecord(r.serverInfo) ? defined(r.serverInfo) : r.serverInfo, instructions: r.instructions });
    const info = isRecord(live.result.serverInfo) ? live.result.serverInfo : {};
    this.live = { name: typeof info.name === 'string' ? info.name : undefined, version: typeof info.version === 'string' ? info.version : undefined, protocolVersion: typeof live.result.protocolVersion === 'string' ? live.result.protocolVersion : undefined };
    const recorded = this.plan.initialize;
    if (!recorded) {
      this.notes.push(recordedModern(this.plan) ? 'The recording is of a 2026-07-28 session, which has no initialize: there is no handshake to compare.' : 'The recording has no initialize: the handshake is not compared.');
      return;
    }
    const declared = isRecord(recorded.params) ? recorded.params.capabilities : undefined;
    if (live.declared !== undefined && declared !== undefined && jsonDifferences(declared, live.declared, { limit: 1 }).length > 0) {
      this.notes.push(`The recording declared other client capabilities (${shown(declared)}) than this run (${shown(live.declared)}): a server may answer differently.`);
    }
    if (!recorded.response) {
      this.notCompared.push({ seq: recorded.seq, method: 'initialize', why: 'no answer in the recording' });
      return;
    }
    const recordedOutcome = recorded.response.ok && isRecord(recorded.response.result) ? { ok: true as const, result: pick(recorded.response.result) } : recorded.response;
    this.compare(recorded, recordedOutcome, { outcome: { ok: true, result: pick(live.result) }, frame: live.frame });
  }

  /** A compared step's live answer. */
  record(step: ReplayStep, live: LiveAnswer): void {
    const response = step.exchange.response;
    if (!response) return this.replayedOnly(step, live);
    this.compare(step.exchange, response, live);
  }

  /** A step whose recording has no answer: replayed only; what the live server did is said. */
  replayedOnly(step: ReplayStep, live: LiveAnswer | 'waiting'): void {
    const entry = this.notCompared.find((n) => n.seq === step.exchange.seq);
    const what = live === 'waiting' ? 'still waiting at the end, cancelled' : live.outcome.ok ? 'answered' : describeFailure(live.outcome.error);
    if (entry) entry.why = `${step.why ?? 'no answer in the recording: replayed, not compared'} (live: ${what})`;
  }

  /** The replay ended early; `notSent` are the steps it did not send. */
  stop(why: string, notSent: readonly ReplayStep[]): void {
    this.stopped = why;
    for (const s of notSent) {
      const entry = this.notCompared.find((n) => n.seq === s.exchange.seq);
      if (entry) entry.why = 'not replayed: the replay stopped before it';
      else this.notCompared.push({ seq: s.exchange.seq, method: s.exchange.method, why: 'not replayed: the replay stopped before it' });
    }
  }

  private compare(exchange: Exchange, recorded: { ok: true; result: unknown } | { ok: false; error: unknown }, live: LiveAnswer): void {
    this.compared += 1;
    const found = this.difference(recorded, live.outcome);
    if (!found) {
      this.same += 1;
      return;
    }
    this.divergenceCount += 1;
    if (this.divergences.length >= MAX_KEPT) return;
    this.divergences.push({ seq: exchange.seq, method: exchange.method, params: exchange.params, ...found, frames: this.framesAround(exchange, live) });
  }

  private difference(recorded: { ok: true; result: unknown } | { ok: false; error: unknown }, live: LiveOutcome): Omit<Divergence, 'seq' | 'method' | 'params' | 'frames'> | undefined {
    const liveError = live.ok ? undefined : live.error;
    const recordedSide = recorded.ok ? recorded.result : recorded.error;
    if (liveError && !isRpcError(liveError)) {
      const kind = isTimeout(liveError) ? 'timeout' : 'failed';
      const why = `${liveError.message.replace(/\.$/, '')} (${liveError.code})`;
      return { kind, message: kind === 'timeout' ? `No answer within ${this.timeoutMs ?? '?'} ms; the recording has one.` : `Loupe got no answer: ${why}.`, path: '$', recorded: shown(recordedSide), live: `(${liveError.message})`, differences: 1 };
    }
    if (liveError && isTimeout(liveError) && !(!recorded.ok && isRecord(recorded.error) && recorded.error.code === -32001)) {
      return { kind: 'timeout', message: `No answer within ${this.timeoutMs ?? '?'} ms; the recording has one.`, path: '$', recorded: shown(recordedSide), live: '(no answer)', differences: 1 };
    }
    if (recorded.ok !== live.ok) {
      const message = recorded.ok ? 'The recording has a result; the live server answered with an error.' : 'The recording has an error; the live server answered with a result.';
      return { kind: 'outcome', message, path: '$', recorded: shown(recordedSide), live: shown(live.ok ? live.result : live.error), differences: 1 };
    }
    const diffs = jsonDifferences(recordedSide, live.ok ? live.result : live.error, {
      ignored: (keys) => this.ruleFor(keys),
      onIgnored: (_keys, old, now, rule) => {
        this.absorbed[rule] += 1;
        // Short strings are too likely to be ordinary data elsewhere in a later request.
        if (typeof old === 'string' && typeof now === 'string' && old.length >= MIN_ID_LENGTH) this.ids.set(old, now);
      },
      limit: 100,
    });
    if (diffs.length === 0) return undefined;
    const first = diffs[0];
    const where = recorded.ok ? 'result' : 'error';
    return { kind: 'value', message: `The live ${where} differs at ${first.path}${diffs.length > 1 ? ` (and ${diffs.length >= 100 ? '99+' : diffs.length - 1} more places)` : ''}.`, path: first.path, recorded: shown(first.old), live: shown(first.new), differences: diffs.length };
  }

  private ruleFor(keys: readonly PathKey[]): number {
    return this.rules.findIndex((r) => matches(r.compiled, keys));
  }

  private framesAround(exchange: Exchange, live: LiveAnswer): ContextFrame[] {
    const frames = this.plan.frames;
    const at = (seq: number) => frames.findIndex((f) => f.seq === seq);
    const of = (label: ContextFrame['label'], f: ReadFrame | undefined): ContextFrame[] => (f ? [{ label, seq: f.seq, dir: f.dir, text: cut(f.raw, MAX_FRAME) }] : []);
    const request = at(exchange.seq);
    const response = exchange.response ? at(exchange.response.seq) : -1;
    const liveText = live.frame ?? (live.outcome.ok ? stringifySafe({ result: live.outcome.result }) : `(no frame: ${describeFailure(live.outcome.error)})`) ?? '';
    return [
      ...of('before', request > 0 ? frames[request - 1] : undefined),
      ...of('request', frames[request]),
      ...of('recorded response', frames[response]),
      { label: 'live response', dir: 'in', text: cut(liveText, MAX_FRAME) },
      ...of('after', frames[Math.max(request, response) + 1]),
    ];
  }

  report(): VerifyReport {
    const header = this.plan.header;
    return {
      recording: { session: header.session.id, exportedAt: header.exportedAt, exportedBy: header.exportedBy, requests: this.plan.steps.length + (this.plan.initialize ? 1 : 0) },
      live: this.live,
      ignores: this.rules.map((r, i) => ({ path: r.path, builtIn: r.builtIn, why: r.why, absorbed: this.absorbed[i] })),
      compared: this.compared,
      same: this.same,
      divergenceCount: this.divergenceCount,
      divergences: this.divergences,
      notCompared: [...this.plan.skipped.map((s) => ({ ...s, why: `not replayed: ${s.why}` })), ...this.notCompared].sort((a, b) => a.seq - b.seq),
      problems: this.plan.problems,
      notes: this.notes,
      ...(this.stopped ? { stopped: this.stopped } : {}),
    };
  }
}
