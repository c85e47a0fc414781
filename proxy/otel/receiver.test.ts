/**
 * Loupe's OTLP receiver (issue 28) at /v1/traces on the UI's port, against a real Loupe in this
 * process: what it refuses and in which words, protobuf from the SDK's own serializer, and the
 * partial-success answer when tracing is off.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanData } from '../../lib/otel/span.ts';
import type { SpansEvent } from '../../lib/wire/events.ts';
import { LoupeHarness } from '../testing/harness.ts';
import { readable } from './exporter.ts';

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

function post(port: number, headers: Record<string, string>, body: string | Uint8Array, method = 'POST'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/traces', method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const span: SpanData = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'db query', kind: 'internal', startMs: 1_700_000_000_000, endMs: 1_700_000_000_005, attributes: { token: 'x' }, events: [], status: { code: 'unset' } };

describe('POST /v1/traces (issue 28)', () => {
  it('refuses other methods, other types, bad bodies and a body too large, each in words', async () => {
    const { loupe } = await harness.start({ otel: { content: false, traceparent: true, receive: true } });
    const auth = { authorization: `Bearer ${loupe.token}` };
    expect(await post(loupe.port, auth, '', 'GET')).toMatchObject({ status: 405, text: expect.stringContaining('POST /v1/traces only') });
    expect(await post(loupe.port, { ...auth, 'content-type': 'text/plain' }, '{}')).toMatchObject({ status: 415 });
    expect(await post(loupe.port, { ...auth, 'content-type': 'application/json' }, '{"nope":1}')).toMatchObject({ status: 400, text: expect.stringContaining('resourceSpans') });
    expect(await post(loupe.port, { ...auth, 'content-type': 'application/json' }, '{')).toMatchObject({ status: 400, text: expect.stringContaining('not JSON') });
    expect(await post(loupe.port, { ...auth, 'content-type': 'application/json' }, 'x'.repeat(9 * 1024 * 1024))).toMatchObject({ status: 413, text: expect.stringContaining('larger than 8 MiB') });
    expect(await post(loupe.port, { 'content-type': 'application/json', authorization: 'Bearer wrong' }, '{}')).toMatchObject({ status: 401 });
  });

  it('takes the SDK’s protobuf, records the spans in the primary session, and masks Loupe’s own token in them', async () => {
    const { loupe, client } = await harness.start({ config: { kind: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: {} }, otel: { content: false, traceparent: true, receive: true } });
    const leaky = readable({ ...span, attributes: { seen: `bearer ${loupe.token}` } }, resourceFromAttributes({ 'service.name': 'srv' }));
    const body = ProtobufTraceSerializer.serializeRequest([leaky])!;
    expect(await post(loupe.port, { 'content-type': 'application/x-protobuf', authorization: `Bearer ${loupe.token}` }, body)).toMatchObject({ status: 200 });
    const recorded = await client.until(() => client.events.find((e): e is SpansEvent => e.kind === 'spans'), 5_000, 'the spans');
    expect(recorded).toMatchObject({ source: 'server', spans: [{ name: 'db query', resource: { 'service.name': 'srv' } }] });
    expect(recorded.of).toBeUndefined();
    expect(JSON.stringify(recorded)).not.toContain(loupe.token);
  });

  it('answers a partial success, rejecting every span, when tracing is off', async () => {
    const { loupe } = await harness.start({});
    const answer = await post(loupe.port, { 'content-type': 'application/json', authorization: `Bearer ${loupe.token}` }, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: span.traceId, spanId: span.spanId, name: 'x', startTimeUnixNano: '1' }] }] }] }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ partialSuccess: { rejectedSpans: '1', errorMessage: 'Tracing is not on in this Loupe.' } });
  });
});
