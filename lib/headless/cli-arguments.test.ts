import { describe, expect, it } from 'vitest';
import { closestNames, parseKeyValues, parsePromptArgs, unknownNameMessage } from './cli-arguments.ts';

const schema = { type: 'object', properties: { zip: { type: 'string' }, n: { type: 'number' }, any: {} } };

describe('parseKeyValues', () => {
  it('reads JSON values as JSON and the rest as text', () => {
    expect(parseKeyValues(['n=5', 'on=true', 'o={"a":1}', 'list=[1,2]', 'word=hello', 'empty='])).toEqual({
      ok: true,
      value: { n: 5, on: true, o: { a: 1 }, list: [1, 2], word: 'hello', empty: '' },
    });
  });
  it('keeps the text where the schema wants a string', () => {
    expect(parseKeyValues(['zip=01234', 'n=01234', 'any=42'], schema)).toEqual({ ok: true, value: { zip: '01234', n: '01234', any: 42 } });
    expect(parseKeyValues(['zip=42'], schema)).toEqual({ ok: true, value: { zip: '42' } });
  });
  it('forces JSON with := and says when it is not JSON', () => {
    expect(parseKeyValues(['zip:=42'], schema)).toEqual({ ok: true, value: { zip: 42 } });
    const bad = parseKeyValues(['n:={oops'], schema);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/n:= expects JSON/);
  });
  it('refuses a pair without a key or an =', () => {
    expect(parseKeyValues(['novalue']).ok).toBe(false);
    expect(parseKeyValues(['=x']).ok).toBe(false);
    expect(parseKeyValues([':=1']).ok).toBe(false);
  });
  it('keeps = inside values', () => {
    expect(parseKeyValues(['q=a=b'])).toEqual({ ok: true, value: { q: 'a=b' } });
  });
});

describe('parsePromptArgs', () => {
  it('keeps every value a string (the spec says prompt arguments are strings)', () => {
    expect(parsePromptArgs(['n=5', 'city=Lisbon'])).toEqual({ ok: true, value: { n: '5', city: 'Lisbon' } });
  });
});

describe('closestNames', () => {
  it('prefers names that contain what was typed, then the nearest by edits', () => {
    expect(closestNames('echo', ['get-sum', 'echo-twice', 'ping'])[0]).toBe('echo-twice');
    expect(closestNames('ecko', ['get-sum', 'echo', 'ping'])[0]).toBe('echo');
    expect(unknownNameMessage('tool', 'ecko', ['echo', 'get-sum'])).toBe('No tool named "ecko". Closest: echo, get-sum.');
    expect(unknownNameMessage('tool', 'x', [])).toMatch(/lists no tools/);
  });
});
