import { describe, expect, it } from 'vitest';
import { textLines } from './text-lines.ts';

describe('textLines', () => {
  it('splits at line breaks, keeping empty lines', () => {
    expect(textLines('a\nb\n\nc')).toEqual(['a', 'b', '', 'c']);
    expect(textLines('')).toEqual(['']);
    expect(textLines('x\n')).toEqual(['x', '']);
  });

  it('cuts long lines into segments', () => {
    expect(textLines('abcdefg\nhi', 3)).toEqual(['abc', 'def', 'g', 'hi']);
    expect(textLines('abcdef', 3)).toEqual(['abc', 'def']);
  });

  it('handles 20 MB of short lines', () => {
    expect(textLines('line of text\n'.repeat(1_600_000)).length).toBe(1_600_001);
  });
});
