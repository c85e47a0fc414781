import { describe, expect, it } from 'vitest';
import type { TraceHeader } from '../trace/jsonl.ts';
import type { ImportedTrace } from '../trace/read-trace.ts';
import { compileIgnores, DEFAULT_IGNORES, planReplay, recordedClientChoice, Verification, type LiveAnswer, type ReplayPlan } from './verify.ts';
import { formatVerifyText, verifyExitCode } from './verify-text.ts';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';

/** A trace from frames written as [dir, message-or-text, extra]. */
function traceOf(frames: [dir: 'in' | 'out', message: Record<string, unknown> | string, extra?: Partial<FrameEvent>][], more: Partial<ImportedTrace> = {}): ImportedTrace {
  const events: TraceEvent[] = frames.map(([dir, message, extra], i) => {
    const raw = typeof message === 'string' ? message : JSON.stringify(message);
    const m = typeof message === 'string' ? {} : message;
    return { session: 's1', seq: i + 1, ts: 1000 + i, kind: 'frame', dir, raw, size: raw.length, rpc: 'request', ...(typeof m.method === 'string' ? { method: m.method } : {}), ...extra } as FrameEvent;
  });
  const header = { format: 'mcp-loupe-trace', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', exportedBy: 'test', session: { id: 's1' } } as unknown as TraceHeader;
  return { header, events, problems: [], problemCount: 0, ...more };
}

const req = (id: string | number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const ok = (id: string | number, result: unknown) => ({ jsonrpc: '2.0', id, result });
const err = (id: string | number, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

const INIT_RESULT = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1.0.0' } };

function rules(user: string[] = []) {
  const compiled = compileIgnores(user);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.rules;
}

const live = (result: unknown, frame?: string): LiveAnswer => ({ outcome: { ok: true, result }, frame });

describe('planReplay', () => {
  const trace = traceOf(
    [
      ['out', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true }, sampling: {} } })],
      ['in', ok(0, INIT_RESULT)],
      ['out', { jsonrpc: '2.0', method: 'notifications/initialized' }],
      ['out', req('loupe-1', 'tools/list')],
      ['in', ok('loupe-1', { tools: [] })],
      ['out', req('loupe-2', 'tools/call', { name: 'echo', arguments: { m: 1 }, _meta: { progressToken: 'loupe-2' } })],
      ['in', ok('loupe-2', { content: [] })],
      ['out', req(1, 'ping')],
      ['in', ok(1, {})],
      ['out', req('mine', 'tools/call', { name: 'x', _meta: { progressToken: 7, other: true } }), { origin: 'composer' }],
      ['in', ok('mine', {})],
      ['in', ok(99, {})],
      ['in', 'not json at all'],
      ['out', req('loupe-3', 'tools/call', { name: 'slow' })],
    ],
    { problems: [{ line: 4, error: 'not JSON' }], problemCount: 23, truncatedLine: 30 },
  );
  const plan = planReplay(trace);

  it('keeps the handshake apart and replays the user\'s requests only', () => {
    expect(plan.initialize?.seq).toBe(1);
    expect(plan.steps.map((s) => s.exchange.seq)).toEqual([4, 6, 10, 14]);
    expect(plan.skipped).toEqual([{ seq: 8, method: 'ping', why: expect.stringContaining('SDK by itself') }]);
  });

  it('strips the per-run progress token and remembers that progress was asked for', () => {
    const [list, call, composer, pending] = plan.steps;
    expect(list).toMatchObject({ params: undefined, progress: false, compare: true });
    expect(call).toMatchObject({ params: { name: 'echo', arguments: { m: 1 } }, progress: true });
    expect(call.params).not.toHaveProperty('_meta');
    expect(composer.params).toEqual({ name: 'x', _meta: { other: true } });
    expect(pending.compare).toBe(false);
  });

  it('says what it could not read or pair', () => {
    expect(plan.problems).toEqual([
      expect.stringContaining('line 30: cut short'),
      'line 4: not JSON (skipped)',
      '22 more unreadable lines (skipped)',
      'seq 13: the frame is not a JSON object (skipped)',
      'seq 12: a response with id 99 answers no recorded request (not compared)',
    ]);
  });

  it('replays every request but initialize of a recording another client made', () => {
    const foreign = planReplay(traceOf([['out', req(0, 'initialize', {})], ['in', ok(0, INIT_RESULT)], ['out', req(1, 'ping')], ['in', ok(1, {})], ['out', req(2, 'tools/call', [1, 2])]]));
    expect(foreign.steps.map((s) => s.exchange.method)).toEqual(['ping']);
    expect(foreign.skipped).toEqual([{ seq: 5, method: 'tools/call', why: expect.stringContaining('params are not an object') }]);
  });

  it('reads the client capabilities the recording declared', () => {
    expect(recordedClientChoice(plan)).toEqual({ sampling: true, samplingTools: false, elicitationForm: false, elicitationUrl: false, roots: true, rootsListChanged: true, tasks: false, apps: false });
    const bare = planReplay(traceOf([['out', req(0, 'initialize', { capabilities: { elicitation: {}, tasks: {} } })]]));
    expect(recordedClientChoice(bare)).toMatchObject({ elicitationForm: true, elicitationUrl: false, tasks: true, roots: false });
  });
});

