/**
 * Following `nextCursor` through a paginated MCP list (spec: server/utilities/pagination), with a
 * guard: a server that repeats a cursor or never stops must not hang the tab (or the CLI: issue 10
 * moved this to lib/ so that both use it).
 */
import { describeFailure } from './outcome-text.ts';
import type { LoupeError, RpcError } from '../wire/wire.ts';

/** A page's outcome, as the page's store and the proxy's session both report it. */
export type PageOutcome = { ok: true; result: unknown } | { ok: false; error: RpcError | LoupeError };

export const MAX_PAGES = 50;

export interface PagedResult {
  items: unknown[];
  pages: number;
  /** Why listing stopped early, when it did (the items so far are kept). */
  note?: string;
  /** A failed page (the items of earlier pages are kept). */
  error?: string;
}

export type FetchPage = (cursor: string | undefined) => Promise<PageOutcome>;

function pageItems(result: unknown, itemsKey: string): { items: unknown[]; next?: string } | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const record = result as Record<string, unknown>;
  const items = record[itemsKey];
  if (!Array.isArray(items)) return undefined;
  const next = record.nextCursor;
  return { items, next: typeof next === 'string' && next !== '' ? next : undefined };
}

export async function fetchAllPages(fetchPage: FetchPage, itemsKey: string, maxPages = MAX_PAGES): Promise<PagedResult> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages += 1) {
    const outcome = await fetchPage(cursor);
    if (!outcome.ok) return { items, pages, error: describeFailure(outcome.error) };
    const page = pageItems(outcome.result, itemsKey);
    if (!page) return { items, pages, error: `The result has no "${itemsKey}" array` };
    items.push(...page.items);
    if (page.next === undefined) return { items, pages };
    if (seen.has(page.next)) return { items, pages, note: `Stopped: the server sent cursor "${page.next}" twice` };
    if (pages >= maxPages) return { items, pages, note: `Stopped after ${maxPages} pages; the server still had a nextCursor` };
    seen.add(page.next);
    cursor = page.next;
  }
}
