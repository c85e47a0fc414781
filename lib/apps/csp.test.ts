/**
 * A view's CSP (lib/apps/csp.ts): the exact header values the spec's template gives, the
 * restrictive default, every kind of entry that must be dropped (and why), and that no entry,
 * however written, can add a directive or a source nobody declared.
 */
import { describe, expect, it } from 'vitest';
import { allowAttribute, buildCsp, checkCsp, checkSource, cspProblemText, MAX_ENTRIES, RESTRICTIVE_CSP, type SourceList } from './csp.ts';

const EMPTY: SourceList = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
const built = (csp: unknown) => buildCsp(checkCsp(csp));

describe('buildCsp', () => {
  it('is the spec\'s restrictive default when nothing is declared (connect-src \'none\')', () => {
    const expected = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";
    expect(RESTRICTIVE_CSP).toBe(expected);
    expect(built(undefined)).toBe(expected);
    expect(built(null)).toBe(expected);
    // A declaration that is not an object is no declaration: the default, and a problem.
    expect(built('https://a.com')).toBe(expected);
    expect(checkCsp('https://a.com').problems).toEqual([{ field: 'csp', entry: 'https://a.com', kind: 'malformed', why: 'is not an object, so the restrictive default applies' }]);
  });

  it('follows the spec\'s template for a declaration with nothing in it', () => {
    expect(built({})).toBe("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; frame-src 'none'; object-src 'none'; base-uri 'self'");
  });

  it('puts each declared origin where the template says, and nowhere else', () => {
    const csp = {
      connectDomains: ['https://api.weather.com', 'wss://realtime.service.com'],
      resourceDomains: ['https://cdn.jsdelivr.net', 'https://*.cloudflare.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://cdn.example.com'],
    };
    expect(built(csp)).toBe([
      "default-src 'none'",
      "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://*.cloudflare.com",
      "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://*.cloudflare.com",
      "connect-src 'self' https://api.weather.com wss://realtime.service.com",
      "img-src 'self' data: https://cdn.jsdelivr.net https://*.cloudflare.com",
      "font-src 'self' https://cdn.jsdelivr.net https://*.cloudflare.com",
      "media-src 'self' data: https://cdn.jsdelivr.net https://*.cloudflare.com",
      'frame-src https://www.youtube.com',
      "object-src 'none'",
      'base-uri https://cdn.example.com',
    ].join('; '));
    expect(checkCsp(csp).problems).toEqual([]);
  });

  it('lets no entry inject a directive or a source', () => {
    const csp = { connectDomains: ['https://a.com; script-src *', 'https://ok.example.com'], resourceDomains: ["'unsafe-eval'", 'https://b.com, https://c.com', '*', 'https:', 'data:'] };
    const header = built(csp);
    expect(header).toBe("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'self' https://ok.example.com; img-src 'self' data:; font-src 'self'; media-src 'self' data:; frame-src 'none'; object-src 'none'; base-uri 'self'");
    expect(header.split('; ')).toHaveLength(10);
    expect(header).not.toContain('script-src *');
    expect(header).not.toContain('unsafe-eval');
    expect(header).not.toContain('a.com');
    expect(checkCsp(csp).problems.map(cspProblemText)).toEqual([
      'connectDomains "https://a.com; script-src *" contains a semicolon, which would start another directive',
      'resourceDomains "\'unsafe-eval\'" is a CSP keyword, not an origin',
      'resourceDomains "https://b.com, https://c.com" contains a comma, which would start another policy',
      'resourceDomains "*" allows every host',
      'resourceDomains "https:" allows every host over https',
      'resourceDomains "data:" is the scheme data: alone, not an origin',
    ]);
  });

  it('checks a hand-made source list again before anything goes into the header', () => {
    const header = buildCsp({ ok: { ...EMPTY, connectDomains: ['https://a.com; script-src *', 'https://ok.com'], frameDomains: ['*'] } });
    expect(header).toContain("connect-src 'self' https://ok.com;");
    expect(header).toContain("frame-src 'none'");
    expect(header).not.toContain('a.com');
  });
});

