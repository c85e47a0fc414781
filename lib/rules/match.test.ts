import { describe, expect, it } from 'vitest';
import { PATTERN_TEXT_LIMIT, globMatches, readPattern, testPattern } from './match.ts';

/** Milliseconds a call took: only to tell a hang from an answer, far above what it takes. */
function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

const problem = (pattern: string): string | undefined => {
  const read = readPattern(pattern);
  return read.ok ? undefined : read.problem;
};

describe('globMatches', () => {
  it('matches * as any run of characters and everything else literally', () => {
    expect(globMatches('tools/*', 'tools/call')).toBe(true);
    expect(globMatches('tools/*', 'tools/')).toBe(true);
    expect(globMatches('tools/*', 'prompts/list')).toBe(false);
    expect(globMatches('a.b*', 'a.bcd')).toBe(true);
    expect(globMatches('a.b*', 'axbcd')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('', '')).toBe(true);
    expect(globMatches('', 'x')).toBe(false);
    expect(globMatches('*_file', 'write_file')).toBe(true);
    expect(globMatches('*_file', 'write_files')).toBe(false);
    expect(globMatches('a*b*c', 'aXbYbZc')).toBe(true);
    expect(globMatches('a*b*c', 'aXcYb')).toBe(false);
    expect(globMatches('**x**', 'yxy')).toBe(true);
    expect(globMatches('file://*/etc/*', 'file:///etc/passwd')).toBe(true);
    expect(globMatches('(?)[x]+', '(?)[x]+')).toBe(true);
    expect(globMatches('a*', 'a\nb')).toBe(true);
  });

  it('answers at once on a 400-character name that backtracked for seconds as a RegExp', () => {
    const name = 'a'.repeat(400);
    const miss = timed(() => globMatches('*a*a*a*b', name));
    expect(miss.value).toBe(false);
    expect(globMatches('*a*a*a*b', `${name}b`)).toBe(true);
    const long = timed(() => globMatches(`${'*a'.repeat(50)}*b`, 'a'.repeat(100_000)));
    expect(long.value).toBe(false);
    expect(miss.ms + long.ms).toBeLessThan(1_000);
  });
});

describe('readPattern', () => {
  it('compiles the patterns a gate is made of', () => {
    for (const pattern of ['^/etc/', '^(?!/tmp/)', '\\brm\\b', '^[0-9]{3,}$', '"rm"', 'a.*b', '^https?://[^/]+/.*', 'rm\\s+-r\\s+/', '^[a-z]+\\.[a-z]+$', '(?:ab)+c', '(?<name>x)\\k<name>']) {
      expect(problem(pattern), pattern).toBeUndefined();
    }
    const read = readPattern('^/etc/');
    expect(read.ok && read.regexp.test('/etc/passwd')).toBe(true);
  });

  it('says why a pattern is not a regular expression', () => {
    expect(problem('([')).toMatch(/^is not a valid regular expression: Invalid regular expression: .+/);
  });

  it('refuses a repeat of a part that repeats or chooses: exponential backtracking, in words', () => {
    expect(problem('(a+)+$')).toBe('could stall the proxy: it repeats (a+) with +, a part that itself repeats, so on a crafted argument it backtracks exponentially. Write it without repeating such a part (for example a+ instead of (a+)+).');
    expect(problem('(a|a)*$')).toMatch(/^could stall the proxy: it repeats \(a\|a\) with \*, a part that offers a choice \(\|\)/);
    expect(problem('^(\\.\\w+)+x')).toMatch(/it repeats \(\\\.\\w\+\) with \+, a part that itself repeats/);
    expect(problem('x((a?)b){2,}')).toMatch(/it repeats \(\(a\?\)b\) with \{2,\}/);
  });

  it('refuses repeats that multiply past the limit on a crafted argument', () => {
    expect(problem('.*a.*a.*a.*b')).toMatch(/^could stall the proxy: with 4 open-ended repeats \(\*, \+, \{n,\}\) and no \^ at its start, a crafted argument could make it backtrack about .+ steps \(Loupe allows 100 million; an argument longer than 4096 characters always matches\)\. Use fewer repeats, or anchor the pattern with \^/);
    expect(problem('(.*)\\1x')).toMatch(/^could stall the proxy: with 1 open-ended repeat /);
    expect(problem('^(?:a*a*){9}$')).toMatch(/^could stall the proxy: with 2 open-ended repeats \(\*, \+, \{n,\}\), a crafted/);
  });

  it('keeps what it accepts fast on the texts that make backtracking worst', () => {
    const texts = ['a'.repeat(PATTERN_TEXT_LIMIT), ' '.repeat(PATTERN_TEXT_LIMIT), 'ab'.repeat(PATTERN_TEXT_LIMIT / 2), 'rm '.repeat(PATTERN_TEXT_LIMIT / 3)];
    for (const pattern of ['a.*b', 'rm\\s+-r\\s+/', '^a.*a.*b', '(?:a|b)\\s*x']) {
      const read = readPattern(pattern);
      if (!read.ok) throw new Error(`${pattern}: ${read.problem}`);
      for (const text of texts) expect(timed(() => testPattern(read.regexp, `${text}!`)).ms, pattern).toBeLessThan(1_000);
    }
  });
});

describe('testPattern', () => {
  it('tests an argument up to PATTERN_TEXT_LIMIT characters; a longer one matches untested (fails closed)', () => {
    const read = readPattern('x$');
    if (!read.ok) throw new Error(read.problem);
    expect(testPattern(read.regexp, `${'a'.repeat(PATTERN_TEXT_LIMIT - 1)}x`)).toBe(true);
    expect(testPattern(read.regexp, `${'a'.repeat(PATTERN_TEXT_LIMIT - 1)}y`)).toBe(false);
    expect(testPattern(read.regexp, `${'a'.repeat(PATTERN_TEXT_LIMIT)}y`)).toBe(true);
  });
});
