import { describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';
import { fromOtlpJson } from './otlp-json.ts';
import { sessionAsOtlp, spansAsTrace } from './session-files.ts';

const frame = (seq: number, dir: 'out' | 'in', message: Record<string, unknown>): FrameEvent => {
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  return { kind: 'frame', session: 's1', seq, ts: 1000 + seq, dir, raw, size: raw.length, rpc: 'method' in message ? 'request' : 'response' };
};

describe('span files in and out of the History', () => {
  it('imports a Jaeger export as one spans row per trace, oldest first', () => {
    const jaeger = { data: [
      { traceID: 'b', processes: {}, spans: [{ traceID: 'b', spanID: '1', operationName: 'later', startTime: 5_000_000, duration: 10 }] },
      { traceID: 'a', processes: {}, spans: [{ traceID: 'a', spanID: '2', operationName: 'tools/call echo', startTime: 1_000_000, duration: 10, tags: [{ key: 'mcp.tool.name', value: 'echo' }] }, { traceID: 'a', spanID: '3', operationName: 'child', startTime: 1_000_001, duration: 1, references: [{ refType: 'CHILD_OF', spanID: '2' }] }] },
    ] };
    const read = spansAsTrace('jaeger.json', JSON.stringify(jaeger));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.trace.events.map((e) => e.kind === 'spans' && e.spans.map((s) => s.name))).toEqual([['tools/call echo', 'child'], ['later']]);
    expect(read.trace.events[0].kind === 'spans' && read.trace.events[0].spans[0].attributes['gen_ai.tool.name']).toBe('echo');
    expect(spansAsTrace('x.json', '{"resourceSpans":[]}')).toMatchObject({ ok: false, error: expect.stringContaining('no span') });
  });

  it('exports a session as OTLP JSON: its calls as spans, the server’s spans beside them, secrets masked', () => {
    const events: TraceEvent[] = [
      frame(1, 'out', { id: 1, method: 'tools/call', params: { name: 'login', arguments: { password: 'hunter22secret' } } }),
      frame(2, 'in', { id: 1, error: { code: -32602, message: 'bad password hunter22secret' } }),
      { kind: 'spans', session: 's1', seq: 3, ts: 1003, source: 'server', of: 1, spans: [{ traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), name: 'check hunter22secret', kind: 'server', startMs: 1001, endMs: 1002, attributes: {}, events: [], status: { code: 'unset' } }] },
    ];
    const otlp = sessionAsOtlp({ name: 'auth', config: { kind: 'stdio', command: 'x', args: [], env: {} } }, events, ['hunter22secret']);
    expect(JSON.stringify(otlp)).not.toContain('hunter22secret');
    const read = fromOtlpJson(JSON.parse(JSON.stringify(otlp)));
    expect(read.ok && read.spans.map((s) => [s.name, s.attributes['error.type']])).toEqual([['tools/call login', '-32602'], ['check •••• (14 chars, masked)', undefined]]);
  });
});
