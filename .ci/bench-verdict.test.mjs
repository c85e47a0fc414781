// The bench's verdict (bench/lib/verdict.mjs): the noise of a floor from its repeats, and the
// three answers a row can get. Here because vitest.config.ts collects tests from .ci/, not bench/.
import { describe, expect, it } from 'vitest';
import { blockMedians, judge, missLine, spread, summaryRows } from '../bench/lib/verdict.mjs';

const row = (over) => ({ label: 'launch → UI HTTP 200', loupe: '150 ms', floor: '100 ms', value: 1.5, unit: '×', at: 'most', target: 1.3, noise: 0.04, ...over });

describe('spread', () => {
  it('gives the repeats’ min, median, max and two standard errors of their median, relative to it', () => {
    // MAD 5, σ = 1.4826 · 5 = 7.413, 2 · 1.2533 · 7.413 / √5 = 8.310, over the median 100.
    const s = spread([90, 95, 100, 105, 110]);
    expect([s.min, s.median, s.max, s.repeats]).toEqual([90, 100, 110, 5]);
    expect(s.noise).toBeCloseTo(0.0831, 4);
  });

  it('is not widened by one stray repeat', () => {
    expect(spread([90, 95, 100, 105, 400]).noise).toBeCloseTo(spread([90, 95, 100, 105, 110]).noise, 6);
  });

  it('has no noise for a single repeat, and none for identical ones', () => {
    expect(spread([100]).noise).toBeUndefined();
    expect(spread([100, 100, 100]).noise).toBe(0);
  });

  it('takes the median of each block of an interleaved run', () => {
    expect(blockMedians([1, 2, 3, 10, 20, 30, 7], 3)).toEqual([2, 20]);
  });
});

describe('judge', () => {
  it('meets an upper target at or under it', () => {
    expect(judge(row({ value: 1.3 }))).toBe('yes');
    expect(judge(row({ value: 1.1 }))).toBe('yes');
  });

  it('calls a miss no larger than the noise "within noise", and a larger one a miss', () => {
    expect(judge(row({ value: 1.33 }))).toBe('within noise');
    expect(judge(row({ value: 1.35 }))).toBe('no');
    expect(judge(row({ value: 1.31, noise: undefined }))).toBe('no');
  });

  it('turns the comparison round for a lower target', () => {
    const relay = row({ at: 'least', target: 0.9, noise: 0.05 });
    expect(judge({ ...relay, value: 0.95 })).toBe('yes');
    expect(judge({ ...relay, value: 0.87 })).toBe('within noise');
    expect(judge({ ...relay, value: 0.8 })).toBe('no');
  });

  it('fails a broken row or one without a figure whatever the numbers, and never judges context', () => {
    expect(judge(row({ value: 1, broken: 'notifications lost' }))).toBe('no');
    expect(judge(row({ value: undefined }))).toBe('no');
    expect(judge({ label: 'x', loupe: '1', floor: '', context: true })).toBe('context');
  });
});

describe('the lines that name a miss', () => {
  it('says the ratio, the target and the noise', () => {
    expect(missLine(row({ value: 1.53 }))).toBe('bench: MISSED launch → UI HTTP 200: 1.53× the floor (target ≤ 1.3×, noise ±0.04×)');
  });

  it('says ms over the floor for an added time, and why a row could not be judged', () => {
    const tap = row({ label: '--tap --record echo round trip', value: 0.0712, unit: 'ms', target: 0.05, noise: 0.012 });
    expect(missLine(tap)).toBe('bench: MISSED --tap --record echo round trip: +0.071 ms over the floor (target ≤ +0.05 ms, noise ±0.012 ms)');
    expect(missLine(row({ value: undefined, broken: 'bench/cold-start.mjs could not run (exit 1)' }))).toBe('bench: MISSED launch → UI HTTP 200: bench/cold-start.mjs could not run (exit 1)');
  });

  it('are printed for the misses only', () => {
    const { rows, misses } = summaryRows([row({ value: 1.2 }), row({ value: 1.33 }), row({ label: 'idle RSS, one session', value: 1.2, target: 1.05, noise: 0.01 }), { label: 'c', loupe: '1', floor: '', context: true }]);
    expect(rows.map((r) => r.at(-1))).toEqual(['yes', 'within noise', 'no', 'context']);
    expect(misses).toEqual(['bench: MISSED idle RSS, one session: 1.20× the floor (target ≤ 1.05×, noise ±0.01×)']);
  });
});
