import { describe, expect, it } from 'vitest';
import { cacheHintText, servedText, spanText } from './list-status.tsx';

describe('cache hint texts', () => {
  it('say how long a list stays fresh, and what Refresh served', () => {
    expect(cacheHintText({ ttlMs: 30_000, scope: 'public' })).toBe('Fresh for 30 s (public cache hint)');
    expect(cacheHintText({ ttlMs: 120_000 })).toBe('Fresh for 2 min (cache hint)');
    expect(cacheHintText({ ttlMs: 0, scope: 'private' })).toBe('Not to be reused (private cache hint)');
    expect(servedText({ ttlMs: 30_000 }, { leftMs: 11_200 })).toBe('Served from cache: the server said this list stays fresh for 30 s; 12 s left');
    expect([spanText(1_500), spanText(450), spanText(5_400_000)]).toEqual(['1.5 s', '450 ms', '1 h 30 min']);
  });
});
