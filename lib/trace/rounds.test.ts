import { describe, expect, it } from 'vitest';
import { TraceIndex } from './row-index.ts';
import { describeGroup, findCallRequest, foldRounds, RoundIndex, roundNote, viaSentence } from './rounds.ts';
import { filterRows, EMPTY_FILTER } from './filter.ts';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';

/** Frames as the proxy records them: requests, results, and the round mark on re-sent requests. */
function builder() {
  let seq = 0;
  const frame = (dir: FrameEvent['dir'], message: Record<string, unknown>, extra: Partial<FrameEvent> = {}): FrameEvent => {
    seq += 1;
    const raw = JSON.stringify(message);
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
    const method = typeof message.method === 'string' ? message.method : undefined;
    const rpc: FrameEvent['rpc'] = method !== undefined ? (id === undefined ? 'notification' : 'request') : 'error' in message ? 'error' : 'response';
    return { session: 's', seq, ts: seq * 10, kind: 'frame', dir, raw, size: raw.length, rpc, method, id, ...extra };
  };
  const call = (id: number, name = 'confirm-delete', extra: Record<string, unknown> = {}, round?: { call: number; n: number }) =>
    frame('out', { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, ...extra } }, round ? { round } : {});
  const inputRequired = (id: number) =>
    frame('in', { jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: {} } }, requestState: 'st' } });
  const complete = (id: number, text = 'Deleted x') => frame('in', { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text }] } });
  const note = () => frame('in', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
  return { frame, call, inputRequired, complete, note };
}

function build(events: TraceEvent[]) {
  const index = new TraceIndex();
  const rounds = new RoundIndex();
  const { added } = index.append(events);
  const changed = rounds.append(added);
  return { index, rounds, changed };
}

