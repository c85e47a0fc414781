import { describe, expect, it } from 'vitest';
import { endpointForLog, tracesUrl, tracingSettings } from './settings.ts';
import { receiverEnv } from './start.ts';

const cli = (extra = {}) => ({ content: false, traceparent: true, receive: false, ...extra });

describe('tracing settings (issue 28)', () => {
  it('is off unless --otlp, --otlp-receive, an OTEL endpoint variable or the workspace asks', () => {
    expect(tracingSettings(undefined, {})).toBeUndefined();
    expect(tracingSettings(cli({ url: 'http://c:4318' }), {})).toEqual({ export: { url: 'http://c:4318/v1/traces', protocol: 'http/protobuf' }, from: '--otlp', content: false, traceparent: true });
    expect(tracingSettings(cli({ receive: true }), {})).toEqual({ content: false, traceparent: true });
    // The SDK reads the variables itself (the endpoint and the headers): Loupe passes no URL and never copies a header.
    expect(tracingSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=s3cret', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({ export: { protocol: 'http/json' }, from: 'OTEL_EXPORTER_OTLP_ENDPOINT', content: false, traceparent: true });
    expect(tracingSettings(undefined, {}, { endpoint: 'http://ws:4318/v1/traces', content: true })).toMatchObject({ export: { url: 'http://ws:4318/v1/traces' }, content: true });
    expect(tracingSettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toMatchObject({ export: { protocol: 'http/protobuf' }, warning: expect.stringContaining('not supported') });
  });

  it('makes traces URLs as the SDKs do, and says an endpoint without its credentials', () => {
    expect(tracesUrl('http://c:4318/')).toBe('http://c:4318/v1/traces');
    expect(tracesUrl('http://c:4318/v1/traces')).toBe('http://c:4318/v1/traces');
    expect(endpointForLog('https://user:pw@c.example/v1/traces?api_key=k')).toBe('https://c.example/v1/traces');
  });

  it('gives a stdio server Loupe’s receiver with the receiver token, unless its config names an endpoint', () => {
    expect(receiverEnv('http://127.0.0.1:6280', 'tok', {})).toEqual({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:6280/v1/traces', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Bearer%20tok', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' });
    expect(receiverEnv('http://127.0.0.1:6280', 'tok', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://mine' })).toEqual({});
    expect(receiverEnv('http://127.0.0.1:6280', 'tok', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).not.toHaveProperty('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL');
  });
});
