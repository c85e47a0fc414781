import { describe, expect, it } from 'vitest';
import { formatEnvLines, formatHeaderLines, joinArgs, parseEnvLines, parseHeaderLines, splitArgs } from './command-line.ts';

describe('splitArgs', () => {
  const cases: Array<[string, string[]]> = [
    ['', []],
    ['   ', []],
    ['a b  c', ['a', 'b', 'c']],
    ['--root "/path with spaces"', ['--root', '/path with spaces']],
    ["'it''s'", ['its']],
    ["'a \"b\" c'", ['a "b" c']],
    ['"say \\"hi\\""', ['say "hi"']],
    ['"back\\\\slash" "keep\\n"', ['back\\slash', 'keep\\n']],
    ['a\\ b', ['a b']],
    ['""', ['']],
    ["x '' y", ['x', '', 'y']],
    ['pre"mid"post', ['premidpost']],
    ['tab\tsep\nline', ['tab', 'sep', 'line']],
  ];
  it.each(cases)('splits %j', (line, expected) => {
    expect(splitArgs(line)).toEqual({ ok: true, args: expected });
  });

  it('reports unclosed quotes and trailing backslashes', () => {
    expect(splitArgs('"open')).toEqual({ ok: false, error: 'Unclosed double quote' });
    expect(splitArgs("'open")).toEqual({ ok: false, error: 'Unclosed single quote' });
    expect(splitArgs('end\\')).toEqual({ ok: false, error: 'Trailing backslash' });
  });
});

describe('joinArgs', () => {
  it('round-trips through splitArgs', () => {
    const samples = [['plain', '--flag=1'], ['with space', "it's", '', 'a"b', 'back\\slash', '$HOME', 'ünï']];
    for (const args of samples) {
      expect(splitArgs(joinArgs(args))).toEqual({ ok: true, args });
    }
  });
  it('leaves simple words unquoted', () => {
    expect(joinArgs(['-y', '@scope/pkg@1.2', 'dir/file.js'])).toBe('-y @scope/pkg@1.2 dir/file.js');
  });
});

describe('environment lines', () => {
  it('parses KEY=VALUE, skipping blanks and comments; values keep "="', () => {
    expect(parseEnvLines('A=1\n\n# note\nB = x=y\nEMPTY=')).toEqual({ ok: true, record: { A: '1', B: ' x=y', EMPTY: '' } });
  });
  it('names the bad line', () => {
    expect(parseEnvLines('A=1\nnot a pair')).toEqual({ ok: false, error: 'Environment line 2: expected KEY=VALUE' });
    expect(parseEnvLines('1X=2')).toMatchObject({ ok: false });
  });
  it('formats back', () => {
    expect(formatEnvLines({ A: '1', B: 'x=y' })).toBe('A=1\nB=x=y');
  });
});

describe('header lines', () => {
  it('parses "Name: value"', () => {
    expect(parseHeaderLines('Authorization: Bearer abc:def\r\nX-Empty:')).toEqual({
      ok: true,
      record: { Authorization: 'Bearer abc:def', 'X-Empty': '' },
    });
  });
  it('rejects lines without a valid name', () => {
    expect(parseHeaderLines('no colon here')).toMatchObject({ ok: false });
    expect(parseHeaderLines('bad name: x')).toMatchObject({ ok: false, error: 'Headers line 1: expected "Name: value"' });
  });
  it('formats back', () => {
    expect(formatHeaderLines({ A: '1' })).toBe('A: 1');
  });
});
