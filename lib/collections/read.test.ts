import { describe, expect, it } from 'vitest';
import { readCollectionFile, readCollections } from './read.ts';

const call = (extra: Record<string, unknown> = {}) => ({ name: 'echo hi', kind: 'tool', target: 'echo', arguments: { message: 'hi' }, ...extra });
const file = (calls: unknown[], more: Record<string, unknown> = {}) => JSON.stringify({ collections: [{ name: 'basics', calls, ...more }] });

function errorOf(text: string): string {
  const read = readCollectionFile(text);
  if (read.ok) throw new Error('expected an error');
  return read.error;
}

describe('readCollectionFile', () => {
  it('reads a collection file, with comments and trailing commas (JSONC)', () => {
    const text = `{
      // the basics
      "collections": [{
        "name": "basics",
        "variables": { "who": "Ada", },
        "calls": [
          { "name": "echo", "kind": "tool", "target": "echo", "arguments": { "message": "{{who}}" },
            "assert": [{ "isError": false }, { "path": "$.content[0].text", "equals": "Echo: Ada" }],
            "extract": { "said": "$.content[0].text" } },
        ],
      }],
    }`;
    const read = readCollectionFile(text);
    expect(read).toEqual({
      ok: true,
      notes: [],
      collections: [{
        name: 'basics',
        variables: { who: 'Ada' },
        calls: [{ name: 'echo', kind: 'tool', target: 'echo', arguments: { message: '{{who}}' }, assert: [{ isError: false }, { path: '$.content[0].text', equals: 'Echo: Ada' }], extract: { said: '$.content[0].text' } }],
      }],
    });
  });

  it('reads the collections of a workspace file, under x-mcp-loupe', () => {
    const text = JSON.stringify({ mcpServers: { a: { command: 'x' } }, 'x-mcp-loupe': { version: 1, collections: [{ name: 'c', calls: [call()] }] } });
    const read = readCollectionFile(text);
    expect(read.ok && read.collections.map((c) => c.name)).toEqual(['c']);
  });

  it('says when there is no list, and when the JSON does not parse (with the line)', () => {
    expect(errorOf('{"servers": {}}')).toContain('The file has no "collections" list');
    expect(errorOf('{\n  "collections": [\n  }')).toMatch(/^Invalid JSON/);
    expect(errorOf('{"collections": {}}')).toBe('collections: is not a list of collections.');
    expect(errorOf(JSON.stringify({ 'x-mcp-loupe': { collections: 3 } }))).toBe('x-mcp-loupe.collections: is not a list of collections.');
  });

  it('names the place of a wrong field in plain words', () => {
    expect(errorOf(file([call({ kind: 'tools' })]))).toMatch(/^collections\[0\]\.calls\[0\]\.kind: expected one of "tool"\|"resource"\|"prompt"\|"request"/);
    expect(errorOf(file([call({ target: undefined })]))).toBe('collections[0].calls[0].target: is missing (expected a string)');
    expect(errorOf(file([call({ name: 7 })]))).toBe('collections[0].calls[0].name: expected a string, found a number');
    expect(errorOf(file([call({ timeoutMs: -1 })]))).toMatch(/^collections\[0\]\.calls\[0\]\.timeoutMs: /);
    expect(errorOf(JSON.stringify({ collections: [{ name: 'x' }] }))).toBe('collections[0].calls: is missing; a collection is a list of calls.');
    expect(errorOf(JSON.stringify({ collections: ['x'] }))).toBe('collections[0]: is not an object with "name" and "calls".');
  });

  it('says what is wrong with an assertion, at its index', () => {
    const at = (assertion: unknown) => errorOf(file([call(), call({ name: 'second', assert: [{ isError: false }, assertion] })]));
    expect(at({ path: '$.a', equal: 1 })).toBe('collections[0].calls[1].assert[1]: a "path" needs exactly one of "equals", "matches", "type", "exists" beside it.');
    expect(at({ pth: '$.a' })).toMatch(/^collections\[0\]\.calls\[1\]\.assert\[1\]: says nothing to check \(its keys: "pth"\); an assertion is one of isError, path with/);
    expect(at({ isError: false, textContains: 'x' })).toBe('collections[0].calls[1].assert[1]: mixes "isError" and "textContains"; write each check as an assertion of its own.');
    expect(at({ isError: 'no' })).toBe('collections[0].calls[1].assert[1].isError: expected a boolean, found a string');
    expect(at({ path: '$.a', type: 'float' })).toMatch(/^collections\[0\]\.calls\[1\]\.assert\[1\]\.type: expected one of "string"\|"number"\|"integer"/);
    expect(at({ textContains: 'x', why: 'y' })).toBe('collections[0].calls[1].assert[1]: "why" is not part of a "textContains" assertion; write each check as an assertion of its own.');
    expect(at({ durationUnderMs: 0 })).toMatch(/^collections\[0\]\.calls\[1\]\.assert\[1\]\.durationUnderMs: /);
    expect(at('isError')).toMatch(/^collections\[0\]\.calls\[1\]\.assert\[1\]: is not an object/);
  });

  it('gives the JSONPath reader’s sentence for a bad path, in an assertion or an extract', () => {
    expect(errorOf(file([call({ assert: [{ path: '$.content[0', equals: 1 }] })]))).toBe(
      'collections[0].calls[0].assert[0].path: The path "$.content[0" is not valid: "[" is not closed with "]" at character 10. Write it as a JSONPath starting with $, for example $..timestamp or $.content[0].text.',
    );
    expect(errorOf(file([call({ assert: [{ path: 'content', equals: 1 }] })]))).toMatch(/^collections\[0\]\.calls\[0\]\.assert\[0\]\.path: The path "content" is not valid: it does not start with \$/);
    expect(errorOf(file([call({ extract: { id: '$.a b' } })]))).toMatch(/^collections\[0\]\.calls\[0\]\.extract\.id: The path "\$\.a b" is not valid: unexpected " "/);
  });

  it('refuses a pattern that is not a regular expression or that could stall (the rules’ check)', () => {
    expect(errorOf(file([call({ assert: [{ path: '$.a', matches: '(' }] })]))).toMatch(/^collections\[0\]\.calls\[0\]\.assert\[0\]\.matches: "\(" is not a valid regular expression/);
    expect(errorOf(file([call({ assert: [{ path: '$.a', matches: '(a+)+$' }] })]))).toMatch(/^collections\[0\]\.calls\[0\]\.assert\[0\]\.matches: "\(a\+\)\+\$" could stall/);
  });

  it('refuses two collections or two calls of one collection with the same name', () => {
    expect(errorOf(JSON.stringify({ collections: [{ name: 'a', calls: [] }, { name: 'a', calls: [] }] }))).toBe('collections[1].name: the collection name "a" is used twice; each collection needs its own.');
    expect(errorOf(file([call(), call({ name: 'x' }), call()]))).toBe('collections[0].calls[2].name: the call name "echo hi" is used twice in collection "basics"; each call needs its own (it names the test in reports).');
    // The same call name in two collections is fine.
    const read = readCollectionFile(JSON.stringify({ collections: [{ name: 'a', calls: [call()] }, { name: 'b', calls: [call()] }] }));
    expect(read.ok).toBe(true);
  });

  it('notes keys it does not know, and params on a call that sends arguments; the file still loads', () => {
    const read = readCollections([{ name: 'c', colour: 'red', calls: [call({ retries: 3, params: { a: 1 } })] }]);
    expect(read).toMatchObject({ ok: true, notes: ['collections[0]: "colour" is not a key Loupe knows; it is ignored.', 'collections[0].calls[0]: "retries" is not a key Loupe knows; it is ignored.', 'collections[0].calls[0].params: is for "kind": "request"; a tool call sends its "arguments" (the params are ignored).'] });
    expect(read.ok && read.collections[0]).toEqual({ name: 'c', calls: [call({ params: { a: 1 } })] });
  });
});
