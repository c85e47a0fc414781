import { describe, expect, it } from 'vitest';
import { maskTraceEvent, secretScrubber } from '../trace/secret-mask.ts';
import type { TraceEvent } from '../wire/wire.ts';

describe('spans masked with the trace’s own masking', () => {
  it('masks a secret value wherever a server’s span carries it: name, attributes, events, status, resource', () => {
    const secret = 'sk-live-123456';
    const event: TraceEvent = {
      kind: 'spans', session: 's1', seq: 3, ts: 1, source: 'server', of: 2,
      spans: [{ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: `GET /?key=${secret}`, kind: 'internal', startMs: 1, endMs: 2, attributes: { 'http.url': `https://x/?k=${secret}`, n: 1, list: [secret] }, events: [{ name: 'e', timeMs: 1, attributes: { v: secret } }], status: { code: 'error', message: `bad ${secret}` }, resource: { token: secret } }],
    };
    const masked = maskTraceEvent(event, secretScrubber([secret], 'masked'));
    expect(JSON.stringify(masked)).not.toContain(secret);
    expect(masked.kind === 'spans' && masked.spans[0].attributes.n).toBe(1);
  });
});
