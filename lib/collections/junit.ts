/**
 * Collection verdicts as JUnit XML (issue 27, `--test --junit FILE`), written by the writer
 * `--smoke` uses (lib/headless/junit.ts): a suite per collection, a case per call. A failed call is a
 * `<failure>` whose message is its failed assertions' sentences; a call with no answer to judge is an
 * `<error>`; a call not run is `<skipped>` with why.
 */
import { junitXml, type JunitCase, type JunitSuite } from '../headless/junit.ts';
import { stringifySafe } from '../json/safe-json.ts';
import type { CallVerdict, CollectionVerdict } from './types.ts';

const MAX_TEXT = 4_000;
const cut = (text: string): string => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT)}… (${text.length} characters)`);

function testcase(collection: string, v: CallVerdict): JunitCase {
  const base: JunitCase = { name: v.call, classname: collection, timeMs: v.durationMs };
  const request = v.request ? `request: ${v.request.method} ${stringifySafe(v.request.params) ?? ''}` : undefined;
  const checked = v.assertions.map((a) => `${a.ok ? '✓' : '✗'} ${a.label}${a.ok ? '' : `: ${a.message ?? ''}`}`);
  const text = cut([...(request ? [request] : []), ...checked, ...(v.notes ?? []).map((n) => `note: ${n}`)].join('\n'));
  switch (v.status) {
    case 'failed': {
      const failed = v.assertions.filter((a) => !a.ok).map((a) => a.message ?? a.label);
      return { ...base, failure: { message: failed.join('; '), type: 'assertion', text } };
    }
    case 'error':
      return { ...base, error: { message: v.reason ?? 'The call ended without an answer.', type: 'error', ...(request ? { text: request } : {}) } };
    case 'skipped':
      return { ...base, skipped: v.reason ?? 'Not run.' };
    default:
      return text === '' ? base : { ...base, systemOut: text };
  }
}

/** The JUnit document of a run: one suite per collection. */
export function collectionsJunit(verdicts: readonly CollectionVerdict[], options: { timestamp?: string; properties?: Record<string, string> } = {}): string {
  const suites: JunitSuite[] = verdicts.map((v) => ({
    name: v.name,
    timeMs: v.durationMs,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    ...(options.properties ? { properties: options.properties } : {}),
    cases: v.calls.map((call) => testcase(v.name, call)),
  }));
  return junitXml(suites);
}
