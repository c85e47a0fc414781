import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown.ts';

describe('parseMarkdown', () => {
  it('reads headings, paragraphs, lists, quotes, code and rules', () => {
    const blocks = parseMarkdown('# Title\n\nSome *em* and **strong** text\nwrapped.\n\n- one\n- two\n\n1. first\n\n> quoted\n\n```ts\nconst x = "<b>";\n```\n---\n');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'quote', 'code', 'rule']);
    expect(blocks[0]).toEqual({ kind: 'heading', level: 1, inline: [{ kind: 'text', text: 'Title' }] });
    expect(blocks[2]).toMatchObject({ ordered: false, items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]] });
    expect(blocks[5]).toEqual({ kind: 'code', lang: 'ts', text: 'const x = "<b>";' });
  });

  it('keeps raw HTML as text and never loses a line', () => {
    const blocks = parseMarkdown('<script>alert(1)</script>\n<img src=x onerror=alert(2)>');
    expect(blocks).toEqual([{ kind: 'paragraph', inline: [{ kind: 'text', text: '<script>alert(1)</script> <img src=x onerror=alert(2)>' }] }]);
    expect(parseMarkdown('```\nunclosed')).toEqual([{ kind: 'code', lang: undefined, text: 'unclosed' }]);
  });
});

describe('parseInline', () => {
  it('reads code, links and images as data, not markup', () => {
    expect(parseInline('see [docs](https://x.test/a "t") and ![logo](data:x) and `a*b*`')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'docs', href: 'https://x.test/a' },
      { kind: 'text', text: ' and ' },
      { kind: 'image', alt: 'logo', src: 'data:x' },
      { kind: 'text', text: ' and ' },
      { kind: 'code', text: 'a*b*' },
    ]);
  });
});
