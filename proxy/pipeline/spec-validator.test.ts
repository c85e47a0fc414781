/**
 * The spec validator against a real session with e2e/fixtures/doctor-wire.mjs (a server that
 * breaks the spec on the wire), and its bounds with a recorder fed by hand.
 */
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FrameEvent, SpecEvent, TraceEvent, TransportEvent } from '../../lib/wire/wire.ts';
import { Engine } from '../engine/engine.ts';
import { attachSpecValidator, specValidationSettled } from './spec-validator.ts';
import { recordFrame } from './frame-record.ts';
import { TraceRecorder, type TraceEventInput } from './trace-recorder.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCTOR_WIRE = { kind: 'stdio' as const, command: process.execPath, args: [join(ROOT, 'e2e/fixtures/doctor-wire.mjs')], env: {} };

const specs = (events: readonly TraceEvent[]) => events.filter((e): e is SpecEvent => e.kind === 'spec');
const frames = (events: readonly TraceEvent[]) => events.filter((e): e is FrameEvent => e.kind === 'frame');
const notes = (events: readonly TraceEvent[]) => events.filter((e): e is TransportEvent => e.kind === 'transport').map((e) => e.message);

function frameInput(dir: FrameEvent['dir'], message: unknown, rpc: FrameEvent['rpc']): TraceEventInput {
  const raw = JSON.stringify(message);
  const m = message as { id?: string | number; method?: string };
  return { kind: 'frame', dir, raw, size: raw.length, rpc, id: m.id, method: m.method };
}
const badNote = (n: number) => frameInput('in', { jsonrpc: '1.0', method: 'notifications/message', params: { level: 'info', data: `note ${n}` } }, 'invalid');

const stops: (() => void)[] = [];
let engine: Engine | undefined;
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await engine?.shutdown();
  engine = undefined;
});

describe('attachSpecValidator on a real session', () => {
  it('finds every problem doctor-wire plants on the wire, on the frame it is in, and nothing on valid frames', async () => {
    engine = new Engine();
    const session = engine.createSession(DOCTOR_WIRE, { name: 'doctor-wire' });
    stops.push(attachSpecValidator(session.trace, () => session.snapshot().era, () => session.snapshot().protocolVersion));
    await engine.start(session);
    expect(session.status).toBe('connected');
    for (const [method, params] of [['ping', {}], ['tools/list', {}], ['tools/call', { name: 'video', arguments: {} }], ['tools/call', { name: 'no-schema', arguments: {} }], ['prompts/list', {}]] as const) {
      expect((await session.request(`t-${method}-${JSON.stringify(params)}`, method, params)).ok).toBe(true);
    }
    // The two planted after notifications/initialized have arrived once the session has seen both.
    await expect.poll(() => frames(session.trace.all()).filter((f) => f.method === 'notifications/message').length).toBe(2);
    await specValidationSettled(session.trace);

    const events = session.trace.all();
    const found = new Map(specs(events).map((s) => [s.of, s]));
    const frameOf = (test: (f: FrameEvent) => boolean) => frames(events).find(test) as FrameEvent;
    const planted = [
      [frameOf((f) => f.raw.includes('"jsonrpc":"1.0"')), 'JSONRPCNotification', ['jsonrpc: expected "2.0", got "1.0"']],
      [frameOf((f) => f.id === 'note-with-id' && f.dir === 'in'), 'JSONRPCNotification', ['id: notifications/message is a notification, so it must not carry an id']],
      [frameOf((f) => f.raw.includes('"result":{},"error"')), 'JSONRPCResponse', ['(frame): has both "result" and "error"; a response carries exactly one of them']],
      [frameOf((f) => f.dir === 'in' && f.raw.includes('"no-schema"')), 'ListToolsResult', ['result.tools[1].inputSchema: required']],
      [frameOf((f) => f.dir === 'in' && f.raw.includes('"type":"video"')), 'CallToolResult', ['result.content[0].type: "video" is not one of "text", "image", "audio", "resource_link", "resource"']],
    ] as const;
    for (const [frame, schema, issues] of planted) expect(found.get(frame.seq)).toMatchObject({ version: '2025-11-25', schema, issues });
    // Nothing else: initialize, the valid answers (prompts/list served undeclared is the lint's matter), Loupe's own frames.
    expect(found.size).toBe(planted.length);
    // Each comes after its frame, and the page can read it (it is a trace event like any other).
    for (const spec of found.values()) expect(spec.seq).toBeGreaterThan(spec.of);
  });
});

