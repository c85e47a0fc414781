import { describe, expect, it } from 'vitest';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { fromOtlpJson } from '../../lib/otel/otlp-json.ts';
import type { SpanData } from '../../lib/otel/span.ts';
import { readable } from './exporter.ts';
import { decodeTraceRequest } from './otlp-protobuf.ts';

const span: SpanData = {
  traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', parentSpanId: '00f067aa0ba902b7', name: 'db.query users', kind: 'server',
  startMs: 1_700_000_000_123.5, endMs: 1_700_000_000_140.25, attributes: { 'db.system': 'sqlite', rows: 3, ratio: 0.5, cached: false, tags: ['a', 'b'] },
  events: [{ name: 'retry', timeMs: 1_700_000_000_130, attributes: { attempt: 2 } }], status: { code: 'error', message: 'locked' },
};

describe('the receiver reads what the OpenTelemetry exporters send', () => {
  const spans = [readable(span, resourceFromAttributes({ 'service.name': 'weather' }))];

  it('decodes a protobuf export request made by the SDK’s own serializer into the same spans', () => {
    const decoded = decodeTraceRequest(ProtobufTraceSerializer.serializeRequest(spans)!);
    expect(decoded.ok).toBe(true);
    const read = decoded.ok ? fromOtlpJson(decoded.value) : undefined;
    expect(read).toEqual({ ok: true, skipped: 0, spans: [{ ...span, resource: { 'service.name': 'weather' }, scope: 'mcp-loupe' }] });
  });

  it('reads the SDK’s JSON export request the same way', () => {
    const read = fromOtlpJson(JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!)));
    expect(read.ok && read.spans[0]).toMatchObject({ traceId: span.traceId, parentSpanId: span.parentSpanId, name: span.name, attributes: span.attributes, status: span.status });
  });

  it('says in a sentence when a body is not protobuf', () => {
    expect(decodeTraceRequest(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toMatchObject({ ok: false, error: expect.stringContaining('not an OTLP protobuf export request') });
  });
});