describe('compileIgnores', () => {
  it('puts the built-in rules first and adds the user\'s once', () => {
    const list = rules(['$..etag', '$..timestamp']);
    expect(list.map((r) => r.path)).toEqual([...DEFAULT_IGNORES.map((d) => d.path), '$..etag']);
    expect(list.at(-1)?.builtIn).toBe(false);
  });

  it('can leave the built-in rules out', () => {
    const compiled = compileIgnores(['$.a'], { defaults: false });
    expect(compiled.ok && compiled.rules.map((r) => r.path)).toEqual(['$.a']);
  });

  it('refuses a bad rule in one sentence naming the option', () => {
    const compiled = compileIgnores(['$.ok', 'timestamp']);
    expect(compiled).toEqual({ ok: false, error: expect.stringMatching(/^--ignore: The path "timestamp" is not valid/) });
  });
});

function simplePlan(): ReplayPlan {
  return planReplay(
    traceOf([
      ['out', req(0, 'initialize', { capabilities: { roots: {} } })],
      ['in', ok(0, INIT_RESULT)],
      ['out', req('loupe-1', 'tools/call', { name: 'clock' })],
      ['in', ok('loupe-1', { content: [{ type: 'text', text: 'tick' }], structuredContent: { timestamp: '2026-01-01', n: 1 } })],
      ['in', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }],
      ['out', req('loupe-2', 'tools/call', { name: 'echo', arguments: { message: 'hi' } })],
      ['in', ok('loupe-2', { content: [{ type: 'text', text: 'echo: hi' }, { type: 'text', text: 'second' }] })],
      ['out', req('loupe-3', 'tools/list')],
      ['in', err('loupe-3', -32601, 'Method not found')],
      ['out', req('loupe-4', 'tools/call', { name: 'never' })],
    ]),
  );
}