describe('checkSource', () => {
  const kept: [string, string][] = [
    ['https://cdn.example.com', 'https://cdn.example.com'],
    ['HTTPS://CDN.Example.com/', 'https://cdn.example.com'],
    ['wss://realtime.service.com:8443', 'wss://realtime.service.com:8443'],
    ['http://127.0.0.1:9', 'http://127.0.0.1:9'],
    ['http://localhost:*', 'http://localhost:*'],
    ['https://*.cloudflare.com', 'https://*.cloudflare.com'],
  ];
  it.each(kept)('keeps %s as %s', (entry, source) => {
    expect(checkSource(entry)).toEqual({ source });
  });

  const dropped: [unknown, 'malformed' | 'too-wide', string][] = [
    ['*', 'too-wide', 'allows every host'],
    ['https:', 'too-wide', 'allows every host over https'],
    ['wss:', 'too-wide', 'allows every host over wss'],
    ['https://*', 'too-wide', 'allows every host over https'],
    ['https://*:443', 'too-wide', 'allows every host over https'],
    ['https://*.com', 'too-wide', 'allows every host under .com'],
    ['blob:', 'malformed', 'is the scheme blob: alone, not an origin'],
    ["'self'", 'malformed', 'is a CSP keyword, not an origin'],
    ['https://a.com/lib.js', 'malformed', 'has a path (/lib.js), but a declared domain is an origin'],
    ['https://a.com/?x=1', 'malformed', 'has a query or fragment, but a declared domain is an origin'],
    ['cdn example.com', 'malformed', 'contains whitespace, which would add another source'],
    ['https://a.com\t', 'malformed', 'contains whitespace, which would add another source'],
    ['https://"a.com"', 'malformed', 'contains a quote'],
    ['cdn.example.com', 'malformed', 'has no scheme (write https://cdn.example.com or wss://…)'],
    ['javascript:alert(1)', 'malformed', 'is a URL of another kind, not an origin'],
    ['ftp://files.example.com', 'malformed', 'has the scheme ftp, but only http, https, ws and wss origins are allowed'],
    ['https://user@a.com', 'malformed', 'has user information before the host'],
    ['https://[::1]:8080', 'malformed', 'is an IPv6 address, which a CSP source cannot name'],
    ['https://a.com:99999', 'malformed', 'has the port 99999, outside 1–65535'],
    ['https://a.com:http', 'malformed', 'has a port that is not a number'],
    ['https://a_b.com', 'malformed', 'has the host a_b.com, which is not a host name (letters, digits, "-" and dots, optionally after "*.")'],
    ['https://bücher.de', 'malformed', 'contains a character outside printable ASCII (write an international host name in punycode)'],
    ['https://', 'malformed', 'has no host'],
    [42, 'malformed', 'is number, not a string'],
    [null, 'malformed', 'is null, not a string'],
  ];
  it.each(dropped)('drops %j (%s)', (entry, kind, why) => {
    expect(checkSource(entry)).toEqual({ kind, why });
  });
});

describe('checkCsp', () => {
  it('names a field that is not an array, a field the spec does not define, and repeats once', () => {
    const checked = checkCsp({ connectDomains: 'https://a.com', scriptDomains: ['https://b.com'], resourceDomains: ['https://c.com', 'https://C.com/'] });
    expect(checked.ok).toEqual({ ...EMPTY, resourceDomains: ['https://c.com'] });
    expect(checked.problems).toEqual([
      { field: 'connectDomains', entry: 'https://a.com', kind: 'malformed', why: 'is not an array of origins' },
      { field: 'csp', entry: 'scriptDomains', kind: 'ignored', why: 'is not a field the spec defines for a CSP declaration' },
    ]);
  });

  it(`reads at most ${MAX_ENTRIES} entries a field and says how many it left`, () => {
    const many = Array.from({ length: MAX_ENTRIES + 3 }, (_, i) => `https://h${i}.example.com`);
    const checked = checkCsp({ connectDomains: many });
    expect(checked.ok?.connectDomains).toHaveLength(MAX_ENTRIES);
    expect(checked.problems).toEqual([{ field: 'connectDomains', entry: '3 more', kind: 'ignored', why: `only the first ${MAX_ENTRIES} entries are read` }]);
  });
});

describe('allowAttribute', () => {
  it('lists the features asked for, in the spec\'s order, separated as the attribute\'s grammar wants', () => {
    expect(allowAttribute({ clipboardWrite: {}, camera: {}, geolocation: {}, microphone: {} })).toBe('camera; microphone; geolocation; clipboard-write');
    expect(allowAttribute({ microphone: {} })).toBe('microphone');
  });
  it('grants nothing that was not asked for, nor anything unknown', () => {
    expect(allowAttribute(undefined)).toBe('');
    expect(allowAttribute({ camera: false, usb: {}, 'display-capture': {} })).toBe('');
    expect(allowAttribute('camera')).toBe('');
  });
});
