import { describe, expect, it } from 'vitest';
import { fromOtlpJson, toOtlpJson } from './otlp-json.ts';
import { readSpanFile } from './jaeger.ts';
import type { SpanData } from './span.ts';

const span: SpanData = {
  traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', parentSpanId: '00f067aa0ba902b7', name: 'tools/call echo', kind: 'client',
  startMs: 1_700_000_000_123.25, endMs: 1_700_000_000_130.5, attributes: { 'gen_ai.tool.name': 'echo', 'jsonrpc.request.id': '2', n: 3, ok: true, d: 1.5 },
  events: [{ name: 'notifications/progress', timeMs: 1_700_000_000_125, attributes: { 'mcp_loupe.progress': 1 } }], status: { code: 'error', message: 'boom' }, resource: { 'service.name': 'mcp-loupe' },
};

describe('OTLP JSON, Tempo and Jaeger files', () => {
  it('writes OTLP JSON and reads it back to the same spans', () => {
    const json = toOtlpJson([span]);
    const back = fromOtlpJson(JSON.parse(JSON.stringify(json)));
    expect(back).toEqual({ ok: true, skipped: 0, spans: [{ ...span, scope: 'mcp-loupe' }] });
  });

  it('reads base64 ids, string kinds, a Tempo export and the draft attribute names', () => {
    const tempo = { batches: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'srv' } }] }, instrumentationLibrarySpans: [{ spans: [
      { traceId: 'CvdlGRbNQ92ESOshHIAxnA==', spanId: 't61rcWkgMzE=', name: 'x', kind: 'SPAN_KIND_SERVER', startTimeUnixNano: 1_000_000, endTimeUnixNano: '3000000', attributes: [{ key: 'mcp.tool.name', value: { stringValue: 'echo' } }, { key: 'mcp.request.id', value: { intValue: 4 } }], status: { code: 'STATUS_CODE_OK' } },
      { traceId: 'bad', spanId: 'x', name: 'skipped', startTimeUnixNano: '1' },
    ] }] }] };
    const read = readSpanFile(JSON.stringify(tempo));
    expect(read).toMatchObject({ ok: true, skipped: 1 });
    if (!read.ok) return;
    expect(read.spans[0]).toMatchObject({ traceId: span.traceId, spanId: span.spanId, kind: 'server', startMs: 1, endMs: 3, status: { code: 'ok' }, attributes: { 'gen_ai.tool.name': 'echo', 'jsonrpc.request.id': 4 }, resource: { 'service.name': 'srv' } });
  });

  it('reads a Jaeger export: microseconds, CHILD_OF parents, span.kind and error tags, processes', () => {
    const jaeger = { data: [{ traceID: 'abc', processes: { p1: { serviceName: 'weather', tags: [] } }, spans: [
      { traceID: 'abc', spanID: '1', operationName: 'db query', startTime: 1_000_000, duration: 2500, processID: 'p1', references: [{ refType: 'CHILD_OF', traceID: 'abc', spanID: '2' }], tags: [{ key: 'span.kind', type: 'string', value: 'client' }, { key: 'error', type: 'bool', value: true }, { key: 'mcp.tool.name', value: 'echo' }], logs: [{ timestamp: 1_000_500, fields: [{ key: 'event', value: 'retry' }] }] },
    ] }] };
    const read = readSpanFile(JSON.stringify(jaeger));
    expect(read.ok && read.spans[0]).toMatchObject({ traceId: '0'.repeat(29) + 'abc', spanId: '0'.repeat(15) + '1', parentSpanId: '0'.repeat(15) + '2', kind: 'client', startMs: 1000, endMs: 1002.5, status: { code: 'error' }, resource: { 'service.name': 'weather' }, attributes: { 'gen_ai.tool.name': 'echo' }, events: [{ name: 'retry', timeMs: 1000.5 }] });
  });

  it('says in words what a file that is none of these is', () => {
    expect(readSpanFile('{')).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
    expect(readSpanFile('{"a":1}')).toMatchObject({ ok: false, error: expect.stringContaining('neither OTLP') });
  });
});
