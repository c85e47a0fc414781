import { describe, expect, it } from 'vitest';
import { headerSecretValues, isSecretHeader, maskBearerTokens, maskHeaderValues, maskTraceEvent, mayCarryCredential, secretScrubber } from './secret-mask.ts';
import type { TraceEvent } from '../wire/wire.ts';

const KEY = 'aZ3/fake+Functions/Key9kq0w2e4r6t8y0u1i3o5p7==';
const MASK = `•••• (${KEY.length} chars, secret)`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('isSecretHeader', () => {
  it('masks the headers of known services and any name with a credential word', () => {
    for (const name of ['Authorization', 'Proxy-Authorization', 'Cookie', 'Set-Cookie', 'X-Api-Key', 'X-Goog-Api-Key', 'X-Functions-Key', 'Ocp-Apim-Subscription-Key', 'X-Auth', 'X-Auth-Token', 'X-Client-Secret', 'X-Password', 'X-Credential', 'X-Signature', 'X-Session-Token', 'X-Csrf-Token']) {
      expect(isSecretHeader(name), name).toBe(true);
    }
  });

  it('leaves what debugging reads and carries no credential: the session id, challenges, CORS, content headers', () => {
    for (const name of ['Mcp-Session-Id', 'WWW-Authenticate', 'Proxy-Authenticate', 'Access-Control-Allow-Credentials', 'Content-Type', 'Last-Event-ID', 'Mcp-Protocol-Version', 'Keep-Alive']) {
      expect(isSecretHeader(name), name).toBe(false);
    }
  });

  it('a header the user gave may carry a credential unless it is a plain protocol header', () => {
    expect(mayCarryCredential('X-Tenant')).toBe(true);
    expect(mayCarryCredential('Accept')).toBe(false);
    expect(mayCarryCredential('Mcp-Session-Id')).toBe(false);
  });
});

describe('headerSecretValues', () => {
  it('takes credential headers whatever their values, others only when they look like a credential, and a Bearer token alone too', () => {
    const values = headerSecretValues({ Authorization: 'Bearer tok-123456', 'X-Auth': 'abcd', 'X-Tenant': 'acme-corp-42', 'X-Region': 'eu-west', 'X-Build': '20240101', Accept: 'application/json' });
    expect(values).toEqual(['Bearer tok-123456', 'tok-123456', 'abcd', 'acme-corp-42']);
  });
});

describe('secretScrubber', () => {
  const scrub = secretScrubber([KEY]);

  it('finds the value as written, JSON-escaped (any depth), as \\u escapes and URL-encoded (once or twice)', () => {
    const unicode = KEY.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`);
    const cases = [KEY, JSON.stringify({ k: KEY }), KEY.replace(/\//g, '\\/'), KEY.replace(/\//g, '\\\\\\/'), unicode, encodeURIComponent(KEY), encodeURIComponent(encodeURIComponent(KEY)), encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())];
    for (const text of cases) expect(scrub(`before ${text} after`), text).not.toMatch(/Functions/);
    expect(scrub(`key=${encodeURIComponent(KEY)}&x=1`)).toBe(`key=${MASK}&x=1`);
  });

  it('finds its base64, standard and URL-safe, at each byte offset inside a longer token', () => {
    for (const prefix of ['', 'u:', 'us:', 'user:']) {
      const token = b64(`${prefix}${KEY}`);
      for (const text of [`Basic ${token}`, `Bearer ${token.replace(/\+/g, '-').replace(/\//g, '_')}`]) {
        const out = scrub(text);
        expect(out, text).toContain('chars, secret');
        // What is left of the token is at most the few characters that mix in the prefix or the end.
        expect(out.replace(/•••• \(\d+ chars, secret\)/, '').length).toBeLessThan(text.length - 40);
      }
    }
  });

  it('takes linear time on a run of backslashes (a peer may send a megabyte of them)', () => {
    const started = performance.now();
    expect(secretScrubber(['/starts-with-a-slash-0123'])('\\'.repeat(1_000_000))).toHaveLength(1_000_000);
    expect(performance.now() - started, 'linear, not quadratic (hours)').toBeLessThan(10_000);
  });

  it('leaves other text, short values and masks alone', () => {
    expect(secretScrubber(['abc'])('abc abc')).toBe('abc abc');
    expect(scrub('nothing here, not even aZ3/fake')).toBe('nothing here, not even aZ3/fake');
    expect(secretScrubber([MASK])(MASK)).toBe(MASK);
  });
});