describe('RoundIndex', () => {
  it('groups the first request, its input_required result, the re-sent requests and their results', () => {
    const b = builder();
    const { index, rounds } = build([
      b.call(1),
      b.inputRequired(1),
      b.note(),
      b.call(2, 'confirm-delete', { inputResponses: { confirm: { action: 'accept' } }, requestState: 'st' }, { call: 1, n: 2 }),
      b.inputRequired(2),
      b.call(3, 'confirm-delete', {}, { call: 1, n: 3 }),
      b.complete(3),
    ]);
    expect(rounds.size).toBe(1);
    const group = rounds.groupOf(index.rows[0])!;
    expect(group.steps.map((s) => [s.n, s.request.seq, s.response?.seq])).toEqual([[1, 1, 2], [2, 4, 5], [3, 6, 7]]);
    expect(rounds.groupOf(index.rows[2])).toBeUndefined();
    expect(describeGroup(group)).toMatchObject({ title: 'tools/call confirm-delete', rounds: 3, text: '3 rounds · input_required → complete', latencyMs: 60, isError: false });
    expect(roundNote(group, index.rows[3])).toBe('round 2');
    expect(roundNote(group, index.rows[1])).toBe('round 1 result: input_required');
  });

  it('builds the same groups batch by batch, saying which group each batch changed', () => {
    const b = builder();
    const index = new TraceIndex();
    const rounds = new RoundIndex();
    const feed = (events: TraceEvent[]) => rounds.append(index.append(events).added);
    expect(feed([b.call(7, 'ask-model')])).toEqual([]);
    const [group] = feed([b.inputRequired(7)]);
    expect(describeGroup(group).text).toBe('1 round · input_required');
    expect(feed([b.call(8, 'ask-model', {}, { call: 7, n: 2 })])).toEqual([group]);
    expect(describeGroup(group).text).toBe('2 rounds · input_required → waiting');
    feed([b.complete(8)]);
    expect(describeGroup(group).text).toBe('2 rounds · input_required → complete');
  });

  it('leaves ordinary calls alone, and a call whose result is complete at once', () => {
    const b = builder();
    const { rounds } = build([b.call(1), b.complete(1), b.frame('out', { jsonrpc: '2.0', id: 2, method: 'tools/list' }), b.frame('in', { jsonrpc: '2.0', id: 2, result: { resultType: 'input_required' } })]);
    // tools/list is not a multi-round-trip method: its odd result is the violations helper's business.
    expect(rounds.size).toBe(0);
  });

  it('starts a group at a re-sent request whose first request is no longer kept', () => {
    const b = builder();
    b.call(1);
    b.inputRequired(1);
    const { rounds, index } = build([b.call(2, 'confirm-delete', {}, { call: 1, n: 2 }), b.frame('in', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad state' } })]);
    const group = rounds.groupOf(index.rows[0])!;
    expect(group.head).toBe(index.rows[0]);
    expect(describeGroup(group)).toMatchObject({ text: '1 round · error', isError: true });
  });

  it('does not add a later call that reuses the id to an old group', () => {
    const b = builder();
    const { rounds, index } = build([b.call(1), b.inputRequired(1), b.call(2, 'x', {}, { call: 1, n: 2 }), b.complete(2), b.call(1, 'other'), b.complete(1)]);
    expect(rounds.size).toBe(1);
    expect(rounds.groupOf(index.rows[4])).toBeUndefined();
    expect(rounds.groupOf(index.rows[5])).toBeUndefined();
  });
});

describe('foldRounds', () => {
  const trace = () => {
    const b = builder();
    return build([b.call(1), b.inputRequired(1), b.note(), b.call(2, 'confirm-delete', {}, { call: 1, n: 2 }), b.complete(2), b.note()]);
  };

  it('draws a closed group as its first request, and every frame when open', () => {
    const { index, rounds } = trace();
    expect(foldRounds(index.rows, rounds, new Set()).map((r) => r.seq)).toEqual([1, 3, 6]);
    expect(foldRounds(index.rows, rounds, new Set([1])).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // From a position: the rows before are the caller's.
    expect(foldRounds(index.rows, rounds, new Set(), 2).map((r) => r.seq)).toEqual([3, 6]);
  });

  it('keeps the members a filter lets through when it hides the first request', () => {
    const { index, rounds } = trace();
    const matches = filterRows(index.rows, { ...EMPTY_FILTER, text: 'Deleted' });
    expect(foldRounds(matches, rounds, new Set()).map((r) => r.seq)).toEqual([5]);
    const calls = filterRows(index.rows, { ...EMPTY_FILTER, methods: ['tools/call'] });
    expect(foldRounds(calls, rounds, new Set()).map((r) => r.seq)).toEqual([1]);
  });

  it('costs nothing extra on a trace without rounds', () => {
    const b = builder();
    const { index, rounds } = build(Array.from({ length: 1000 }, () => b.note()));
    expect(rounds.size).toBe(0);
    expect(foldRounds(index.rows, rounds, new Set())).toHaveLength(1000);
  });

  it('forgets groups the trace let go', () => {
    const { rounds } = trace();
    rounds.trimBefore(5);
    expect(rounds.size).toBe(1);
    rounds.trimBefore(6);
    expect(rounds.size).toBe(0);
  });
});

describe('pending requests from a result', () => {
  it('finds the call by its id and says where the request came from', () => {
    const b = builder();
    const events = [b.call(41, 'confirm-delete'), b.inputRequired(41)];
    const request = findCallRequest(events, 41);
    expect(request?.seq).toBe(1);
    expect(findCallRequest(events, 42)).toBeUndefined();
    expect(viaSentence({ call: 41, method: 'tools/call', key: 'confirm', round: 1 }, 'confirm-delete')).toBe('Asked inside the result of tools/call confirm-delete (round 1, key confirm)');
    expect(viaSentence({ call: 41, method: 'resources/read', key: 'k', round: 2 }, undefined)).toBe('Asked inside the result of resources/read (round 2, key k)');
    // The proxy names the call in via.method: not named twice.
    expect(viaSentence({ call: 41, method: 'tools/call ask-model', key: 'answer', round: 1 }, 'ask-model')).toBe('Asked inside the result of tools/call ask-model (round 1, key answer)');
  });
});
