import { describe, expect, it } from 'vitest';
import { escapeXml, junitXml, type JunitSuite } from './junit.ts';

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const CHAR_OK = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes references, throwing on anything a conforming XML parser would reject. */
function decode(source: string, where: string, attribute = false): string {
  // What every XML parser does first: line ends become \n (a literal \r is lost), and in an
  // attribute value each literal tab or line end becomes a space.
  const lines = source.replace(/\r\n?/g, '\n');
  const raw = attribute ? lines.replace(/[\t\n]/g, ' ') : lines;
  if (!CHAR_OK.test(raw)) throw new Error(`a character XML 1.0 does not allow in ${where}`);
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`a bare & in ${where}`);
    if (ENTITIES[ref]) return ENTITIES[ref];
    const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
    if (!m) throw new Error(`unknown entity &${ref}; in ${where}`);
    const char = String.fromCodePoint(m[1] ? parseInt(m[1], 16) : Number(m[2]));
    if (!CHAR_OK.test(char)) throw new Error(`a reference to a character XML 1.0 does not allow in ${where}`);
    return char;
  });
}

/** A strict little XML 1.0 well-formedness checker (no DTDs, comments or CDATA: the writer makes none). */
function parseXml(xml: string): XmlElement {
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  if (body === xml) throw new Error('no XML declaration');
  const stack: XmlElement[] = [{ name: '#document', attrs: {}, children: [], text: '' }];
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/y;
  let i = 0;
  while (i < body.length) {
    const lt = body.indexOf('<', i);
    const text = body.slice(i, lt < 0 ? body.length : lt);
    if (text.includes('>') && text.includes(']]>')) throw new Error(']]> in text');
    stack[stack.length - 1].text += decode(text, 'text');
    if (lt < 0) break;
    tag.lastIndex = lt;
    const m = tag.exec(body);
    if (!m) throw new Error(`a malformed tag at ${lt}: ${body.slice(lt, lt + 40)}`);
    const [whole, closing, name, attrText, selfClosing] = m;
    i = lt + whole.length;
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}>`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      if (a[1] in attrs) throw new Error(`attribute ${a[1]} twice`);
      attrs[a[1]] = decode(a[2], `attribute ${a[1]}`, true);
    }
    const element: XmlElement = { name, attrs, children: [], text: '' };
    stack[stack.length - 1].children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1].name}> is never closed`);
  const roots = stack[0].children;
  if (roots.length !== 1 || stack[0].text.trim() !== '') throw new Error('not exactly one root element');
  return roots[0];
}

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
