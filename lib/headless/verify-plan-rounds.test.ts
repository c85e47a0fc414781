/**
 * Verify's plan for a recording of a 2026-07-28 session (issue 12, lib/headless/verify-plan.ts): the rounds
 * of a call that asked for input are one step, compared with the last round's answer; Loupe's own
 * `server/discover` probe is not replayed; the recording is recognised as 2026-07-28 and its
 * client capabilities are read from the per-request `_meta` envelope.
 */
import { describe, expect, it } from 'vitest';
import type { TraceHeader } from '../trace/jsonl.ts';
import type { ImportedTrace } from '../trace/read-trace.ts';
import { planReplay, recordedClientChoice, recordedModern } from './verify.ts';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';

/** A trace from frames written as [dir, message, extra], numbered from seq 1 as a recording is. */
function traceOf(frames: [dir: 'in' | 'out', message: Record<string, unknown>, extra?: Partial<FrameEvent>][]): ImportedTrace {
  const events: TraceEvent[] = frames.map(([dir, message, extra], i) => {
    const raw = JSON.stringify(message);
    const rpc = typeof message.method === 'string' ? ('id' in message ? 'request' : 'notification') : 'response';
    return { session: 's1', seq: i + 1, ts: 1000 + i, kind: 'frame', dir, raw, size: raw.length, rpc, ...(typeof message.method === 'string' ? { method: message.method } : {}), ...extra } as FrameEvent;
  });
  const header = { format: 'mcp-loupe-trace', version: 1, exportedAt: '2026-08-01T00:00:00.000Z', exportedBy: 'test', session: { id: 's1' } } as unknown as TraceHeader;
  return { header, events, problems: [], problemCount: 0 };
}

const TASKS = 'io.modelcontextprotocol/tasks';
const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {}, extensions: { [TASKS]: {} } };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-loupe', version: '0.1.0' },
  'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
};
const req = (id: string | number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });
const ok = (id: string | number, result: unknown) => ({ jsonrpc: '2.0', id, result });
const asked = (key: string, state: string) => ({ resultType: 'input_required', inputRequests: { [key]: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } }, requestState: state });
const CALL = { name: 'confirm-delete', arguments: { path: '/a' } };
const DISCOVER = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };

/** A 2026-07-28 session as Loupe records it: its probe, a list, a call answered in three rounds, an echo. */
const modern = traceOf([
  ['out', { jsonrpc: '2.0', id: 'loupe-discover', method: 'server/discover', params: { _meta: META } }],
  ['in', ok('loupe-discover', DISCOVER)],
  ['out', req('loupe-1', 'tools/list')],
  ['in', ok('loupe-1', { tools: [{ name: 'confirm-delete', inputSchema: { type: 'object' } }], ttlMs: 30000, cacheScope: 'public' })],
  ['out', req('loupe-2', 'tools/call', CALL)],
  ['in', ok('loupe-2', asked('confirm', 'state-1'))],
  ['out', req('loupe-3', 'tools/call', { ...CALL, inputResponses: { confirm: { action: 'accept', content: {} } }, requestState: 'state-1' }), { round: { call: 'loupe-2', n: 2 } }],
  ['in', ok('loupe-3', asked('again', 'state-2'))],
  ['out', req('loupe-4', 'tools/call', { ...CALL, inputResponses: { again: { action: 'accept', content: {} } }, requestState: 'state-2' }), { round: { call: 'loupe-2', n: 3 } }],
  ['in', ok('loupe-4', { resultType: 'complete', content: [{ type: 'text', text: 'Kept /a' }] })],
  ['out', req('loupe-5', 'tools/call', { name: 'echo', arguments: { message: 'hi' } })],
  ['in', ok('loupe-5', { resultType: 'complete', content: [{ type: 'text', text: 'echo: hi' }] })],
]);

