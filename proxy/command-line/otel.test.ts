import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './options.ts';

describe('--otlp and its options (issue 28)', () => {
  it('reads the endpoint, the protocol and the switches before the target', () => {
    const parsed = parseCliArgs(['--otlp', 'http://localhost:4318', '--otlp-protocol', 'http/json', '--otlp-content', '--no-otlp-traceparent', 'node', 'server.js', '--otlp', 'x']);
    expect(parsed.ok && parsed.options.otel).toEqual({ url: 'http://localhost:4318', protocol: 'http/json', content: true, traceparent: false, receive: false });
    expect(parsed.ok && parsed.options.target).toEqual(['node', 'server.js', '--otlp', 'x']);
    expect(parseCliArgs(['--otlp-receive', 'node', 's.js'])).toMatchObject({ ok: true, options: { otel: { receive: true, traceparent: true } } });
    const plain = parseCliArgs(['node', 's.js']);
    expect(plain.ok && plain.options.otel).toBeUndefined();
  });

  it('refuses what it cannot do, in a sentence', () => {
    expect(parseCliArgs(['--otlp', 'localhost:4317', 'node', 's.js'])).toMatchObject({ ok: false, error: expect.stringContaining('http:// or https://') });
    expect(parseCliArgs(['--otlp', 'not a url', 'node', 's.js'])).toMatchObject({ ok: false, error: expect.stringContaining('OTLP/HTTP endpoint') });
    expect(parseCliArgs(['--otlp-protocol', 'grpc', 'node', 's.js'])).toMatchObject({ ok: false, error: expect.stringContaining('http/json or http/protobuf') });
    expect(parseCliArgs(['--otlp', 'http://c:4318', '--cli', '--method', 'tools/list', 'node', 's.js'])).toMatchObject({ ok: false, error: expect.stringContaining('not --cli') });
    expect(parseCliArgs(['--otlp', 'http://c:4318', '--tap', '--', 'node', 's.js'])).toMatchObject({ ok: false, error: expect.stringContaining('tapped host') });
  });
});
