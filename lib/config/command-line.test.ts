import { describe, expect, it } from 'vitest';
import { formatEnvLines, formatHeaderLines, joinArgs, parseCommandLine, parseEnvLines, parseHeaderLines, splitArgs } from './command-line.ts';

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

describe('splitArgs: Windows paths and line continuations', () => {
  it('keeps backslashes of Windows paths and before ordinary characters', () => {
    expect(splitArgs('C:\\srv\\main.js \\\\host\\share\\x.js C:\\\\double')).toEqual({ ok: true, args: ['C:\\srv\\main.js', '\\\\host\\share\\x.js', 'C:\\\\double'] });
    expect(splitArgs('"C:\\Program Files\\nodejs\\node.exe"')).toEqual({ ok: true, args: ['C:\\Program Files\\nodejs\\node.exe'] });
  });
  it('a backslash-newline joins lines, as a shell does', () => {
    expect(splitArgs('npx -y \\\n  pkg \\\r\n --flag')).toEqual({ ok: true, args: ['npx', '-y', 'pkg', '--flag'] });
  });
});

describe('parseCommandLine', () => {
  const parsed = (line: string) => {
    const result = parseCommandLine(line);
    if (!result.ok) throw new Error(result.error);
    return result.value;
  };
  const error = (line: string): string => {
    const result = parseCommandLine(line);
    if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
    return result.error;
  };

  it('splits the example of the spec', () => {
    expect(parsed(`API_KEY=x FOO='a b' npx -y pkg --flag "q"`)).toEqual({ command: 'npx', args: ['-y', 'pkg', '--flag', 'q'], env: { API_KEY: 'x', FOO: 'a b' } });
  });
  it('KEY=value after the command is an argument', () => {
    expect(parsed('node srv.js PORT=1 --x=y')).toEqual({ command: 'node', args: ['srv.js', 'PORT=1', '--x=y'], env: {} });
  });
  it('the env form', () => {
    expect(parsed('env A=1 B="two words" uvx mcp-server-fetch')).toEqual({ command: 'uvx', args: ['mcp-server-fetch'], env: { A: '1', B: 'two words' } });
  });
  it('a quoted name is not an assignment; values keep "=" and may be empty', () => {
    expect(parsed('"A=1" x')).toEqual({ command: 'A=1', args: ['x'], env: {} });
    expect(parsed('T=a=b E= srv')).toEqual({ command: 'srv', args: [], env: { T: 'a=b', E: '' } });
  });
  it('keeps escapes, quotes and Windows paths', () => {
    expect(parsed(`C:\\tools\\srv.exe --root "C:\\My Data" it\\'s`)).toEqual({ command: 'C:\\tools\\srv.exe', args: ['--root', 'C:\\My Data', "it's"], env: {} });
  });
  it('does not expand $VAR', () => {
    expect(parsed('TOKEN=$TOKEN srv')).toEqual({ command: 'srv', args: [], env: { TOKEN: '$TOKEN' } });
  });
  it('names the column of an unbalanced quote', () => {
    expect(error('npx -y "pkg')).toBe('Unclosed double quote at column 8');
    expect(error("A='x srv")).toBe('Unclosed single quote at column 3');
    expect(error('srv \\')).toBe('Trailing backslash at column 5');
  });
  it('refuses shell operators and env options, naming the column', () => {
    expect(error('srv | tee log')).toBe('Shell operator "|" at column 5: paste one command (Loupe runs no shell).');
    expect(error('a && b')).toMatch(/"&&" at column 3/);
    expect(error('env -i srv')).toMatch(/^"env -i" at column 5/);
    expect(parsed('srv "|" \\;')).toEqual({ command: 'srv', args: ['|', ';'], env: {} });
  });
  it('needs a command', () => {
    expect(error('   ')).toBe('The command line is empty.');
    expect(error('A=1 B=2')).toBe('The command line sets variables but names no command.');
    expect(error('env')).toBe('The command line sets variables but names no command.');
  });
});