describe('attachSpecValidator: off the hot path, bounded', () => {
  it('checks after record() has returned, and yields to the loop between batches', async () => {
    const trace = new TraceRecorder('s1');
    stops.push(attachSpecValidator(trace, () => 'legacy', () => '2025-11-25', { budgetMs: 0, share: 0 }));
    let turns = 0;
    const tick = () => {
      turns += 1;
      if (turns < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    for (let n = 0; n < 5; n++) trace.record(badNote(n));
    expect(specs(trace.all())).toEqual([]);
    const before = turns;
    await specValidationSettled(trace);
    expect(specs(trace.all()).map((s) => s.of)).toEqual([1, 2, 3, 4, 5]);
    // A budget of 0 checks one frame per turn: other callbacks ran between the checks.
    expect(turns - before).toBeGreaterThanOrEqual(4);
    turns = 1000;
  });

  it('drops what comes faster than it can check beyond its cap, and frames too large to check, and says so', async () => {
    const trace = new TraceRecorder('s1');
    stops.push(attachSpecValidator(trace, () => 'legacy', () => undefined, { maxQueue: 100, maxFrameBytes: 200 }));
    for (let n = 0; n < 1000; n++) trace.record(badNote(n));
    trace.record(frameInput('in', { jsonrpc: '1.0', method: 'notifications/message', params: { data: 'x'.repeat(300) } }, 'invalid'));
    await specValidationSettled(trace);
    expect(specs(trace.all())).toHaveLength(100);
    expect(notes(trace.all())).toEqual(['Spec validation skipped 900 frames that came faster than Loupe could check them and 1 frame over 200 B; they were relayed unchecked.']);
    // The counts start over: a later frame is checked again.
    trace.record(badNote(1001));
    await specValidationSettled(trace);
    expect(specs(trace.all())).toHaveLength(101);
  });

  it('checks a long frame against the message it was parsed into when recorded, but never through a mask', async () => {
    const trace = new TraceRecorder('s1');
    stops.push(attachSpecValidator(trace, () => 'legacy', () => undefined));
    const long = JSON.stringify({ jsonrpc: '1.0', method: 'notifications/message', params: { level: 'info', data: 'y'.repeat(100_000) } });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      recordFrame(trace, 'in', long);
      await specValidationSettled(trace);
      // Parsed once, when recorded: the check reused that message.
      expect(parse.mock.calls.filter(([text]) => text === long)).toHaveLength(1);
      expect(specs(trace.all())).toHaveLength(1);
      // A frame in which a secret was masked is checked from its masked text, parsed again.
      trace.secretValues = ['yyyyyyyyyyyyyyyyyyyy'];
      recordFrame(trace, 'in', long);
      await specValidationSettled(trace);
      expect(parse.mock.calls.filter(([text]) => text === long)).toHaveLength(2);
      expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > 1000 && text !== long && !text.includes('yyyyyyyyyyyyyyyyyyyy'))).not.toHaveLength(0);
      expect(specs(trace.all())).toHaveLength(2);
    } finally {
      parse.mockRestore();
    }
  });

  it('records at most so many spec events a second, and says how many more it found', async () => {
    const trace = new TraceRecorder('s1');
    stops.push(attachSpecValidator(trace, () => 'legacy', () => undefined, { specPerSecond: 10 }));
    const started = performance.now();
    for (let n = 0; n < 50; n++) trace.record(badNote(n));
    await specValidationSettled(trace);
    // A burst of 10, and 10 more for each second the checks took (a loaded machine takes longer).
    const refilled = Math.ceil(((performance.now() - started) / 1000) * 10);
    const marked = specs(trace.all()).length;
    expect(marked).toBeGreaterThanOrEqual(10);
    expect(marked).toBeLessThanOrEqual(10 + refilled);
    expect(marked).toBeLessThan(50);
    expect(notes(trace.all())).toEqual([`Spec validation marks at most 10 frames a second in the History; ${50 - marked} more broke the schema and are not marked.`]);
  });

  it('pairs a response with its request by id and direction, and stops when detached', async () => {
    const trace = new TraceRecorder('s1');
    const stop = attachSpecValidator(trace, () => 'legacy', () => '2025-06-18');
    trace.record(frameInput('out', { jsonrpc: '2.0', id: 7, method: 'tools/list' }, 'request'));
    // A server request with the same id does not take the pairing over (ids are per direction).
    trace.record(frameInput('in', { jsonrpc: '2.0', id: 7, method: 'roots/list' }, 'request'));
    trace.record(frameInput('in', { jsonrpc: '2.0', id: 7, result: { tools: [{ name: 'bare' }] } }, 'response'));
    await specValidationSettled(trace);
    expect(specs(trace.all()).map(({ of, version, schema, issues }) => ({ of, version, schema, issues }))).toEqual([{ of: 3, version: '2025-06-18', schema: 'ListToolsResult', issues: ['result.tools[0].inputSchema: required'] }]);
    stop();
    trace.record(badNote(1));
    await specValidationSettled(trace);
    expect(specs(trace.all())).toHaveLength(1);
  });

  it('checks a 2026-07-28 session with the v2 schemas, loaded on first need', async () => {
    const trace = new TraceRecorder('s1');
    stops.push(attachSpecValidator(trace, () => undefined, () => undefined));
    // Before the session knows its era, the request's `_meta` tells.
    trace.record(frameInput('out', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }, 'request'));
    trace.record(frameInput('in', { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 'bare' }] } }, 'response'));
    await specValidationSettled(trace);
    expect(specs(trace.all())).toMatchObject([{ of: 2, version: '2026-07-28', schema: 'ListToolsResult', issues: ['result.tools[0].inputSchema: required'] }]);
  });
});
