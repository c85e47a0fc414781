/**
 * Test-only (issue 27: moved here from lib/headless/junit.test.ts so that every JUnit writer's
 * tests share it): a strict XML 1.0 well-formedness checker for the files Loupe writes.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const CHAR_OK = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes references, throwing on anything a conforming XML parser would reject. */
export function decode(source: string, where: string, attribute = false): string {
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
export function parseXml(xml: string): XmlElement {
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
