import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8-length.ts';

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it('counts as TextEncoder does: ASCII, two-, three- and four-byte characters, lone surrogates', () => {
    for (const text of ['', 'plain ascii', 'é', '€ and ü', '😀', 'a\ud800b', '\udc00', 'x'.repeat(10) + '😀'.repeat(3)]) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(encoded(text));
    }
  });

  it('keeps a surrogate pair whole across the slices it encodes a long text in', () => {
    // The pair straddles the 64 Ki boundary: split, it would count 6 bytes instead of 4.
    const text = 'a'.repeat(64 * 1024 - 1) + '😀' + 'é'.repeat(70_000) + '😀';
    expect(utf8Length(text)).toBe(encoded(text));
  });

  it('measures megabytes', () => {
    const text = 'BEGIN>' + 'x'.repeat(5 * 1024 * 1024) + '<END';
    expect(utf8Length(text)).toBe(text.length);
    expect(utf8Length(text + '€')).toBe(text.length + 3);
  });
});
