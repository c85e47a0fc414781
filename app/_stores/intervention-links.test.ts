/**
 * The History's links between an intervention and its frames (intervention-links.ts), both ways;
 * and the History's export keeps the intervention rows, original and result text and links, as
 * an import reads them back.
 */
import { describe, expect, it } from 'vitest';
import { TraceIndex } from '../../lib/trace/row-index.ts';
import { exportTrace } from '../../lib/trace/jsonl.ts';
import { parseTrace } from '../../lib/trace/read-trace.ts';
import type { TraceEvent } from '../../lib/wire/wire.ts';
import { interventionLinks } from './intervention-links.ts';
import { testSession } from '../_wire/port-fixture.ts';

const base = { session: 's1', ts: 1 };
const events: TraceEvent[] = [
  // A result from the server, recorded, then rewritten by a rule; what went on is recorded after.
  { ...base, seq: 1, kind: 'frame', dir: 'out', raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}', size: 10, rpc: 'request', method: 'tools/call', id: 1 },
  { ...base, seq: 2, kind: 'frame', dir: 'in', raw: '{"jsonrpc":"2.0","id":1,"result":{}}', size: 10, rpc: 'response', id: 1 },
  { ...base, seq: 3, kind: 'intervention', dir: 'in', by: 'rule', rule: { id: 'r1', name: 'swap', action: 'replace-result' }, action: 'rewritten', message: 'Replaced the result', original: '{"jsonrpc":"2.0","id":1,"result":{}}', result: '{"jsonrpc":"2.0","id":1,"result":{"x":1}}', of: 2 },
  // A request held and edited: only the frame that went on is a frame row.
  { ...base, seq: 4, kind: 'intervention', dir: 'out', by: 'person', action: 'edited', message: 'Forwarded as edited', original: '{"a":1}', result: '{"a":2}' },
  { ...base, seq: 5, kind: 'frame', dir: 'out', raw: '{"a":2}', size: 7, rpc: 'invalid', intervention: 4 },
];

describe('interventionLinks', () => {
  const index = TraceIndex.from(events);
  const links = (seq: number) => interventionLinks(index.rows, index.find(seq)).map((l) => l.label);

  it('links an intervention to the frame it acted on and to the frame that went on', () => {
    expect(links(3)).toEqual(['Go to the original frame #2']);
    expect(links(4)).toEqual(['Go to the frame that went on #5']);
  });

  it('links those frames back to the intervention', () => {
    expect(links(2)).toEqual(['Go to intervention #3']);
    expect(links(5)).toEqual(['Go to intervention #4']);
    expect(links(1)).toEqual([]);
    expect(interventionLinks(index.rows, undefined)).toEqual([]);
  });
});

describe('the JSONL export of a trace with interventions', () => {
  it('keeps every intervention and link, and an import reads them back', () => {
    const index = TraceIndex.from(events);
    const text = exportTrace({ session: testSession({ id: 's1' }), rows: index.rows, secrets: { env: [], headers: [], redactInEvents: false }, exportedBy: 'test' });
    const read = parseTrace(text);
    if (!read.ok) throw new Error(read.error);
    expect(read.trace.problems).toEqual([]);
    expect(read.trace.events).toEqual(events);
    const again = TraceIndex.from(read.trace.events);
    expect(interventionLinks(again.rows, again.find(4)).map((l) => l.seq)).toEqual([5]);
  });
});
