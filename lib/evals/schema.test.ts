import { describe, expect, it } from 'vitest';
import { parseEvalFile, readEvalData } from './schema.ts';

const FILE = `{
  // JSONC: comments and trailing commas are fine
  "cases": [
    {
      "name": "echo the greeting",
      "prompt": "Use the echo tool to say hello",
      "expect": {
        "tools": [{ "name": "echo", "arguments": { "message": { "contains": "hello" } } }],
        "forbid": ["wipe"],
        "answerContains": ["hello"],
        "maxSteps": 4,
      },
    },
    { "name": "add", "prompt": "What is 2 + 3?", "system": "Use the tools.", "expect": { "tools": [{ "name": "get-sum", "arguments": { "a": 2, "b": { "type": "number" } } }], "order": "exact", "answerMatches": "/5/" } },
  ],
  "models": ["anthropic:claude-sonnet-4-5", "openai-compatible:http://127.0.0.1:11434/v1#llama3.1"],
  "repeats": 3,
  "prices": { "anthropic:claude-sonnet-4-5": { "input": 3, "output": 15 } },
}`;

const error = (data: unknown) => {
  const read = readEvalData(data);
  return read.ok ? '' : read.error;
};
const one = (c: Record<string, unknown>) => ({ cases: [{ name: 'c', prompt: 'p', expect: {}, ...c }] });

describe('the eval file', () => {
  it('reads JSONC with every field', () => {
    const read = parseEvalFile(FILE);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.file.cases.map((c) => c.name)).toEqual(['echo the greeting', 'add']);
    expect(read.file.cases[0].expect.tools?.[0].arguments).toEqual({ message: { contains: 'hello' } });
    expect(read.file.repeats).toBe(3);
    expect(read.file.prices?.['anthropic:claude-sonnet-4-5']).toEqual({ input: 3, output: 15 });
  });

  it('names where each problem is', () => {
    expect(parseEvalFile('{ "cases": [ }')).toMatchObject({ ok: false, error: expect.stringMatching(/^The eval file is not JSON: Invalid JSON/) });
    expect(error({ cases: [{ name: 'c', prompt: 'p', expect: { tool: [] } }] })).toBe('The eval file is not valid: cases[0].expect: Unrecognized key: "tool".');
    expect(error(one({ prompt: '' }))).toContain('cases[0].prompt:');
    expect(error({ cases: [], repeats: 0 })).toContain('repeats:');
    expect(error(one({ expect: { answerMatches: '(' } }))).toContain('cases[0].expect.answerMatches: "(" is not a regular expression');
    expect(error(one({ expect: { tools: [{ name: 'x', arguments: { a: { matches: '[' } } }] } }))).toContain('cases[0].expect.tools[0].arguments: arguments.a: "[" is not a regular expression');
    expect(error(one({ expect: { tools: [{ name: 'wipe' }], forbid: ['wipe'] } }))).toContain('cases[0].expect: "wipe" is both expected and forbidden');
    expect(error({ cases: [{ name: 'c', prompt: 'p', expect: {} }, { name: 'c', prompt: 'q', expect: {} }] })).toContain('cases[1].name: another case is named "c"');
    expect(error({ ...one({}), models: ['gpt-4o'] })).toContain('models[0]: The model "gpt-4o" does not start with a provider');
  });
});
