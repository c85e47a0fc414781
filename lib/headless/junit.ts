/**
 * JUnit XML, the report format every CI system reads (GitHub Actions test reporters, GitLab,
 * Jenkins), for `--smoke --junit FILE` (issue 10). The de facto schema is Ant's / Jenkins':
 * `<testsuites><testsuite><testcase><failure|error|skipped/><system-out/>`.
 *
 * Everything in it may come from a server (tool names, error messages, results), so every string
 * is escaped, and what XML 1.0 cannot carry at all (control characters, lone surrogates, U+FFFE/F;
 * not even as `&#1;`) is written as a visible `\uXXXX` instead of breaking the file. A writer of
 * our own because the format is this small and no XML library is a dependency.
 */

export interface JunitProblem {
  message: string;
  /** A short category (`timeout`, `crash`, `isError` …). */
  type?: string;
  /** The element's text: details, a stack, the result JSON. */
  text?: string;
}

export interface JunitCase {
  name: string;
  classname: string;
  timeMs?: number;
  /** The case ran and its check did not hold. */
  failure?: JunitProblem;
  /** The case could not run to an answer (a crash, a timeout). */
  error?: JunitProblem;
  /** Not run, and why. */
  skipped?: string;
  systemOut?: string;
  systemErr?: string;
}

export interface JunitSuite {
  name: string;
  /** ISO 8601, as JUnit readers expect it. */
  timestamp?: string;
  timeMs?: number;
  properties?: Record<string, string>;
  cases: JunitCase[];
}

/** What XML 1.0 allows (https://www.w3.org/TR/xml/#charsets), less the C1 controls and DEL it discourages. */
const NOT_XML = /[^\t\n\r\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function visible(char: string): string {
  return [...char].map((c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join('');
}

/**
 * Text safe inside an element. A parser turns a literal \r into \n, so it is always a reference;
 * in an `attribute` tabs and newlines are too (attribute-value normalisation makes them spaces).
 */
export function escapeXml(text: string, attribute = false): string {
  const escaped = text
    .replace(NOT_XML, visible)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;');
  return attribute ? escaped.replace(/\t/g, '&#9;').replace(/\n/g, '&#10;') : escaped;
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v), true)}"`)
    .join('');
}

function problem(tag: 'failure' | 'error', p: JunitProblem): string {
  const open = `<${tag}${attributes({ message: p.message, type: p.type })}`;
  return p.text ? `${open}>${escapeXml(p.text)}</${tag}>` : `${open}/>`;
}

function testcase(c: JunitCase): string {
  const inner: string[] = [];
  if (c.failure) inner.push(problem('failure', c.failure));
  if (c.error) inner.push(problem('error', c.error));
  if (c.skipped !== undefined) inner.push(`<skipped${attributes({ message: c.skipped })}/>`);
  if (c.systemOut) inner.push(`<system-out>${escapeXml(c.systemOut)}</system-out>`);
  if (c.systemErr) inner.push(`<system-err>${escapeXml(c.systemErr)}</system-err>`);
  const open = `    <testcase${attributes({ name: c.name, classname: c.classname, time: seconds(c.timeMs) })}`;
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.map((line) => `      ${line}`).join('\n')}\n    </testcase>`;
}

function testsuite(s: JunitSuite): string {
  const counts = {
    tests: s.cases.length,
    failures: s.cases.filter((c) => c.failure).length,
    errors: s.cases.filter((c) => c.error).length,
    skipped: s.cases.filter((c) => c.skipped !== undefined).length,
  };
  const head = `  <testsuite${attributes({ name: s.name, ...counts, time: seconds(s.timeMs), timestamp: s.timestamp })}>`;
  const properties = Object.entries(s.properties ?? {});
  const props = properties.length === 0 ? [] : ['    <properties>', ...properties.map(([name, value]) => `      <property${attributes({ name, value })}/>`), '    </properties>'];
  return [head, ...props, ...s.cases.map(testcase), '  </testsuite>'].join('\n');
}

/** A JUnit XML document of one or more suites. */
export function junitXml(suites: JunitSuite | readonly JunitSuite[]): string {
  const list = Array.isArray(suites) ? suites : [suites as JunitSuite];
  const all = list.flatMap((s) => s.cases);
  const totals = {
    tests: all.length,
    failures: all.filter((c) => c.failure).length,
    errors: all.filter((c) => c.error).length,
    skipped: all.filter((c) => c.skipped !== undefined).length,
    time: seconds(list.reduce((sum, s) => sum + (s.timeMs ?? 0), 0)),
  };
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${attributes(totals)}>`, ...list.map(testsuite), '</testsuites>', ''].join('\n');
}
