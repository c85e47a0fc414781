import { describe, expect, it } from 'vitest';
import { buildToolset, type ModelReply } from '../playground/types.ts';
import { parseModelWord, type EvalModel } from './models.ts';
import { planJobs, runEvals, runOne, type EvalDriver, type RunJob } from './runner.ts';
import type { EvalCase } from './schema.ts';

const echo = { name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } };
const sum = { name: 'get-sum', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } };
const wipe = { name: 'wipe', inputSchema: { type: 'object' } };
const TOOLS = buildToolset([{ name: 'everything', tools: [echo, sum, wipe] }]).tools;

const model = (word: string): EvalModel => {
  const read = parseModelWord(word);
  if (!read.ok) throw new Error(read.error);
  return read.model;
};
const MODEL = model('openai-compatible:http://127.0.0.1:9/v1#scripted');

type Said = { text?: string; calls?: { name: string; args: Record<string, unknown> }[]; cost?: number };

/** A model that says the script's lines in turn, and a server whose tools answer in words; every call counted. */
function scriptedDriver(script: Said[], delayMs = 0) {
  let at = 0;
  let n = 0;
  const seen = { tools: [] as string[], inFlight: 0, most: 0 };
  const driver: EvalDriver = {
    now: () => (at += 10),
    async callModel(_model, request) {
      seen.inFlight++;
      seen.most = Math.max(seen.most, seen.inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      seen.inFlight--;
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      const said = script[Math.min(turn, script.length - 1)];
      const calls = (said.calls ?? []).map((c) => ({ type: 'tool_call' as const, call: { id: `c${++n}`, name: c.name, arguments: c.args, argumentsText: JSON.stringify(c.args) } }));
      const reply: ModelReply = {
        message: { role: 'assistant', parts: [...(said.text ? [{ type: 'text' as const, text: said.text }] : []), ...calls] },
        stopReason: calls.length > 0 ? 'tool_use' : 'end',
        usage: { inputTokens: 100, outputTokens: 20, ...(said.cost !== undefined ? { cost: said.cost } : {}) },
      };
      return { ok: true, reply };
    },
    async callTool(target, args) {
      seen.tools.push(target.tool);
      return { ok: true, result: { content: [{ type: 'text', text: `${target.tool} said ${JSON.stringify(args)}` }], isError: false } };
    },
  };
  return { driver, seen };
}

const CASE: EvalCase = { name: 'sum', prompt: 'add 2 and 3', expect: { tools: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }], forbid: ['wipe'], answerContains: ['5'] } };
const job = (c: EvalCase, repeat = 1): RunJob => ({ case: c, model: MODEL, repeat });

