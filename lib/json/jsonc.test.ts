import { describe, expect, it } from 'vitest';
import { lineColumn, parseJsonc, stripJsonComments } from './jsonc.ts';

describe('stripJsonComments', () => {
  it('blanks line comments and keeps the newline', () => {
    expect(stripJsonComments('{"a": 1} // note\n')).toBe('{"a": 1}        \n');
  });

  it('blanks block comments across lines, keeping line breaks', () => {
    const text = '{/* one\ntwo */"a": 1}';
    const stripped = stripJsonComments(text);
    expect(stripped).toHaveLength(text.length);
    expect(stripped.split('\n')).toHaveLength(2);
    expect(JSON.parse(stripped)).toEqual({ a: 1 });
  });

  it('leaves // and /* inside strings alone', () => {
    const text = '{"url": "https://x.test/a", "glob": "src/*.ts", "c": "/* no */"}';
    expect(stripJsonComments(text)).toBe(text);
  });

  it('handles escaped quotes inside strings', () => {
    const text = '{"a": "say \\"// hi\\"", "b": 2} // end';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: 'say "// hi"', b: 2 });
  });

  it('removes trailing commas before } and ], even with comments between', () => {
    const text = '{"a": [1, 2,], "b": {"c": 3, // last\n},\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: [1, 2], b: { c: 3 } });
  });

  it('keeps commas inside strings', () => {
    expect(JSON.parse(stripJsonComments('{"a": ",}"}'))).toEqual({ a: ',}' });
  });

  it('blanks an unterminated block comment to the end', () => {
    expect(stripJsonComments('{} /* open')).toBe('{}' + ' '.repeat(8));
  });

  it('leaves a lone slash for JSON.parse to reject', () => {
    expect(stripJsonComments('{"a": 1 / 2}')).toBe('{"a": 1 / 2}');
  });
});

describe('lineColumn', () => {
  it('is 1-based', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('parseJsonc', () => {
  it('parses JSON with comments', () => {
    expect(parseJsonc('// x\n{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('names the line and column when the engine gives a position', () => {
    const result = parseJsonc('{\n  "a": 1\n  "b": 2\n}');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Invalid JSON at line 3, column 3: /);
  });

  it('reports an early end', () => {
    expect(parseJsonc('{"a": 1')).toMatchObject({ ok: false, error: expect.stringMatching(/^Invalid JSON/) });
  });

  it('keeps the error on one line', () => {
    const result = parseJsonc('{\n "a": }');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).not.toContain('\n');
  });
});
