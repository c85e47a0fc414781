import { describe, expect, it } from 'vitest';
import { mayChangeData } from './smoke-writes.ts';

describe('mayChangeData', () => {
  it('lets a tool that says it is read-only be called', () => {
    expect(mayChangeData({ readOnlyHint: true })).toBeUndefined();
    // destructiveHint means nothing beside readOnlyHint: true (the spec reads it only when false).
    expect(mayChangeData({ readOnlyHint: true, destructiveHint: true })).toBeUndefined();
  });

  it('keeps every other tool, by its hints or the spec’s defaults for missing ones, and names the flag', () => {
    expect(mayChangeData({})).toBe('Not called: it does not say it is read-only (no readOnlyHint: true), so by the MCP spec it may change data, perhaps destructively. --allow-writes calls it too.');
    expect(mayChangeData({ readOnlyHint: false, destructiveHint: true })).toBe('Not called: it says it may change data (readOnlyHint: false), destructively (destructiveHint: true). --allow-writes calls it too.');
    expect(mayChangeData({ readOnlyHint: false, destructiveHint: false })).toBe('Not called: it says it may change data (readOnlyHint: false), though not destructively. --allow-writes calls it too.');
    expect(mayChangeData({ destructiveHint: false, openWorldHint: false })).toMatch(/^Not called: it does not say it is read-only .*, though not destructively\./);
  });
});
