import { describe, expect, it } from 'vitest';
import type { CallStatus, CallStep } from '../playground/loop.ts';
import type { EvalCase, Expect } from './schema.ts';
import { answerOf, scoreRun, type RunTranscript } from './score.ts';

type Made = { name: string; args?: Record<string, unknown>; status?: CallStatus; problem?: string; server?: string; tool?: string };

/** A fixed transcript: the calls of one model turn, then the answer (none: the loop did not finish). */
function transcript(calls: Made[], answer?: string, status: RunTranscript['status'] = answer === undefined ? 'stopped' : 'done', reason?: string): RunTranscript {
  const steps: CallStep[] = calls.map((c, i) => ({
    call: { id: `c${i}`, name: c.name, arguments: c.args ?? {}, argumentsText: JSON.stringify(c.args ?? {}) },
    ...(c.status === 'rejected' && c.tool === undefined ? {} : { target: { server: c.server ?? 'everything', tool: c.tool ?? c.name } }),
    status: c.status ?? 'done',
    ...(c.problem ? { problem: c.problem } : {}),
  }));
  const parts = steps.map((s) => ({ type: 'tool_call' as const, call: s.call }));
  return {
    status,
    ...(reason ? { reason } : {}),
    messages: [{ role: 'user', text: 'go' }, { role: 'assistant', parts }, ...(answer !== undefined ? [{ role: 'assistant' as const, parts: [{ type: 'text' as const, text: answer }] }] : [])],
    turns: [{ step: 1, requestedAt: 0, calls: steps }, ...(answer !== undefined ? [{ step: 2, requestedAt: 1, calls: [] }] : [])],
  };
}

const kase = (expect: Expect): EvalCase => ({ name: 'case', prompt: 'go', expect });

describe('scoring a run', () => {
  it('passes when the expected tools were called with fitting arguments and the answer has the words (any case)', () => {
    const c = kase({ tools: [{ name: 'get-sum', arguments: { a: 2, b: { type: 'number' } } }], answerContains: ['FIVE'], answerMatches: '/^the sum/i' });
    expect(scoreRun(c, transcript([{ name: 'get-sum', args: { a: 2, b: 3 } }], 'The sum is five.'))).toEqual({ pass: true, reasons: [] });
  });

  it('says every reason: a tool not called, wrong arguments, a forbidden call, words missing from the answer', () => {
    const c = kase({ tools: [{ name: 'echo' }, { name: 'get-sum', arguments: { a: 4, b: { any: true } } }], forbid: ['wipe'], answerContains: ['42', 'done'], answerMatches: '^Result' });
    const verdict = scoreRun(c, transcript([{ name: 'get-sum', args: { a: 3 } }, { name: 'wipe', status: 'denied' }], 'It is done.'));
    expect(verdict).toEqual({
      pass: false,
      reasons: [
        'forbidden tool "wipe" called (refused, not run)',
        'expected tool "echo" not called',
        '"get-sum" called with arguments.a = 3, expected 4; arguments.b is missing, expected any value',
        'answer lacks "42"',
        'answer does not match /^Result/',
      ],
    });
  });

  it('a call the loop refused before making it meets no expectation, and says why', () => {
    const c = kase({ tools: [{ name: 'echo' }] });
    const refused = transcript([{ name: 'echo', status: 'rejected', tool: 'echo', problem: 'its arguments do not match the tool\'s input schema (message: required)' }], 'ok');
    expect(scoreRun(c, refused).reasons).toEqual(['"echo" was called, but the call was not made: its arguments do not match the tool\'s input schema (message: required)']);
  });

  it('a tool is named by its own name, the model’s name, or server__tool', () => {
    const run = transcript([{ name: 'everything__echo', tool: 'echo' }], 'ok');
    for (const name of ['echo', 'everything__echo']) expect(scoreRun(kase({ tools: [{ name }] }), run).pass).toBe(true);
  });

  it('the same tool expected twice needs two calls', () => {
    const c = kase({ tools: [{ name: 'echo', arguments: { message: { matches: '^a' } } }, { name: 'echo' }] });
    expect(scoreRun(c, transcript([{ name: 'echo', args: { message: 'ab' } }, { name: 'echo', args: { message: 'zz' } }], 'ok')).pass).toBe(true);
    expect(scoreRun(c, transcript([{ name: 'echo', args: { message: 'ab' } }], 'ok')).reasons).toEqual(['expected 2 calls of "echo" with matching arguments; the model made 1']);
  });

  it('order: exact wants just these calls in this order; subsequence these in this order among others; any, any order', () => {
    const tools = [{ name: 'echo' }, { name: 'get-sum' }];
    const swapped = transcript([{ name: 'get-sum' }, { name: 'echo' }], 'ok');
    const between = transcript([{ name: 'echo' }, { name: 'get-env' }, { name: 'get-sum' }], 'ok');
    expect(scoreRun(kase({ tools }), swapped).pass).toBe(true);
    expect(scoreRun(kase({ tools, order: 'exact' }), swapped).reasons).toEqual(['expected exactly echo → get-sum, in this order; the model called get-sum → echo']);
    expect(scoreRun(kase({ tools, order: 'exact' }), between).reasons).toEqual(['expected exactly echo → get-sum, in this order; the model called echo → get-env → get-sum']);
    expect(scoreRun(kase({ tools, order: 'subsequence' }), between).pass).toBe(true);
    expect(scoreRun(kase({ tools, order: 'subsequence' }), swapped).reasons).toEqual(['expected echo → get-sum in this order; the model called get-sum → echo']);
  });

  it('a run stopped at the step limit has no answer, and says both', () => {
    const verdict = scoreRun(kase({ maxSteps: 2, answerContains: ['x'] }), transcript([{ name: 'echo' }]));
    expect(verdict.reasons).toEqual(['the model did not finish within 2 model calls (the case\'s step limit)', 'answer lacks "x" (the model gave no answer)']);
  });

  it('a run whose model call failed is an error, in the provider’s words', () => {
    const verdict = scoreRun(kase({}), transcript([], undefined, 'failed', 'The API refused the key (HTTP 401).'));
    expect(verdict).toEqual({ pass: false, reasons: ['the run failed before the model answered: The API refused the key (HTTP 401).'], error: 'the run failed before the model answered: The API refused the key (HTTP 401).' });
  });

  it('the answer is the last message’s text, once the loop is done', () => {
    expect(answerOf(transcript([], 'last words'))).toBe('last words');
    expect(answerOf(transcript([{ name: 'echo' }]))).toBe('');
  });
});
