import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { collectionsJunit } from './junit.ts';
import { parseXml } from '../../proxy/testing/strict-xml.ts';
import type { CollectionVerdict } from './types.ts';

const HOSTILE = 'call <b>&amp; "q" ]]> \u0000\u001b[31m \uD800 tab\tnl\n 😀';

const verdicts: CollectionVerdict[] = [
  {
    name: 'basics',
    durationMs: 1500,
    counts: { passed: 1, failed: 1, error: 1, skipped: 1 },
    calls: [
      { collection: 'basics', call: 'echo', status: 'passed', durationMs: 12, request: { method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }, assertions: [{ assertion: { isError: false }, ok: true, label: 'the result is not an error' }] },
      {
        collection: 'basics',
        call: HOSTILE,
        status: 'failed',
        durationMs: 8,
        assertions: [
          { assertion: { isError: false }, ok: true, label: 'the result is not an error' },
          { assertion: { path: '$.content[0].text', equals: 'Echo: hi' }, ok: false, label: '$.content[0].text equals "Echo: hi"', path: '$.content[0].text', expected: 'Echo: hi', actual: HOSTILE, message: `at $.content[0].text expected "Echo: hi", found ${JSON.stringify(HOSTILE)}` },
          { assertion: { durationUnderMs: 5 }, ok: false, label: 'answered in under 5 ms', message: 'took 8 ms, expected under 5 ms' },
        ],
      },
      { collection: 'basics', call: 'slow', status: 'error', durationMs: 50, reason: 'No answer within 50 ms.', assertions: [] },
      { collection: 'basics', call: 'later', status: 'skipped', durationMs: 0, reason: 'The run was stopped before this call.', assertions: [] },
    ],
  },
  { name: 'empty', durationMs: 0, counts: { passed: 0, failed: 0, error: 0, skipped: 0 }, calls: [] },
];

describe('collectionsJunit', () => {
  const xml = collectionsJunit(verdicts, { timestamp: '2025-01-01T00:00:00.000Z', properties: { server: 'everything' } });

  it('is XML a real parser accepts, with a suite per collection and a case per call', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as { testsuites: { tests: string; failures: string; errors: string; skipped: string; testsuite: { name: string; tests: string; testcase?: unknown }[] } };
    expect(doc.testsuites).toMatchObject({ tests: '4', failures: '1', errors: '1', skipped: '1' });
    expect(doc.testsuites.testsuite.map((s) => [s.name, s.tests])).toEqual([['basics', '4'], ['empty', '0']]);
  });

  it('says each failure in its assertions’ sentences, an error’s reason, a skip’s why (the strict checker)', () => {
    const root = parseXml(xml);
    const [basics] = root.children;
    expect(basics.attrs).toMatchObject({ name: 'basics', tests: '4', failures: '1', errors: '1', skipped: '1', time: '1.500', timestamp: '2025-01-01T00:00:00.000Z' });
    const cases = basics.children.filter((c) => c.name === 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(['echo', 'call <b>&amp; "q" ]]> \\u0000\\u001B[31m \\uD800 tab\tnl\n 😀', 'slow', 'later']);
    expect(cases[0].children.map((c) => c.name)).toEqual(['system-out']);
    const failure = cases[1].children[0];
    expect(failure).toMatchObject({ name: 'failure', attrs: { type: 'assertion' } });
    expect(failure.attrs.message).toMatch(/^at \$\.content\[0\]\.text expected "Echo: hi", found ".*"; took 8 ms, expected under 5 ms$/);
    expect(failure.text).toContain('✓ the result is not an error\n✗ $.content[0].text equals "Echo: hi": at $.content[0].text');
    expect(cases[2].children[0]).toMatchObject({ name: 'error', attrs: { message: 'No answer within 50 ms.', type: 'error' } });
    expect(cases[3].children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'The run was stopped before this call.' } });
  });
});
