import { describe, expect, it } from 'vitest';
import { formatTestText, summaryLine, testExitCode } from './text.ts';
import type { CollectionVerdict } from './types.ts';

const verdict = (calls: CollectionVerdict['calls'], name = 'basics'): CollectionVerdict => {
  const counts = { passed: 0, failed: 0, error: 0, skipped: 0 };
  for (const c of calls) counts[c.status] += 1;
  return { name, calls, counts, durationMs: 1234 };
};
const passed = { collection: 'basics', call: 'echo', status: 'passed' as const, durationMs: 12.4, assertions: [] };

describe('formatTestText', () => {
  it('one line per call, the failed assertions’ sentences under a failure, a summary', () => {
    const text = formatTestText([
      verdict([
        passed,
        { collection: 'basics', call: 'add', status: 'failed', durationMs: 8, assertions: [{ assertion: { isError: false }, ok: true, label: 'x' }, { assertion: { path: '$.a', equals: 1 }, ok: false, label: '$.a equals 1', message: 'at $.a expected 1, found 2' }], notes: ['{{id}}: $.id found nothing in the answer.'] },
        { collection: 'basics', call: 'slow', status: 'error', durationMs: 60_000, reason: 'No answer within 60000 ms.', assertions: [] },
        { collection: 'basics', call: 'later', status: 'skipped', durationMs: 0, reason: 'Not chosen for this run.', assertions: [] },
      ]),
    ]);
    expect(text).toBe(
      [
        'basics  (1.23 s)',
        '  ✓ echo  12 ms',
        '  ✗ add  8 ms',
        '      at $.a expected 1, found 2',
        '      note: {{id}}: $.id found nothing in the answer.',
        '  ! slow  60.0 s',
        '      No answer within 60000 ms.',
        '  - later',
        '      Not chosen for this run.',
        '1 passed, 1 failed, 1 error, 1 skipped',
        '',
      ].join('\n'),
    );
  });

  it('writes no control character a server sent to the terminal', () => {
    const text = formatTestText([verdict([{ ...passed, call: 'evil\u001b[2J\r\u202E' }], 'c\u0007')]);
    expect(text).toContain('c\\u0007');
    expect(text).toContain('evil\\u001B[2J\\u000D\\u202E');
    expect(text.split('\n').filter((line) => /\p{Cc}/u.test(line))).toEqual([]);
  });

  it('summary and exit code: 0 when nothing failed or erred, skips included', () => {
    expect(summaryLine([verdict([passed]), verdict([passed])])).toBe('2 passed, 0 failed, 0 errors');
    expect(testExitCode([verdict([passed, { ...passed, status: 'skipped' }])])).toBe(0);
    expect(testExitCode([verdict([passed, { ...passed, status: 'error' }])])).toBe(1);
    expect(testExitCode([verdict([{ ...passed, status: 'failed' }])])).toBe(1);
    expect(formatTestText([])).toBe('No collection to run.\n0 passed, 0 failed, 0 errors\n');
  });
});
