/**
 * What interception did to one `tools/call` of the page (issue 26): held by which rule, and what
 * became of it (forwarded as it was, edited, answered instead, dropped, rewritten by a rule). Read
 * from the trace's intervention rows, which carry the frame as it came (`original`): a row is the
 * call's when it goes to the server with the call's tool and arguments, in the call's time.
 */
import type { HistoryRow } from './trace.ts';
import type { InterventionEvent } from '../wire/events.ts';

export interface CallInterception {
  /** The rule that held the call, when one did. */
  heldBy?: string;
  /** The last thing done to it: `forwarded`, `edited`, `answered`, `dropped`, `rewritten`, `delayed`, … */
  outcome?: InterventionEvent['action'];
  /** The rule that acted, when it was a rule (a rewrite, a refusal) rather than a person. */
  rule?: string;
}

/** How many rows after the call's start to look at (they are recorded close after it). */
export const CALL_LOOKAHEAD = 2_000;

function isCallFrame(original: string, tool: string, args: string): boolean {
  try {
    const message = JSON.parse(original) as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
    return message.method === 'tools/call' && message.params?.name === tool && JSON.stringify(message.params.arguments ?? {}) === args;
  } catch {
    return false;
  }
}

/** The first row at or after `ts` (rows are in time order). */
function firstAtOrAfter(rows: readonly HistoryRow[], ts: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].ts < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The interception story of a call of `tool` with `args` started at `startedAt` (ended at `endedAt`, when it has). */
export function callInterception(rows: readonly HistoryRow[], call: { tool: string; args: unknown; startedAt: number; endedAt?: number }): CallInterception | undefined {
  const args = JSON.stringify(call.args ?? {});
  const from = firstAtOrAfter(rows, call.startedAt - 5);
  const end = Math.min(rows.length, from + CALL_LOOKAHEAD);
  let story: CallInterception | undefined;
  for (let i = from; i < end; i += 1) {
    const event = rows[i].event;
    if (call.endedAt !== undefined && event.ts > call.endedAt + 5) break;
    if (event.kind !== 'intervention' || event.dir !== 'out' || event.method !== 'tools/call') continue;
    if (!isCallFrame(event.original, call.tool, args)) continue;
    story ??= {};
    if (event.action === 'held') story.heldBy = event.rule?.name ?? 'a rule';
    else {
      story.outcome = event.action;
      if (event.by === 'rule' && event.rule) story.rule = event.rule.name;
    }
  }
  return story;
}

const DONE: Partial<Record<InterventionEvent['action'], string>> = {
  forwarded: 'forwarded as it was',
  edited: 'forwarded edited',
  answered: 'answered instead',
  dropped: 'dropped',
  rewritten: 'rewritten',
  delayed: 'delayed',
  closed: 'the connection closed',
  killed: 'the server was stopped',
};

/** The story in words: "Held by rule “Pause echo”, forwarded edited", "Held by rule “X”: waiting in the Intercept tab". */
export function interceptionWords(story: CallInterception, running: boolean): string {
  const what = story.outcome !== undefined ? (DONE[story.outcome] ?? story.outcome) : undefined;
  if (story.heldBy !== undefined) {
    if (what === undefined) return running ? `Held by rule “${story.heldBy}”: waiting in the Intercept tab (Forward, Forward edited, Drop or Respond instead)` : `Held by rule “${story.heldBy}”`;
    return `Held by rule “${story.heldBy}”, ${what}`;
  }
  if (what === undefined) return '';
  return story.rule !== undefined ? `${what[0].toUpperCase()}${what.slice(1)} by rule “${story.rule}”` : `${what[0].toUpperCase()}${what.slice(1)}`;
}
