/**
 * The Tests tab in words (issue 27): what an assertion checks and a value, in the runner's own words
 * (lib/collections/assertions.ts), and a run's counts. Values become text here, never markup.
 */
import { assertionLabel, shownValue } from '../../lib/collections/assertions.ts';
import type { CallStatus } from '../../lib/collections/types.ts';

/** A value in one line, as the runner's sentences show it (`nothing` where there was none). */
export const valueText = shownValue;

/** One line saying what an assertion checks, as reports say it: `$.content[0].text equals "Echo: hi"`. */
export const assertionWords = assertionLabel;

export const STATUS_TONE: Record<CallStatus, 'good' | 'bad' | 'warn' | 'neutral'> = { passed: 'good', failed: 'bad', error: 'warn', skipped: 'neutral' };

/** `2 passed, 1 failed` (the counts that are not zero; `no calls` for none). */
export function countsText(counts: Record<CallStatus, number>): string {
  const parts = (['passed', 'failed', 'error', 'skipped'] as const).filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s === 'error' ? (counts[s] === 1 ? 'error' : 'errors') : s}`);
  return parts.length > 0 ? parts.join(', ') : 'no calls';
}

/** The method a call of this kind sends. */
export const KIND_METHOD = { tool: 'tools/call', resource: 'resources/read', prompt: 'prompts/get', request: 'request' } as const;
