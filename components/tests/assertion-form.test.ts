import { describe, expect, it } from 'vitest';
import type { Assertion } from '../../lib/collections/schema.ts';
import { assertionsOf, blankRow, rowOf } from './assertion-form.ts';

describe('assertion rows (issue 27)', () => {
  it('turns every kind of assertion into a row and back unchanged', () => {
    const all: Assertion[] = [
      { isError: false },
      { path: '$.content[0].text', equals: 'Echo: hi' },
      { path: '$.content[0].text', matches: '^Echo' },
      { path: '$.structuredContent.sum', type: 'number' },
      { path: '$.nextCursor', exists: false },
      { outputSchema: true },
      { textContains: 'hello' },
      { durationUnderMs: 500 },
      { notification: 'notifications/progress' },
      { refusedByRule: 'no deletes' },
      { refusedByRule: true },
    ];
    expect(assertionsOf(all.map(rowOf))).toEqual({ ok: true, assertions: all });
  });

  it('says which row is wrong, in the reader’s words', () => {
    expect(assertionsOf([blankRow('isError'), { check: 'equals', path: '$.x', value: 'Echo' }])).toEqual({ ok: false, error: 'assertion 2: the expected value is not JSON (a string is written in quotes: "Echo")' });
    const badPath = assertionsOf([{ check: 'exists', path: 'content', value: 'true' }]);
    expect(badPath.ok).toBe(false);
    expect(!badPath.ok && badPath.error).toMatch(/^assertion 1\.path: /);
    expect(assertionsOf([{ check: 'durationUnderMs', path: '', value: 'soon' }])).toMatchObject({ ok: false, error: expect.stringMatching(/not a number/) });
    expect(assertionsOf([{ check: 'matches', path: '$', value: '(' }])).toMatchObject({ ok: false, error: expect.stringMatching(/^assertion 1\.matches/) });
  });
});
