/**
 * A small Markdown reader for resource contents: text only. It recognises headings, paragraphs,
 * lists, block quotes, fenced code, rules and the common inline marks; everything else stays text.
 * No HTML passes through (raw HTML in Markdown is shown as the characters it is), links are shown
 * with their address as text and never followed, images are named, never loaded.
 */

export type MdInline =
  | { kind: 'text' | 'code' | 'strong' | 'em'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'image'; alt: string; src: string };

export type MdBlock =
  | { kind: 'heading'; level: number; inline: MdInline[] }
  | { kind: 'paragraph'; inline: MdInline[] }
  | { kind: 'quote'; inline: MdInline[] }
  | { kind: 'list'; ordered: boolean; items: MdInline[][] }
  | { kind: 'code'; lang?: string; text: string }
  | { kind: 'rule' };

/** Markdown longer than this is shown as plain text. */
export const MARKDOWN_LIMIT = 512 * 1024;

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|!\[([^\]]*)\]\(([^)\s]*)[^)]*\)|\[([^\]]+)\]\(([^)\s]*)[^)]*\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_/g;

/** Inline marks of one paragraph. */
export function parseInline(text: string): MdInline[] {
  const out: MdInline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: m[2] });
    else if (m[3] !== undefined) out.push({ kind: 'image', alt: m[3], src: m[4] });
    else if (m[5] !== undefined) out.push({ kind: 'link', text: m[5], href: m[6] });
    else if (m[7] !== undefined || m[8] !== undefined) out.push({ kind: 'strong', text: m[7] ?? m[8] });
    else out.push({ kind: 'em', text: m[9] ?? m[10] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^(```+|~~~+)\s*([^\s`]*)/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

interface Cursor {
  lines: string[];
  i: number;
}

function readFence(c: Cursor, open: RegExpExecArray): MdBlock {
  const body: string[] = [];
  c.i += 1;
  while (c.i < c.lines.length && !c.lines[c.i].trimStart().startsWith(open[1])) body.push(c.lines[c.i++]);
  c.i += 1;
  return { kind: 'code', lang: open[2] || undefined, text: body.join('\n') };
}

function readList(c: Cursor, ordered: boolean): MdBlock {
  const pattern = ordered ? NUMBERED : BULLET;
  const items: MdInline[][] = [];
  for (let m = pattern.exec(c.lines[c.i]); c.i < c.lines.length && m; m = pattern.exec(c.lines[c.i] ?? '')) {
    items.push(parseInline(m[1]));
    c.i += 1;
  }
  return { kind: 'list', ordered, items };
}

function readRun(c: Cursor, quote: boolean): MdBlock {
  const parts: string[] = [];
  while (c.i < c.lines.length) {
    const line = c.lines[c.i];
    if (line.trim() === '' || (quote !== line.startsWith('>')) || (!quote && startsBlock(line))) break;
    parts.push(quote ? line.replace(/^>\s?/, '') : line.trim());
    c.i += 1;
  }
  return { kind: quote ? 'quote' : 'paragraph', inline: parseInline(parts.join(' ')) };
}

function startsBlock(line: string): boolean {
  return HEADING.test(line) || FENCE.test(line.trimStart()) || BULLET.test(line) || NUMBERED.test(line) || RULE.test(line) || line.startsWith('>');
}

/** Markdown text → blocks; never throws. */
export function parseMarkdown(text: string): MdBlock[] {
  const c: Cursor = { lines: text.replace(/\r\n?/g, '\n').split('\n'), i: 0 };
  const blocks: MdBlock[] = [];
  while (c.i < c.lines.length) {
    const before = c.i;
    readBlock(c, blocks);
    if (c.i === before) c.i += 1; // never stall on a line nothing claimed
  }
  return blocks;
}

function readBlock(c: Cursor, blocks: MdBlock[]): void {
  const line = c.lines[c.i];
  const heading = HEADING.exec(line);
  const fence = FENCE.exec(line.trimStart());
  if (line.trim() === '') c.i += 1;
  else if (fence) blocks.push(readFence(c, fence));
  else if (heading) {
    blocks.push({ kind: 'heading', level: heading[1].length, inline: parseInline(heading[2]) });
    c.i += 1;
  } else if (RULE.test(line)) {
    blocks.push({ kind: 'rule' });
    c.i += 1;
  } else if (BULLET.test(line)) blocks.push(readList(c, false));
  else if (NUMBERED.test(line)) blocks.push(readList(c, true));
  else blocks.push(readRun(c, line.startsWith('>')));
}
