/**
 * Scoring one run of an eval case (issue 27): the case's expectations against what the model did,
 * as the Playground's loop recorded it (lib/playground/loop.ts). A run passes when nothing is
 * wrong, and every wrong thing is a sentence a person reads without the transcript:
 *
 *   expected tool "get-sum" not called
 *   "get-sum" called with arguments.a = 3, expected 4
 *   forbidden tool "delete" called (refused, not run)
 *   answer lacks "42"
 *
 * What counts as called: every call the model asked for that the loop made (or tried to: the server
 * may fail it). A call the loop refused before making it (no such tool, arguments that are not JSON
 * or fail the tool's schema) satisfies no expectation, and says so; it still counts as forbidden.
 */
import type { CallStep, Turn } from '../playground/loop.ts';
import type { Message } from '../playground/messages.ts';
import { argumentMismatches, readRegex } from './matchers.ts';
import { DEFAULT_MAX_STEPS, type EvalCase, type ExpectedTool } from './schema.ts';

/** What one run left: how the loop ended, the conversation, and each model call with its tool calls. */
export interface RunTranscript {
  status: 'done' | 'stopped' | 'failed';
  /** Why the loop stopped or failed, in its words. */
  reason?: string;
  messages: Message[];
  turns: Turn[];
}

export interface Verdict {
  pass: boolean;
  /** Every reason the run failed, one sentence each; empty when it passed. */
  reasons: string[];
  /** The run could not be judged (the model call failed): a JUnit error, not a failure. */
  error?: string;
}

const q = (s: string) => JSON.stringify(s);

export function callsOfRun(t: RunTranscript): CallStep[] {
  return t.turns.flatMap((turn) => turn.calls);
}

/** The model's final answer: the text of its last message, once the loop is done. */
export function answerOf(t: RunTranscript): string {
  if (t.status !== 'done') return '';
  const last = t.messages.findLast((m) => m.role === 'assistant');
  return last?.role === 'assistant' ? last.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('') : '';
}

/** A call answers to a written name: the name the model used, the tool's own, or `server__tool`. */
export function callIs(name: string, step: CallStep): boolean {
  return step.call.name === name || step.target?.tool === name || (step.target !== undefined && `${step.target.server}__${step.target.tool}` === name);
}

const fits = (expected: ExpectedTool, step: CallStep) => callIs(expected.name, step) && argumentMismatches(expected.arguments, step.call.arguments).length === 0;
const sequence = (names: readonly string[]) => (names.length === 0 ? 'no tool' : names.join(' → '));

/** Each expected call paired with a distinct made call it fits, as many as can be (Kuhn's augmenting paths; the lists are short). */
function pairUp(expected: readonly ExpectedTool[], made: readonly CallStep[]): (number | undefined)[] {
  const owner: (number | undefined)[] = made.map(() => undefined);
  const tryPair = (i: number, seen: Set<number>): boolean => {
    for (let j = 0; j < made.length; j++) {
      if (seen.has(j) || !fits(expected[i], made[j])) continue;
      seen.add(j);
      if (owner[j] === undefined || tryPair(owner[j]!, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  expected.forEach((_, i) => tryPair(i, new Set()));
  return expected.map((_, i) => {
    const j = owner.indexOf(i);
    return j < 0 ? undefined : j;
  });
}

/** Why an expected call found no made call to pair with. */
function missing(expected: ExpectedTool, all: readonly ExpectedTool[], made: readonly CallStep[], calls: readonly CallStep[]): string {
  const named = made.filter((s) => callIs(expected.name, s));
  if (named.length === 0) {
    const refused = calls.find((s) => s.status === 'rejected' && callIs(expected.name, s));
    return refused ? `${q(expected.name)} was called, but the call was not made: ${refused.problem ?? 'the loop refused it'}` : `expected tool ${q(expected.name)} not called`;
  }
  if (named.some((s) => fits(expected, s))) {
    const wanted = all.filter((e) => e.name === expected.name).length;
    return `expected ${wanted} calls of ${q(expected.name)} with matching arguments; the model made ${named.length}`;
  }
  const closest = named.map((s) => argumentMismatches(expected.arguments, s.call.arguments)).sort((a, b) => a.length - b.length)[0];
  return `${q(expected.name)} called with ${closest.join('; ')}`;
}

function toolReasons(c: EvalCase, calls: readonly CallStep[]): string[] {
  const expected = c.expect.tools ?? [];
  // Refused before it was made (rejected), or refused as forbidden (denied): no expectation is met by it.
  const made = calls.filter((s) => s.status !== 'rejected' && s.status !== 'denied');
  const pairs = pairUp(expected, made);
  const reasons = expected.flatMap((e, i) => (pairs[i] === undefined ? [missing(e, expected, made, calls)] : []));
  const order = c.expect.order ?? 'any';
  if (order === 'any' || reasons.length > 0 || expected.length === 0) return reasons;
  const names = made.map((s) => s.call.name);
  if (order === 'exact') {
    const exact = made.length === expected.length && expected.every((e, i) => fits(e, made[i]));
    return exact ? [] : [`expected exactly ${sequence(expected.map((e) => e.name))}, in this order; the model called ${sequence(names)}`];
  }
  // A subsequence: the earliest fitting call for each expected one, in turn (greedy is enough for "in order").
  let at = 0;
  for (const e of expected) {
    while (at < made.length && !fits(e, made[at])) at++;
    if (at >= made.length) return [`expected ${sequence(expected.map((x) => x.name))} in this order; the model called ${sequence(names)}`];
    at++;
  }
  return [];
}

function answerReasons(c: EvalCase, t: RunTranscript): string[] {
  const answer = answerOf(t);
  const none = answer.trim() === '' ? ' (the model gave no answer)' : '';
  const reasons = (c.expect.answerContains ?? []).filter((s) => !answer.toLowerCase().includes(s.toLowerCase())).map((s) => `answer lacks ${q(s)}${none}`);
  if (c.expect.answerMatches !== undefined) {
    const read = readRegex(c.expect.answerMatches);
    if (!read.ok || !read.regex.test(answer)) reasons.push(`answer does not match ${c.expect.answerMatches.startsWith('/') ? c.expect.answerMatches : `/${c.expect.answerMatches}/`}${none}`);
  }
  return reasons;
}

/** The verdict of one run: pass, or every reason it did not. */
export function scoreRun(c: EvalCase, t: RunTranscript): Verdict {
  if (t.status === 'failed') {
    const error = `the run failed before the model answered: ${t.reason ?? 'no reason given'}`;
    return { pass: false, reasons: [error], error };
  }
  const calls = callsOfRun(t);
  const reasons: string[] = [];
  for (const name of c.expect.forbid ?? []) {
    const hits = calls.filter((s) => callIs(name, s)).length;
    if (hits > 0) reasons.push(`forbidden tool ${q(name)} called${hits > 1 ? ` ${hits} times` : ''} (refused, not run)`);
  }
  reasons.push(...toolReasons(c, calls));
  if (t.status === 'stopped') reasons.push(`the model did not finish within ${c.expect.maxSteps ?? DEFAULT_MAX_STEPS} model calls (the case's step limit)`);
  reasons.push(...answerReasons(c, t));
  return { pass: reasons.length === 0, reasons };
}
