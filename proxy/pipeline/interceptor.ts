/**
 * Carries out the rules' decisions for one connection (issue 13): the part both faces of the frame
 * pipeline share (frame-pipeline.ts: text for the tap and the gateway, an SDK Transport decorator
 * for Loupe's own sessions). Asks lib/rules/rules.ts what to do with a frame, records what was done as
 * an `intervention` in the trace, and links it to the frames around it: a frame toward the server
 * is recorded by the transport that writes it, so it is told the intervention's seq first
 * (`expectIntervention`); a frame from the server was recorded before it got here, so the
 * intervention names it (`of`).
 */
import { classifyRaw } from '../../lib/trace/frame-classify.ts';
import { RuleBook } from '../../lib/rules/rules.ts';
import type { Decision, Direction, RuleRef } from '../../lib/model/rules.ts';
import type { InterventionEvent } from '../../lib/wire/events.ts';
import type { PipelineContext } from './context.ts';

/** Where a frame that is not forwarded goes, and what ends the connection. */
export interface InterceptorEnds {
  /** Send `raw` back to the sender of a frame that was going `dir` (a request answered in the server's place). */
  answer(dir: Direction, raw: string): void | Promise<void>;
  close(): void | Promise<void>;
  kill(): void | Promise<void>;
}

/** Forwards a frame on its way: `unchanged` when it is the text that came in. */
export type Onward = (raw: string, unchanged: boolean) => void | Promise<void>;

type Act = InterventionEvent['action'];
type By = InterventionEvent['by'];

/** How far back in the trace the frame a rule acted on is looked for (it was recorded just before). */
const RECENT_EVENTS = 32;

