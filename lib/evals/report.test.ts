import { describe, expect, it } from 'vitest';
import { parseModelWord, type EvalModel } from './models.ts';
import { aggregate, costOf, evalJunit, formatEvalText } from './report.ts';
import type { RunRecord } from './runner.ts';
import type { EvalCase } from './schema.ts';

const model = (word: string): EvalModel => {
  const read = parseModelWord(word);
  if (!read.ok) throw new Error(read.error);
  return read.model;
};
const A = model('anthropic:claude-test');
const O = model('openai-compatible:http://127.0.0.1:9/v1#local');
const CASES: EvalCase[] = [
  { name: 'echo', prompt: 'say hi', expect: { tools: [{ name: 'echo' }] } },
  { name: 'sum', prompt: 'add', expect: { answerContains: ['5'] } },
];

function record(c: string, m: EvalModel, repeat: number, reasons: string[], extra: Partial<RunRecord> = {}): RunRecord {
  return {
    case: c,
    model: m.label,
    repeat,
    verdict: { pass: reasons.length === 0, reasons },
    usage: { inputTokens: 1000, outputTokens: 100 },
    durationMs: 200 * repeat,
    modelMs: 100,
    transcript: {
      status: 'done',
      messages: [{ role: 'user', text: 'go' }, { role: 'assistant', parts: [{ type: 'text', text: 'The sum is 4.' }] }],
      turns: [{ step: 1, requestedAt: 0, calls: [{ call: { id: 'c1', name: 'echo', arguments: { message: 'hi' }, argumentsText: '{"message":"hi"}' }, status: 'done', result: { callId: 'c1', content: [{ type: 'text', text: 'Echo: hi' }], isError: false } }] }],
    },
    ...extra,
  };
}

const RECORDS = [
  record('echo', A, 1, [], { reportedCost: 0.002 }),
  record('echo', A, 2, [], { reportedCost: 0.001 }),
  record('echo', O, 1, []),
  record('sum', A, 1, ['answer lacks "5"'], { reportedCost: 0.003 }),
  record('sum', A, 2, [], { reportedCost: 0.003 }),
  record('sum', O, 1, ['the run failed before the model answered: HTTP 500'], { verdict: { pass: false, reasons: ['the run failed before the model answered: HTTP 500'], error: 'the run failed before the model answered: HTTP 500' } }),
];

describe('adding up eval runs', () => {
  it('pass rate, tokens, mean time and cost per case × model; the cost says where it comes from', () => {
    const report = aggregate(RECORDS, { cases: CASES, models: [A, O], prices: { local: { input: 1, output: 2 } }, planned: 6 });
    expect(report.passed).toBe(false);
    expect(report.cells.map((c) => [c.case, c.model, `${c.passes}/${c.runs}`, c.errors, c.inputTokens, c.outputTokens, c.meanMs, c.cost])).toEqual([
      ['echo', A.label, '2/2', 0, 2000, 200, 300, { usd: 0.003, sources: ['provider'] }],
      ['echo', O.label, '1/1', 0, 1000, 100, 200, { usd: 0.0012, sources: ['price table'] }],
      ['sum', A.label, '1/2', 0, 2000, 200, 300, { usd: 0.006, sources: ['provider'] }],
      ['sum', O.label, '0/1', 1, 1000, 100, 200, { usd: 0.0012, sources: ['price table'] }],
    ]);
    // The price table is the fallback: a reported cost wins over it.
    expect(costOf(RECORDS[0], A, { 'anthropic:claude-test': { input: 100, output: 100 } })).toEqual({ usd: 0.002, source: 'provider' });
    expect(costOf(RECORDS[2], O, undefined)).toBeUndefined();
    expect(aggregate(RECORDS.slice(0, 3), { cases: CASES.slice(0, 1), models: [A, O], planned: 3 }).passed).toBe(true);
    expect(aggregate(RECORDS.slice(0, 2), { cases: CASES.slice(0, 1), models: [A, O], planned: 3 }).passed).toBe(false);
  });

  it('the text: a table, then each failed run with its reasons and what the model did', () => {
    const text = formatEvalText(aggregate(RECORDS, { cases: CASES, models: [A, O] }));
    expect(text).toContain('Evals: 2 cases × 2 models, 6 runs: 4 passed, 2 failed.');
    expect(text).toMatch(/case\s+model\s+passed\s+tokens in\/out\s+latency\s+cost/);
    expect(text).toMatch(/echo\s+anthropic:claude-test\s+2\/2 \(100%\)\s+2000\/200\s+300 ms\s+\$0\.0030 \(provider\)/);
    expect(text).toMatch(/sum\s+openai-compatible:http:\/\/127\.0\.0\.1:9\/v1#local\s+0\/1 \(0%\)\s+1000\/100\s+200 ms\s+—/);
    expect(text).toContain('FAILED sum × anthropic:claude-test, run 1:\n  - answer lacks "5"\n    call echo {"message":"hi"} → done: Echo: hi\n    answer: The sum is 4.');
    expect(text).toContain('FAILED sum × openai-compatible:http://127.0.0.1:9/v1#local, run 1:\n  - the run failed before the model answered: HTTP 500');
  });

  it('JUnit: a suite per model, a test case per case × repeat; failures and errors apart', () => {
    const xml = evalJunit(aggregate(RECORDS, { cases: CASES, models: [A, O] }));
    expect(xml).toContain('<testsuites tests="6" failures="1" errors="1"');
    expect(xml).toContain('<testsuite name="anthropic:claude-test" tests="4" failures="1" errors="0"');
    expect(xml).toContain('<testsuite name="openai-compatible:http://127.0.0.1:9/v1#local" tests="2" failures="0" errors="1"');
    expect(xml).toContain('<testcase name="sum (run 1)" classname="anthropic:claude-test" time="0.200">');
    expect(xml).toContain('<failure message="answer lacks &quot;5&quot;" type="expectation">');
    expect(xml).toContain('<error message="the run failed before the model answered: HTTP 500" type="error">');
  });
});
