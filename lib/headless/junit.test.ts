import { describe, expect, it } from 'vitest';
import { escapeXml, junitXml, type JunitSuite } from './junit.ts';
import { parseXml } from '../../proxy/testing/strict-xml.ts';

const HOSTILE = 'tool <b>&amp; "q" \'a\' ]]> \u0000\u0001\u001b[31m\u007f\u0085 \uFFFE \uD800 tab\tnl\ncr\r 😀 é';
const suite: JunitSuite = {
  name: 'mcp-loupe smoke: <srv>',
  timestamp: '2025-01-01T00:00:00.000Z',
  timeMs: 1234,
  properties: { server: 'a "b" <c>' },
  cases: [
    { name: 'ok', classname: 'good', timeMs: 5 },
    { name: HOSTILE, classname: HOSTILE, timeMs: 12, failure: { message: HOSTILE, type: 'isError', text: HOSTILE }, systemOut: HOSTILE, systemErr: 'stderr\n' },
    { name: 'boom', classname: 'crash', error: { message: 'The server exited with code 3.', type: 'crash' } },
    { name: 'later', classname: 'task', skipped: 'The server has no tasks capability.' },
  ],
};

describe('junitXml', () => {
  it('is well-formed XML with the counts and elements JUnit readers look for', () => {
    const root = parseXml(junitXml(suite));
    expect(root).toMatchObject({ name: 'testsuites', attrs: { tests: '4', failures: '1', errors: '1', skipped: '1', time: '1.234' } });
    const [testsuite] = root.children;
    expect(testsuite.attrs).toEqual({ name: 'mcp-loupe smoke: <srv>', tests: '4', failures: '1', errors: '1', skipped: '1', time: '1.234', timestamp: '2025-01-01T00:00:00.000Z' });
    expect(testsuite.children.map((c) => c.name)).toEqual(['properties', 'testcase', 'testcase', 'testcase', 'testcase']);
    expect(testsuite.children[0].children[0].attrs).toEqual({ name: 'server', value: 'a "b" <c>' });
    const [, ok, bad, boom, later] = testsuite.children;
    expect(ok).toEqual({ name: 'testcase', attrs: { name: 'ok', classname: 'good', time: '0.005' }, children: [], text: '' });
    expect(bad.children.map((c) => c.name)).toEqual(['failure', 'system-out', 'system-err']);
    expect(boom.children[0]).toMatchObject({ name: 'error', attrs: { message: 'The server exited with code 3.', type: 'crash' } });
    expect(later.children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'The server has no tasks capability.' } });
  });

  it('carries hostile server text through: what XML can hold exactly, the rest as visible \\u escapes', () => {
    const root = parseXml(junitXml(suite));
    const bad = root.children[0].children[2];
    const expected = 'tool <b>&amp; "q" \'a\' ]]> \\u0000\\u0001\\u001B[31m\\u007F\\u0085 \\uFFFE \\uD800 tab\tnl\ncr\r 😀 é';
    expect(bad.attrs.name).toBe(expected);
    expect(bad.attrs.classname).toBe(expected);
    expect(bad.children[0].attrs.message).toBe(expected);
    expect(bad.children[0].text).toBe(expected);
    expect(bad.children[1].text).toBe(expected);
  });

  it('an empty suite list is still a document', () => {
    expect(parseXml(junitXml([]))).toMatchObject({ name: 'testsuites', attrs: { tests: '0' }, children: [] });
  });
});

describe('the checker these tests trust', () => {
  it('rejects what a real XML parser rejects', () => {
    const doc = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<a>${inner}</a>`;
    expect(() => parseXml(doc('ok &amp; fine'))).not.toThrow();
    expect(() => parseXml(doc('bare & amp'))).toThrow(/bare &/);
    expect(() => parseXml(doc('\u0001'))).toThrow(/does not allow/);
    expect(() => parseXml(doc('&#1;'))).toThrow(/does not allow/);
    expect(() => parseXml(doc('<b x="1" x="2"/>'))).toThrow(/twice/);
    expect(() => parseXml(doc('<b x="<"/>'))).toThrow(/malformed/);
    expect(() => parseXml(doc('<b>'))).toThrow(/closes|never closed/);
  });
});

describe('escapeXml', () => {
  it('escapes markup and, in attributes, the whitespace attribute normalisation would eat', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
    expect(escapeXml('a\tb\nc\rd', true)).toBe('a&#9;b&#10;c&#13;d');
    expect(escapeXml('a\tb\nc\rd', false)).toBe('a\tb\nc&#13;d');
  });

  it('never lets an ESC sequence or a NUL into the file', () => {
    expect(escapeXml('\u001b[2J\u0000')).toBe('\\u001B[2J\\u0000');
  });
});