const seconds = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`);

export class Interceptor {
  private book?: RuleBook;
  private version = -1;
  private stopped = false;
  private readonly timers = new Set<{ timer: ReturnType<typeof setTimeout>; resolve(went: boolean): void }>();

  constructor(
    private readonly ctx: PipelineContext,
    private readonly ends: InterceptorEnds,
  ) {}

  /** Some enabled rule may apply: the one check on a frame's fast path (a new rule set rebuilds the book). */
  get active(): boolean {
    const set = this.ctx.rules();
    if (set.version !== this.version) {
      this.version = set.version;
      this.book = new RuleBook(set.rules, { server: this.ctx.server() });
    }
    return this.book!.active && !this.stopped;
  }

  /** The connection ended: delayed frames are not forwarded any more (their waits end at once). */
  stop(): void {
    this.stopped = true;
    for (const entry of this.timers) {
      clearTimeout(entry.timer);
      entry.resolve(false);
    }
    this.timers.clear();
  }

  /**
   * One frame going `dir`. Forwarding is synchronous where no rule delays it, so frame order is
   * kept; a delayed or held frame waits alone while the others go on. Rejects only with what
   * `onward` rejected with (a transport that cannot send), or when the connection closed first.
   */
  async run(dir: Direction, raw: string, onward: Onward): Promise<void> {
    let decision: Decision;
    try {
      decision = this.active ? this.book!.decide(dir, raw) : { kind: 'pass' };
    } catch {
      decision = { kind: 'pass' };
    }
    if (decision.kind === 'pass') return onward(raw, true);
    if (decision.kind === 'hold') return this.hold(dir, raw, decision.rule, onward);
    const rule = decision.rule;
    const said = rule.action === 'deny' ? `Permission gate “${rule.name}” ${decision.what} with an isError result the caller can read.` : `Rule “${rule.name}” ${decision.what}.`;
    switch (decision.kind) {
      case 'delay': {
        // A `slow` frame that may go at once was not held back: nothing to record.
        const seq = decision.ms > 0 ? this.note(dir, 'rule', rule, 'delayed', said, raw) : undefined;
        if (decision.ms > 0 && !(await this.wait(decision.ms))) return this.closedFirst(dir);
        return this.forward(dir, raw, true, onward, seq);
      }
      case 'drop':
        this.note(dir, 'rule', rule, 'dropped', said, raw);
        return;
      case 'rewrite':
        return this.forward(dir, decision.raw, false, onward, this.note(dir, 'rule', rule, 'rewritten', said, raw, decision.raw));
      case 'answer':
        return this.answer(dir, decision.raw, this.note(dir, 'rule', rule, 'answered', said, raw, decision.raw));
      case 'close':
      case 'kill': {
        const seq = this.note(dir, 'rule', rule, decision.kind === 'close' ? 'closed' : 'killed', said, raw);
        await this.forward(dir, raw, true, onward, seq);
        await (decision.kind === 'close' ? this.ends.close() : this.ends.kill());
        return;
      }
    }
  }

  /** A `pause` rule: a person (or the hold's timer) decides; without anyone to ask, the frame goes on. */
  private async hold(dir: Direction, raw: string, rule: RuleRef, onward: Onward): Promise<void> {
    const shape = classifyRaw(raw);
    if (!this.ctx.hold) {
      this.note(dir, 'rule', rule, 'forwarded', `Not held: no Loupe is attached to decide (rule “${rule.name}”); it went on as it was.`, raw);
      return onward(raw, true);
    }
    this.note(dir, 'rule', rule, 'held', `Held by rule “${rule.name}”: it waits for a person to forward, edit, drop or answer it.`, raw);
    const outcome = await this.ctx.hold({ session: this.ctx.session, dir, raw, rule, method: shape.method, isRequest: shape.rpc === 'request' });
    if (outcome.how === 'gone') return this.closedFirst(dir);
    const by: By = outcome.how === 'timeout' ? 'timer' : 'person';
    const extra = { heldMs: outcome.heldMs };
    const decision = outcome.decision;
    switch (decision.action) {
      case 'forward': {
        const said = by === 'timer' ? `Forwarded as it was: nobody decided within ${seconds(outcome.heldMs)}.` : `Forwarded as it was after ${seconds(outcome.heldMs)}.`;
        return this.forward(dir, raw, true, onward, this.note(dir, by, rule, 'forwarded', said, raw, undefined, extra));
      }
      case 'forward-edited':
        return this.forward(dir, decision.raw, false, onward, this.note(dir, by, rule, 'edited', 'Forwarded as a person edited it.', raw, decision.raw, extra));
      case 'drop':
        this.note(dir, by, rule, 'dropped', 'Dropped by a person.', raw, undefined, extra);
        return;
      case 'respond':
        return this.answer(dir, decision.raw, this.note(dir, by, rule, 'answered', 'Answered by a person instead of being forwarded.', raw, decision.raw, extra));
    }
  }

  /** Toward the server, the transport records the frame it writes: it is told which intervention that frame is the result of. */
  private forward(dir: Direction, raw: string, unchanged: boolean, onward: Onward, seq: number | undefined): void | Promise<void> {
    if (dir === 'to-server' && seq !== undefined) this.ctx.trace.expectIntervention(raw, seq);
    return onward(raw, unchanged);
  }

  private answer(dir: Direction, raw: string, seq: number): void | Promise<void> {
    // An answer to the server's own request goes toward the server, and is recorded there.
    if (dir === 'to-client') this.ctx.trace.expectIntervention(raw, seq);
    return this.ends.answer(dir, raw);
  }

  private closedFirst(dir: Direction): void {
    if (dir === 'to-server') throw new Error('The connection closed before this message could be sent.');
  }

  private wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const entry = { timer: setTimeout(() => (this.timers.delete(entry), resolve(true)), ms), resolve };
      this.timers.add(entry);
    });
  }

  private note(dir: Direction, by: By, rule: RuleRef, action: Act, message: string, original: string, result?: string, extra: { heldMs?: number } = {}): number {
    const method = classifyRaw(original).method;
    const of = dir === 'to-client' ? this.recorded(original) : undefined;
    const event = this.ctx.trace.record({
      kind: 'intervention',
      dir: dir === 'to-server' ? 'out' : 'in',
      by,
      rule: { id: rule.id, name: rule.name, action: rule.action },
      action,
      message,
      original,
      ...(result !== undefined ? { result } : {}),
      ...(of !== undefined ? { of } : {}),
      ...(method !== undefined ? { method } : {}),
      ...extra,
    });
    return event.seq;
  }

  /** The seq of the incoming frame with this text, recorded by the transport just before. */
  private recorded(raw: string): number | undefined {
    const recent = this.ctx.trace.tail(RECENT_EVENTS);
    for (let i = recent.length - 1; i >= 0; i--) {
      const event = recent[i];
      if (event.kind === 'frame' && event.dir === 'in' && event.raw === raw) return event.seq;
    }
    return undefined;
  }
}
