import { describe, expect, it } from 'vitest';
import { fetchAllPages, type PageOutcome } from './paged-list.ts';

const ok = (result: unknown): PageOutcome => ({ ok: true, result });

describe('fetchAllPages', () => {
  it('follows nextCursor until the last page', async () => {
    const cursors: Array<string | undefined> = [];
    const pages: Record<string, unknown> = { start: { tools: [1, 2], nextCursor: 'a' }, a: { tools: [3], nextCursor: 'b' }, b: { tools: [4] } };
    const result = await fetchAllPages(async (cursor) => {
      cursors.push(cursor);
      return ok(pages[cursor ?? 'start']);
    }, 'tools');
    expect(result).toEqual({ items: [1, 2, 3, 4], pages: 3 });
    expect(cursors).toEqual([undefined, 'a', 'b']);
  });

  it('stops at a repeated cursor and says so', async () => {
    const result = await fetchAllPages(async () => ok({ tools: ['x'], nextCursor: 'same' }), 'tools');
    expect(result.items).toEqual(['x', 'x']);
    expect(result.note).toBe('Stopped: the server sent cursor "same" twice');
  });

  it('stops after the page limit', async () => {
    let n = 0;
    const result = await fetchAllPages(async () => ok({ tools: [n], nextCursor: `c${n++}` }), 'tools', 5);
    expect(result.pages).toBe(5);
    expect(result.items).toHaveLength(5);
    expect(result.note).toMatch(/after 5 pages/);
  });

  it('keeps earlier pages when a later one fails', async () => {
    let first = true;
    const result = await fetchAllPages(async () => {
      if (first) {
        first = false;
        return ok({ prompts: ['p'], nextCursor: 'n' });
      }
      return { ok: false, error: { code: -32602, message: 'Invalid cursor' }, durationMs: 1 };
    }, 'prompts');
    expect(result).toEqual({ items: ['p'], pages: 2, error: 'JSON-RPC error -32602: Invalid cursor' });
  });

  it('reports a result without the items array', async () => {
    expect((await fetchAllPages(async () => ok({}), 'tools')).error).toBe('The result has no "tools" array');
  });
});
