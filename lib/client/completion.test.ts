import { describe, expect, it } from 'vitest';
import { completionParams, MAX_COMPLETIONS, readCompletions } from './completion.ts';

describe('completion/complete', () => {
  it('sends the argument and, as context, the others filled in so far', () => {
    expect(completionParams({ type: 'ref/prompt', name: 'p' }, 'name', 'A', { department: 'Engineering', name: 'A', empty: '' })).toEqual({
      ref: { type: 'ref/prompt', name: 'p' },
      argument: { name: 'name', value: 'A' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(completionParams({ type: 'ref/resource', uri: 'x://{id}' }, 'id', '', {})).toEqual({ ref: { type: 'ref/resource', uri: 'x://{id}' }, argument: { name: 'id', value: '' } });
  });

  it('reads values, total and hasMore, and survives junk', () => {
    expect(readCompletions({ completion: { values: ['a', 'b'], total: 10, hasMore: true } })).toEqual({ values: ['a', 'b'], total: 10, hasMore: true });
    expect(readCompletions({ completion: { values: ['a', 1, 'a'] } })).toEqual({ values: ['a'], hasMore: false, problem: '1 values were not strings' });
    expect(readCompletions({})).toMatchObject({ values: [], problem: expect.stringMatching(/no "completion.values"/) });
    const many = readCompletions({ completion: { values: Array.from({ length: 150 }, (_, i) => `v${i}`) } });
    expect(many.values).toHaveLength(MAX_COMPLETIONS);
    expect(many.problem).toMatch(/150 values sent/);
  });
});