describe('one run, driven by the Playground loop', () => {
  it('a model that calls the expected tool and answers passes, with its tokens, time and transcript', async () => {
    const { driver, seen } = scriptedDriver([{ text: 'Adding.', calls: [{ name: 'get-sum', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]);
    const record = await runOne(job(CASE), TOOLS, driver);
    expect(record.verdict).toEqual({ pass: true, reasons: [] });
    expect(seen.tools).toEqual(['get-sum']);
    expect(record.transcript.turns[0].calls[0]).toMatchObject({ status: 'done', approvedBy: 'every-call' });
    expect(record.usage).toEqual({ inputTokens: 200, outputTokens: 40 });
    expect(record.reportedCost).toBeUndefined();
    expect(record.transcript.status).toBe('done');
    expect(record.transcript.turns).toHaveLength(2);
    expect(record.durationMs).toBeGreaterThan(0);
    expect(record.modelMs).toBeGreaterThan(0);
  });

  it('a forbidden call is refused without running it, the model hears so, and the verdict says it', async () => {
    const { driver, seen } = scriptedDriver([{ calls: [{ name: 'wipe', args: {} }, { name: 'get-sum', args: { a: 2, b: 3 } }] }, { text: '5' }]);
    const record = await runOne(job(CASE), TOOLS, driver);
    expect(seen.tools).toEqual(['get-sum']);
    const wipeStep = record.transcript.turns[0].calls.find((c) => c.call.name === 'wipe')!;
    expect(wipeStep.status).toBe('denied');
    expect(wipeStep.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The call to "wipe" was refused and not made: this eval forbids it. Go on without it.' }] });
    expect(record.verdict).toEqual({ pass: false, reasons: ['forbidden tool "wipe" called (refused, not run)'] });
  });

  it('the cost of every call, when the provider reports it, is added up', async () => {
    const { driver } = scriptedDriver([{ calls: [{ name: 'get-sum', args: { a: 2, b: 3 } }], cost: 0.001 }, { text: '5', cost: 0.0005 }]);
    const record = await runOne(job(CASE), TOOLS, driver);
    expect(record.reportedCost).toBeCloseTo(0.0015);
  });

  it('a model that never stops calling tools is stopped at the case’s step limit', async () => {
    const { driver } = scriptedDriver([{ calls: [{ name: 'echo', args: { message: 'again' } }] }]);
    const record = await runOne(job({ ...CASE, expect: { maxSteps: 3 } }), TOOLS, driver);
    expect(record.transcript.turns).toHaveLength(3);
    expect(record.verdict.reasons).toEqual(['the model did not finish within 3 model calls (the case\'s step limit)']);
  });

  it('a failed model call is an error of the run, in the provider’s words; a throwing driver too', async () => {
    const failing: EvalDriver = { now: () => 0, callModel: async () => ({ ok: false, error: 'HTTP 429: slow down' }), callTool: async () => ({ ok: false, error: 'x' }) };
    const record = await runOne(job(CASE), TOOLS, failing);
    expect(record.verdict).toEqual({ pass: false, reasons: ['the run failed before the model answered: HTTP 429: slow down'], error: 'the run failed before the model answered: HTTP 429: slow down' });
    const throwing: EvalDriver = { ...failing, callModel: () => Promise.reject(new Error('socket hang up')) };
    expect((await runOne(job(CASE), TOOLS, throwing)).verdict.error).toContain('socket hang up');
  });
});

describe('many runs', () => {
  it('plans case × model × repeat and runs two at a time, the records in plan order', async () => {
    const other = model('anthropic:claude-test');
    const jobs = planJobs([CASE, { ...CASE, name: 'sum again' }], [MODEL, other], 3);
    expect(jobs).toHaveLength(12);
    expect(jobs.slice(0, 4).map((j) => [j.case.name, j.model.label, j.repeat])).toEqual([
      ['sum', MODEL.label, 1],
      ['sum', MODEL.label, 2],
      ['sum', MODEL.label, 3],
      ['sum', 'anthropic:claude-test', 1],
    ]);
    const { driver, seen } = scriptedDriver([{ calls: [{ name: 'get-sum', args: { a: 2, b: 3 } }] }, { text: '5' }], 5);
    const done: number[] = [];
    const records = await runEvals(jobs, TOOLS, driver, { onRecord: (_, i) => done.push(i) });
    expect(records.map((r) => `${r.case}|${r.model}|${r.repeat}`)).toEqual(jobs.map((j) => `${j.case.name}|${j.model.label}|${j.repeat}`));
    expect(done.sort((a, b) => a - b)).toEqual(jobs.map((_, i) => i));
    expect(seen.most).toBe(2);
  });

  it('stopped: no run starts, and the running ones end as errors', async () => {
    const { driver } = scriptedDriver([{ calls: [{ name: 'get-sum', args: { a: 2, b: 3 } }] }, { text: '5' }], 5);
    let stop = false;
    const records = await runEvals(planJobs([CASE], [MODEL], 6), TOOLS, driver, { concurrency: 2, onRecord: () => (stop = true), stopped: () => stop });
    expect(records.length).toBeLessThanOrEqual(2);
    expect(records.some((r) => r.verdict.error === 'the run was stopped before it finished')).toBe(true);
  });
});