describe('maskTraceEvent', () => {
  const base = { session: 's1', seq: 1, ts: 1 };

  it('masks an HTTP exchange by header name and by value, and its URL', () => {
    const event: TraceEvent = {
      ...base,
      kind: 'http',
      method: 'POST',
      url: `https://h/mcp?key=${encodeURIComponent(KEY)}`,
      requestHeaders: { 'x-goog-api-key': 'AIza-other-value', 'x-plain-name': KEY, 'mcp-session-id': 'sess-1', authorization: 'Bearer abc' },
      responseHeaders: { 'x-request-context': KEY },
      durationMs: 1,
    };
    const masked = maskTraceEvent(event, secretScrubber([KEY], 'masked'));
    expect(masked).toMatchObject({
      url: `https://h/mcp?key=•••• (${KEY.length} chars, masked)`,
      requestHeaders: { 'x-goog-api-key': '•••• (16 chars, masked)', 'x-plain-name': `•••• (${KEY.length} chars, masked)`, 'mcp-session-id': 'sess-1', authorization: 'Bearer •••• (3 chars, masked)' },
      responseHeaders: { 'x-request-context': `•••• (${KEY.length} chars, masked)` },
    });
    // Masking twice changes nothing.
    expect(maskTraceEvent(masked, secretScrubber([KEY], 'masked'))).toEqual(masked);
  });

  it('scrubs the text of every kind, and gives a frame without a secret back as it is', () => {
    const scrub = secretScrubber([KEY]);
    const frame: TraceEvent = { ...base, kind: 'frame', dir: 'in', raw: '{"jsonrpc":"2.0","id":1,"result":{}}', size: 10, rpc: 'response', id: 1 };
    expect(maskTraceEvent(frame, scrub)).toBe(frame);
    const texts: TraceEvent[] = [
      { ...frame, raw: JSON.stringify({ text: KEY }) },
      { ...base, kind: 'stderr', text: `KEY=${KEY}` },
      { ...base, kind: 'transport', level: 'info', message: KEY },
      { ...base, kind: 'spec', of: 1, version: 'v', schema: 's', issues: [KEY] },
      { ...base, kind: 'intervention', dir: 'in', by: 'rule', action: 'rewritten', message: KEY, original: KEY, result: KEY },
      { ...base, kind: 'provider', exchange: 'chat', provider: 'anthropic', url: 'u', durationMs: 1, requestHeaders: {}, requestBody: KEY, responseBody: encodeURIComponent(KEY), error: KEY },
    ];
    for (const event of texts) expect(JSON.stringify(maskTraceEvent(event, scrub)), event.kind).not.toContain('Functions');
  });

  it('maskHeaderValues keeps a value already masked', () => {
    expect(maskHeaderValues({ authorization: 'Bearer •••• (3 chars, secret)' })).toEqual({ authorization: 'Bearer •••• (3 chars, secret)' });
  });
});

describe('maskBearerTokens', () => {
  it('masks what follows Bearer, escapes included, and leaves a mask or a short word alone', () => {
    expect(maskBearerTokens('"received":"Authorization: Bearer sk-live/\\"quo…","x":1')).toBe('"received":"Authorization: Bearer •••• (14 chars, secret)","x":1');
    expect(maskBearerTokens('Bearer •••• (8 chars, secret)')).toBe('Bearer •••• (8 chars, secret)');
    expect(maskBearerTokens('use a Bearer token')).toBe('use a Bearer token');
  });
});