describe('planReplay of a 2026-07-28 recording', () => {
  const plan = planReplay(modern);

  it('replays the list, the call once and the echo; the probe and the re-sent requests are not steps', () => {
    expect(plan.initialize).toBeUndefined();
    expect(plan.steps.map((s) => [s.exchange.seq, s.exchange.method])).toEqual([
      [3, 'tools/list'],
      [5, 'tools/call'],
      [11, 'tools/call'],
    ]);
    expect(plan.problems).toEqual([]);
  });

  it('sends the first request of the call as recorded and compares the answer of its last round', () => {
    const call = plan.steps[1];
    expect(call.exchange.id).toBe('loupe-2');
    // The live call runs its own rounds: no recorded inputResponses or requestState are sent again.
    expect(call.params).toEqual({ ...CALL, _meta: META });
    expect(call.compare).toBe(true);
    expect(call.exchange.response).toMatchObject({ seq: 10, ok: true, result: { resultType: 'complete', content: [{ text: 'Kept /a' }] } });
  });

  it('lists the probe and each re-sent request as not replayed, saying why', () => {
    expect(plan.skipped).toEqual([
      { seq: 1, method: 'server/discover', why: "Loupe's protocol probe, which the live session sends again on its own" },
      { seq: 7, method: 'tools/call', why: 'round 2 of the call at seq 5 (input_required): the live call runs its rounds itself, and its final answer is compared' },
      { seq: 9, method: 'tools/call', why: 'round 3 of the call at seq 5 (input_required): the live call runs its rounds itself, and its final answer is compared' },
    ]);
  });

  /** The recording up to seq `last`, as if it had stopped there. */
  const upTo = (last: number) => traceOf(modern.events.filter((e) => e.seq <= last).map((e) => { const f = e as FrameEvent; return [f.dir, JSON.parse(f.raw) as Record<string, unknown>, f.round ? { round: f.round } : {}]; }));

  it('compares nothing for a call whose last round was not answered (the recording stopped)', () => {
    const cut = planReplay(upTo(7));
    const call = cut.steps.find((s) => s.exchange.id === 'loupe-2')!;
    expect(call.compare).toBe(false);
    expect(call.exchange.response).toBeUndefined();
    expect(cut.skipped.map((s) => s.seq)).toEqual([1, 7]);
  });
  it('compares nothing for a call whose last recorded answer still asks for input', () => {
    for (const last of [6, 8]) {
      const call = planReplay(upTo(last)).steps.find((s) => s.exchange.id === 'loupe-2')!;
      expect(call.exchange.response).toMatchObject({ ok: true, result: { resultType: 'input_required' } });
      expect(call.compare).toBe(false);
    }
  });

  it('names no seq for a round whose first request is not in the recording', () => {
    const orphan = planReplay(traceOf([
      ['out', req('loupe-7', 'tools/call', { ...CALL, inputResponses: {}, requestState: 's' }), { round: { call: 'loupe-6', n: 2 } }],
      ['in', ok('loupe-7', { content: [] })],
    ]));
    expect(orphan.steps).toEqual([]);
    expect(orphan.skipped).toEqual([{ seq: 1, method: 'tools/call', why: expect.stringMatching(/^round 2 of the call at seq \? \(input_required\)/) }]);
  });
});

describe('recordedModern', () => {
  it('is true for a recording of a 2026-07-28 session', () => {
    expect(recordedModern(planReplay(modern))).toBe(true);
  });

  it('is false for a 2025 recording, with or without _meta', () => {
    const legacy = traceOf([
      ['out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }],
      ['in', ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } })],
      ['out', { jsonrpc: '2.0', id: 'loupe-1', method: 'tools/call', params: { name: 'echo', _meta: { progressToken: 'loupe-1' } } }],
      ['in', ok('loupe-1', { content: [] })],
    ]);
    expect(recordedModern(planReplay(legacy))).toBe(false);
    // A 2025 session that happened to carry the 2026 envelope by hand is still a 2025 session: it has initialize.
    const handWritten = traceOf([...legacy.events.slice(0, 2).map((e) => [(e as FrameEvent).dir, JSON.parse((e as FrameEvent).raw)] as [FrameEvent['dir'], Record<string, unknown>]), ['out', req('loupe-1', 'tools/list')]]);
    expect(recordedModern(planReplay(handWritten))).toBe(false);
  });

  it('is false for a recording without initialize whose requests name no 2026 version', () => {
    const foreign = traceOf([
      ['out', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } }],
      ['in', ok(1, { tools: [] })],
      ['out', { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
    ]);
    expect(recordedModern(planReplay(foreign))).toBe(false);
  });
});

describe('recordedClientChoice of a 2026-07-28 recording', () => {
  it('reads the capabilities of the _meta envelope, tasks from the extension', () => {
    expect(recordedClientChoice(planReplay(modern))).toEqual({ sampling: true, samplingTools: false, elicitationForm: true, elicitationUrl: false, roots: true, rootsListChanged: false, tasks: true, apps: false });
  });

  it('declares no tasks when the extension is absent', () => {
    const bare = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } };
    const plan = planReplay(traceOf([['out', { jsonrpc: '2.0', id: 'loupe-1', method: 'tools/list', params: { _meta: bare } }]]));
    expect(recordedClientChoice(plan)).toEqual({ sampling: false, samplingTools: false, elicitationForm: false, elicitationUrl: true, roots: false, rootsListChanged: false, tasks: false, apps: false });
  });

  it('has none to read when no replayed request carries the envelope', () => {
    expect(recordedClientChoice(planReplay(traceOf([['out', { jsonrpc: '2.0', id: 'loupe-1', method: 'tools/list' }]])))).toBeUndefined();
  });
});
