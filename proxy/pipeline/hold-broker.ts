/**
 * Frames held by `pause` rules (issue 13), for every session of the engine: Loupe's own, tapped
 * and gateway sessions. A hold waits for a person (the Intercept tab, through any face) or its
 * timer, which forwards the frame as it is; a session that ends releases its holds as `gone`.
 */
import type { Direction, HeldFrame, HoldDecision, HoldEnd, RuleRef } from '../../lib/model/rules.ts';

/** How long a held frame waits for a person before it goes on as it was. A constant here, not in lib/model/rules.ts: that module builds the rules' zod schemas, which a Loupe without rules never needs (issue 23). */
export const DEFAULT_HOLD_TIMEOUT_MS = 120_000;

export interface HoldRequest {
  session: string;
  dir: Direction;
  raw: string;
  rule: RuleRef;
  method?: string;
  isRequest: boolean;
}

/** How a hold ended: the decision to carry out (`timeout` and `gone` forward as is). */
export interface HoldOutcome {
  decision: HoldDecision;
  how: HoldEnd;
  heldMs: number;
}

export interface HoldEvents {
  added(frame: HeldFrame): void;
  done(session: string, holdId: string, how: HoldEnd): void;
}

interface Waiting {
  frame: HeldFrame;
  resolve(outcome: HoldOutcome): void;
  timer: ReturnType<typeof setTimeout>;
}

const HOW: Record<HoldDecision['action'], HoldEnd> = { forward: 'forwarded', 'forward-edited': 'edited', drop: 'dropped', respond: 'responded' };

export class HoldBroker {
  private readonly waiting = new Map<string, Waiting>();
  private nextId = 1;
  timeoutMs = DEFAULT_HOLD_TIMEOUT_MS;

  constructor(private readonly events: HoldEvents) {}

  /** Holds a frame until someone decides, or its timer forwards it. */
  hold(request: HoldRequest): Promise<HoldOutcome> {
    const holdId = `h${this.nextId++}`;
    const frame: HeldFrame = { holdId, ...request, since: Date.now(), timeoutMs: this.timeoutMs };
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.finish(holdId, { action: 'forward' }, 'timeout'), this.timeoutMs);
      this.waiting.set(holdId, { frame, resolve, timer });
      this.events.added(frame);
    });
  }

  /** A person's decision. False when the hold is no longer there (another page decided first). */
  decide(holdId: string, decision: HoldDecision): boolean {
    const entry = this.waiting.get(holdId);
    if (!entry) return false;
    // "Respond instead" answers a request only; for anything else it is an edit.
    const fitting: HoldDecision = decision.action === 'respond' && !entry.frame.isRequest ? { action: 'forward-edited', raw: decision.raw } : decision;
    return this.finish(holdId, fitting, HOW[fitting.action]);
  }

  /** Forwards every held frame as it is (of one session, or all). */
  releaseAll(session?: string): number {
    let released = 0;
    for (const [holdId, entry] of [...this.waiting]) {
      if (session === undefined || entry.frame.session === session) released += this.finish(holdId, { action: 'forward' }, 'forwarded') ? 1 : 0;
    }
    return released;
  }

  /** The session ended: its holds go (forwarded to a transport that is closing, i.e. nowhere). */
  dropSession(session: string): void {
    for (const [holdId, entry] of [...this.waiting]) if (entry.frame.session === session) this.finish(holdId, { action: 'forward' }, 'gone');
  }

  list(): HeldFrame[] {
    return [...this.waiting.values()].map((entry) => entry.frame);
  }

  private finish(holdId: string, decision: HoldDecision, how: HoldEnd): boolean {
    const entry = this.waiting.get(holdId);
    if (!entry) return false;
    clearTimeout(entry.timer);
    this.waiting.delete(holdId);
    entry.resolve({ decision, how, heldMs: Date.now() - entry.frame.since });
    this.events.done(entry.frame.session, holdId, how);
    return true;
  }
}
