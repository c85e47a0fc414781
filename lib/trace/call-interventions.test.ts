import { describe, expect, it } from 'vitest';
import { callInterception, interceptionWords } from './call-interventions.ts';
import { TraceIndex } from './row-index.ts';
import type { TraceEvent } from '../wire/wire.ts';

const RULE = { id: 'r1', name: 'Pause echo', action: 'pause' };
const call = (message: string, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { message } } });
let seq = 0;
const intervention = (ts: number, over: Record<string, unknown>): TraceEvent => ({ session: 's', seq: ++seq, ts, kind: 'intervention', dir: 'out', by: 'rule', rule: RULE, method: 'tools/call', message: '…', original: call('hi'), ...over }) as TraceEvent;

describe('callInterception', () => {
  it('tells a held call that was forwarded edited, and one still held', () => {
    const rows = TraceIndex.from([
      intervention(100, { action: 'held' }),
      intervention(900, { action: 'edited', by: 'person', result: call('edited') }),
    ]).rows;
    const held = callInterception(rows, { tool: 'echo', args: { message: 'hi' }, startedAt: 99 });
    expect(held).toEqual({ heldBy: 'Pause echo', outcome: 'edited' });
    expect(interceptionWords(held!, false)).toBe('Held by rule “Pause echo”, forwarded edited');
    const waiting = callInterception(rows.slice(0, 1), { tool: 'echo', args: { message: 'hi' }, startedAt: 99 });
    expect(interceptionWords(waiting!, true)).toMatch(/^Held by rule “Pause echo”: waiting in the Intercept tab/);
  });

  it('leaves out another tool, other arguments and another time; names a rule that acted alone', () => {
    const rows = TraceIndex.from([
      intervention(100, { action: 'held', original: call('other') }),
      intervention(110, { action: 'held', original: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { message: 'hi' } } }) }),
      intervention(5_000, { action: 'held' }),
      intervention(120, { action: 'rewritten', rule: { id: 'r2', name: 'Shout', action: 'rewrite' }, result: call('HI') }),
    ].sort((a, b) => a.ts - b.ts)).rows;
    const story = callInterception(rows, { tool: 'echo', args: { message: 'hi' }, startedAt: 100, endedAt: 200 });
    expect(story).toEqual({ outcome: 'rewritten', rule: 'Shout' });
    expect(interceptionWords(story!, false)).toBe('Rewritten by rule “Shout”');
    expect(callInterception(rows, { tool: 'echo', args: { message: 'nope' }, startedAt: 100, endedAt: 200 })).toBeUndefined();
  });
});