describe('Verification', () => {
  it('finds no drift when only volatile fields differ, and counts what each rule absorbed', () => {
    const plan = simplePlan();
    const run = new Verification(plan, rules(), 1000);
    run.compareInitialize({ result: { ...INIT_RESULT, serverInfo: { name: 'srv', version: '2.0.0' } }, declared: { roots: {} } });
    const [clock, echo, list, never] = plan.steps;
    run.record(clock, live({ structuredContent: { n: 1, timestamp: '2027-05-05' }, content: [{ text: 'tick', type: 'text' }] }));
    run.record(echo, live({ content: [{ type: 'text', text: 'echo: hi' }, { type: 'text', text: 'second' }] }));
    run.record(list, { outcome: { ok: false, error: { code: -32601, message: 'Method not found' } } });
    run.replayedOnly(never, 'waiting');
    const report = run.report();
    expect(report).toMatchObject({ compared: 4, same: 4, divergenceCount: 0, divergences: [], notes: [] });
    expect(report.ignores.find((i) => i.path === '$..timestamp')?.absorbed).toBe(1);
    expect(report.ignores.find((i) => i.path === '$.serverInfo.version')?.absorbed).toBe(1);
    expect(report.notCompared).toEqual([{ seq: 10, method: 'tools/call', why: expect.stringContaining('still waiting at the end, cancelled') }]);
    expect(report.live).toEqual({ name: 'srv', version: '2.0.0', protocolVersion: '2025-11-25' });
    expect(verifyExitCode(report)).toBe(0);
    const text = formatVerifyText(report);
    expect(text).toContain('Ignored, built in: $..timestamp (1 absorbed)');
    expect(text).toContain('Result: no drift: 4 of 4 answers are the same (exit 0).');
  });

  it('reports the first divergence with its path, both values and the frames around it', () => {
    const plan = simplePlan();
    const run = new Verification(plan, rules(), 1000);
    run.compareInitialize({ result: INIT_RESULT });
    const [clock, echo, list] = plan.steps;
    run.record(clock, live({ content: [{ type: 'text', text: 'tock' }], structuredContent: { timestamp: 'x', n: 1 } }));
    run.record(echo, live({ content: [{ type: 'text', text: 'ECHO: HI' }] }, '{"jsonrpc":"2.0","id":"loupe-9","result":{"content":[]}}'));
    run.record(list, live({ tools: [] }));
    const report = run.report();
    expect(report.divergenceCount).toBe(3);
    const [first, second, third] = report.divergences;
    expect(first).toMatchObject({ seq: 3, method: 'tools/call', params: { name: 'clock' }, kind: 'value', path: '$.content[0].text', recorded: '"tick"', live: '"tock"', differences: 1 });
    expect(first.frames.map((f) => [f.label, f.seq])).toEqual([
      ['before', 2],
      ['request', 3],
      ['recorded response', 4],
      ['live response', undefined],
      ['after', 5],
    ]);
    expect(first.frames[3].text).toBe('{"result":{"content":[{"type":"text","text":"tock"}],"structuredContent":{"timestamp":"x","n":1}}}');
    expect(second).toMatchObject({ path: '$.content[0].text', recorded: '"echo: hi"', live: '"ECHO: HI"', differences: 2, message: expect.stringContaining('and 1 more places') });
    expect(second.frames.find((f) => f.label === 'live response')?.text).toContain('loupe-9');
    expect(third).toMatchObject({ kind: 'outcome', message: 'The recording has an error; the live server answered with a result.' });
    expect(verifyExitCode(report)).toBe(1);

    const text = formatVerifyText(report);
    expect(text).toContain('First divergence: seq 3 tools/call {"name":"clock"}');
    expect(text).toContain('    recorded: "tick"\n    live:     "tock"');
    expect(text).toMatch(/recorded response +seq 4 in +\{"jsonrpc"/);
    expect(text).toContain('Other divergences (2):\n  seq 6 tools/call at $.content[0].text: "echo: hi" → "ECHO: HI"');
    expect(text).toContain('Result: drift: 3 of 4 answers differ (exit 1).');
  });

  it('names a timeout and a failure as such', () => {
    const plan = simplePlan();
    const run = new Verification(plan, rules(), 1500);
    const [clock, echo] = plan.steps;
    run.record(clock, { outcome: { ok: false, error: { code: -32001, message: 'Request timed out: no answer within 1500 ms' } } });
    run.record(echo, { outcome: { ok: false, error: { code: 'EXITED', message: 'The server exited with code 3' } } });
    run.stop('the server stopped during the replay.', plan.steps.slice(2));
    const report = run.report();
    expect(report.divergences.map((d) => [d.kind, d.message])).toEqual([
      ['timeout', 'No answer within 1500 ms; the recording has one.'],
      ['failed', 'Loupe got no answer: The server exited with code 3 (EXITED).'],
    ]);
    expect(report.notCompared.map((n) => [n.seq, n.why])).toEqual([
      [8, 'not replayed: the replay stopped before it'],
      [10, 'not replayed: the replay stopped before it'],
    ]);
    expect(formatVerifyText(report)).toContain('Stopped: the server stopped during the replay.');
    expect(verifyExitCode(report)).toBe(1);
  });

  it('sends later requests with the live ids of what an ignore rule absorbed', () => {
    const plan = planReplay(
      traceOf([
        ['out', req('loupe-1', 'tools/call', { name: 'research', task: { ttl: 1000 } })],
        ['in', ok('loupe-1', { task: { taskId: 'rec-task-1', status: 'working', createdAt: 'then' } })],
        ['out', req('loupe-2', 'tasks/get', { taskId: 'rec-task-1' })],
        ['in', ok('loupe-2', { taskId: 'rec-task-1', status: 'completed' })],
      ]),
    );
    const run = new Verification(plan, rules());
    expect(run.paramsFor(plan.steps[1])).toEqual({ taskId: 'rec-task-1' });
    run.record(plan.steps[0], live({ task: { taskId: 'live-task-7', status: 'working', createdAt: 'now' } }));
    expect(run.paramsFor(plan.steps[1])).toEqual({ taskId: 'live-task-7' });
    expect(run.report().divergenceCount).toBe(0);
  });

  it('does not take a short absorbed string for an id (it may be ordinary data elsewhere)', () => {
    const plan = planReplay(
      traceOf([
        ['out', req('loupe-1', 'tools/call', { name: 'a' })],
        ['in', ok('loupe-1', { sessionId: 'abc' })],
        ['out', req('loupe-2', 'tools/call', { name: 'b', arguments: { text: 'abc' } })],
      ]),
    );
    const run = new Verification(plan, rules());
    run.record(plan.steps[0], live({ sessionId: 'xyz' }));
    expect(run.paramsFor(plan.steps[1])).toEqual({ name: 'b', arguments: { text: 'abc' } });
  });

  it('compares the handshake and notes other client capabilities', () => {
    const plan = simplePlan();
    const run = new Verification(plan, rules());
    run.compareInitialize({ result: { ...INIT_RESULT, serverInfo: { name: 'other', version: '1.0.0' }, instructions: 'new' }, declared: { sampling: {} } });
    const report = run.report();
    expect(report.divergences[0]).toMatchObject({ seq: 1, method: 'initialize', path: '$.serverInfo.name', recorded: '"srv"', live: '"other"', differences: 2 });
    expect(report.notes).toEqual([expect.stringContaining('declared other client capabilities ({"roots":{}}) than this run ({"sampling":{}})')]);
  });

  it('treats a recording with nothing answered as a failure, not a pass', () => {
    const plan = planReplay(traceOf([]));
    const run = new Verification(plan, rules());
    run.compareInitialize({ result: INIT_RESULT });
    const report = run.report();
    expect(report.notes).toEqual([expect.stringContaining('no initialize')]);
    expect(verifyExitCode(report)).toBe(1);
    expect(formatVerifyText(report)).toContain('Result: nothing was compared');
  });

  it('truncates long values and frames', () => {
    const long = 'x'.repeat(5000);
    const plan = planReplay(traceOf([['out', req('loupe-1', 'tools/call', { name: 'big' })], ['in', ok('loupe-1', { text: long })]]));
    const run = new Verification(plan, rules());
    run.record(plan.steps[0], live({ text: `${long}y` }));
    const [d] = run.report().divergences;
    expect(d.recorded).toMatch(/^"x{199}… \(5002 chars\)$/);
    expect(d.frames.find((f) => f.label === 'recorded response')!.text.length).toBeLessThan(700);
  });
});
