import { describe, expect, it } from 'vitest';
import { draftOf, emptyCase, fileOf, type EvalDraft } from './draft.ts';
import type { EvalFile } from './schema.ts';

const FILE: EvalFile = {
  cases: [
    { name: 'echo', prompt: 'Say hi', system: 'Use the tools.', expect: { tools: [{ name: 'echo', arguments: { message: { contains: 'hi' } } }, { name: 'get-sum' }], order: 'subsequence', forbid: ['wipe', 'drop'], answerContains: ['hi', 'there'], answerMatches: '/hi/i', maxSteps: 4 } },
    { name: 'bare', prompt: 'p', expect: {} },
  ],
  models: ['openai:gpt-x'],
  repeats: 2,
  prices: { 'openai:gpt-x': { input: 1, output: 2 } },
};

describe('the page’s draft of an eval file', () => {
  it('reads a file into fields and writes the same file back', () => {
    const draft = draftOf(FILE);
    expect(draft.cases[0]).toMatchObject({ forbid: 'wipe\ndrop', answerContains: 'hi\nthere', maxSteps: '4', order: 'subsequence' });
    expect(draft.cases[0].tools[0].arguments).toBe('{\n  "message": {\n    "contains": "hi"\n  }\n}');
    expect(fileOf(draft)).toEqual({ ok: true, file: FILE });
  });

  it('a new case with only a name and a prompt is a file; forbidden tools may be written with commas', () => {
    const draft: EvalDraft = { cases: [{ ...emptyCase(1), prompt: 'go', forbid: 'a, b' }], models: [], repeats: 1 };
    expect(fileOf(draft)).toEqual({ ok: true, file: { cases: [{ name: 'case 1', prompt: 'go', expect: { forbid: ['a', 'b'] } }] } });
  });

  it('a mistake is a sentence naming the case and the tool; the schema’s own too', () => {
    const bad = (patch: Partial<ReturnType<typeof emptyCase>>) => {
      const out = fileOf({ cases: [{ ...emptyCase(1), prompt: 'go', ...patch }], models: [], repeats: 1 });
      return out.ok ? '' : out.error;
    };
    expect(bad({ tools: [{ name: 'echo', arguments: '{"message": ' }] })).toMatch(/^Case 1, expected tool 1: the arguments are not JSON/);
    expect(bad({ tools: [{ name: 'echo', arguments: '[1]' }] })).toMatch(/^Case 1, expected tool 1: the arguments are not a JSON object/);
    expect(bad({ maxSteps: 'ten' })).toMatch(/cases\[0\]\.expect\.maxSteps/);
    expect(bad({ prompt: '' })).toMatch(/cases\[0\]\.prompt/);
    expect(bad({ tools: [{ name: '', arguments: '' }] })).toMatch(/cases\[0\]\.expect\.tools\[0\]\.name/);
  });
});
