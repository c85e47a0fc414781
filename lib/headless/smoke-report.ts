/**
 * The report of a smoke run (issue 10, `--smoke`): every tool called with synthesised arguments
 * and a few negative cases, and what each call came to. Pure data, so that the CLI prints it, CI
 * reads it as JUnit and the page could show it one day; proxy/faces/cli/smoke.ts makes it.
 *
 * Verdicts (lib/headless/smoke-verdict.ts): a case with valid arguments passes on a plain result (and a
 * `structuredContent` that fits the tool's `outputSchema`), and on a refusal of its made-up
 * arguments (`isError`, or invalid params); a negative case passes when the server refuses it and
 * is a warning when it succeeds, since accepting more than the schema says is lax but not broken.
 * A crash, a timeout or an internal error fails either kind. A tool takes its worst case. A tool
 * that may change data is skipped unless `--allow-writes` (lib/headless/smoke-writes.ts).
 */
import { junitXml, type JunitCase } from './junit.ts';
import { ALLOW_WRITES_FLAG } from './smoke-writes.ts';

export type SmokeCaseKind = 'valid' | 'missing-required' | 'wrong-type' | 'empty';
export type SmokeVerdict = 'passed' | 'warning' | 'failed' | 'skipped';
/** What happened to one call. */
export type SmokeOutcome =
  | 'ok'
  | 'is-error'
  | 'rpc-error'
  | 'timeout'
  | 'crash'
  | 'output-invalid'
  /** Loupe's side failed (the connection, a task that could not be followed). */
  | 'loupe-error'
  /** Not called: the tool's inputSchema does not compile. */
  | 'input-schema-invalid'
  /** Not called: Loupe could not make valid arguments. */
  | 'no-arguments'
  /** Not called: the tool may change data, and `--allow-writes` was not given. */
  | 'may-change-data'
  /** Not called for another reason (said in the case's reason). */
  | 'not-run';

export interface SmokeCase {
  kind: SmokeCaseKind;
  /** "valid arguments", "without required \"path\"" … */
  label: string;
  arguments?: Record<string, unknown>;
  outcome: SmokeOutcome;
  verdict: SmokeVerdict;
  /** One sentence. */
  reason: string;
  ms?: number;
  /** Called as a task (`execution.taskSupport: "required"`). */
  asTask?: boolean;
  /** The result or error as JSON text, cut at RESULT_TEXT_LIMIT. */
  response?: string;
}

export interface SmokeCrash {
  message: string;
  stderrTail: string;
  exitCode?: number | null;
  signal?: string | null;
}

export interface SmokeTool {
  name: string;
  verdict: SmokeVerdict;
  /** The worst case's reason, or a summary when all passed. */
  reason: string;
  ms: number;
  /** At least one: a tool that was not called has one case saying why. */
  cases: SmokeCase[];
  /** This tool's call ended the server (Loupe restarted it for the next tool). */
  crash?: SmokeCrash;
  /** The MCP Apps view the tool links (issue 24), `uri` as written; `appOnly`: its visibility leaves the model out. */
  view?: { uri: string; appOnly: boolean };
}

export interface SmokeReport {
  server: { name?: string; version?: string };
  protocolVersion?: string;
  startedAt: string;
  ms: number;
  timeoutMs: number;
  negative: boolean;
  /** `--allow-writes`: the tools that may change data were called too. */
  allowWrites: boolean;
  tools: SmokeTool[];
  /** tools/list could not be read (the tools listed before the failure are still smoked). */
  listError?: { message: string; timedOut: boolean };
  /** Malformed tools/list entries, and why listing stopped early. */
  problems: string[];
  /** How many times Loupe restarted the server after a crash. */
  restarts: number;
}

export const RESULT_TEXT_LIMIT = 16_384;

const RANK: Record<SmokeVerdict, number> = { passed: 0, skipped: 1, warning: 2, failed: 3 };

/** The worst of some verdicts (`skipped` ranks above `passed`: nothing was shown to work). */
export function worstVerdict(verdicts: readonly SmokeVerdict[]): SmokeVerdict {
  return verdicts.reduce<SmokeVerdict>((worst, v) => (RANK[v] > RANK[worst] ? v : worst), verdicts.length === 0 ? 'skipped' : 'passed');
}

export interface SmokeTotals {
  tools: number;
  passed: number;
  failed: number;
  warnings: number;
  skipped: number;
}

export function smokeTotals(report: SmokeReport): SmokeTotals {
  const n = (v: SmokeVerdict) => report.tools.filter((t) => t.verdict === v).length;
  return { tools: report.tools.length, passed: n('passed'), failed: n('failed'), warnings: n('warning'), skipped: n('skipped') };
}

/**
 * 0 when nothing failed (warnings and skips allowed); 1 when a tool failed, including a tool that
 * timed out (the run went on past it, so it is a failure of that tool, not of the run); 4 only
 * when tools/list itself timed out and nothing could be smoked. (3, could not connect, is decided
 * before a report exists.)
 */
export function smokeExitCode(report: SmokeReport): 0 | 1 | 4 {
  if (report.listError?.timedOut && report.tools.length === 0) return 4;
  if (report.listError || report.tools.some((t) => t.verdict === 'failed')) return 1;
  return 0;
}

/** One line of server text for a terminal: no control characters (an ESC could rewrite the screen), no bidi overrides. */
export function oneLine(text: string, max = 160): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryLine(report: SmokeReport): string {
  const t = smokeTotals(report);
  const skipped = t.skipped > 0 ? `, ${t.skipped} skipped` : '';
  return `${plural(t.tools, 'tool')}: ${t.passed} passed, ${t.failed} failed, ${plural(t.warnings, 'warning')}${skipped}`;
}

const VERDICT_WORD: Record<SmokeVerdict, string> = { passed: 'passed', warning: 'WARNING', failed: 'FAILED', skipped: 'skipped' };

/** The report for a person: a table of tools, the cases that did not pass, each crash's stderr, the summary. */
export function formatSmokeText(report: SmokeReport): string {
  const server = [report.server.name, report.server.version].filter(Boolean).map((s) => oneLine(String(s), 60)).join(' ') || 'the server';
  const lines = [`Smoke test of ${server}${report.protocolVersion ? ` (protocol ${oneLine(report.protocolVersion, 40)})` : ''}, timeout ${report.timeoutMs} ms per call${report.negative ? '' : ', no negative cases'}${report.allowWrites ? ', tools that may change data called too' : ''}`, ''];
  if (report.listError) lines.push(`tools/list failed: ${oneLine(report.listError.message)}`, '');
  for (const p of report.problems) lines.push(`note: ${oneLine(p)}`);
  if (report.problems.length > 0) lines.push('');
  const names = report.tools.map((t) => oneLine(t.name, 40));
  const width = Math.max(4, ...names.map((n) => n.length));
  lines.push(`${'TOOL'.padEnd(width)}  VERDICT  ${'MS'.padStart(6)}  REASON`);
  report.tools.forEach((tool, i) => {
    lines.push(`${names[i].padEnd(width)}  ${VERDICT_WORD[tool.verdict].padEnd(7)}  ${String(Math.round(tool.ms)).padStart(6)}  ${oneLine(tool.reason)}`);
    // The other cases that did not pass (the worst one is on the tool's line already).
    const shown = tool.cases.find((c) => c.verdict === tool.verdict);
    for (const c of tool.cases) if (c.verdict !== 'passed' && c !== shown) lines.push(`${''.padEnd(width)}    ${oneLine(c.label, 60)}: ${VERDICT_WORD[c.verdict]}, ${oneLine(c.reason)}`);
  });
  for (const tool of report.tools) {
    if (!tool.crash) continue;
    lines.push('', `"${oneLine(tool.name, 60)}" ended the server: ${oneLine(tool.crash.message)}`);
    const tail = tool.crash.stderrTail.trimEnd().split('\n').slice(-10);
    if (tail.join('').trim() === '') lines.push('  (it wrote nothing to stderr)');
    else lines.push('  The end of its stderr:', ...tail.map((l) => `  | ${oneLine(l, 200)}`));
  }
  const views = report.tools.filter((t) => t.view);
  if (views.length > 0) {
    const named = views.map((t) => `${oneLine(t.name, 40)} → ${oneLine(t.view!.uri, 80)}${t.view!.appOnly ? ' (for views only)' : ''}`);
    lines.push('', `${plural(views.length, 'tool')} with a view (MCP Apps; open one in the page to see it): ${named.join(', ')}`);
  }
  if (report.restarts > 0) lines.push('', `Loupe restarted the server ${plural(report.restarts, 'time')} to go on with the next tool.`);
  lines.push('');
  const writes = report.tools.filter((t) => t.cases.some((c) => c.outcome === 'may-change-data')).length;
  if (writes > 0) lines.push(`${writes} of ${plural(report.tools.length, 'tool')} not called: they may change data (no readOnlyHint: true); add ${ALLOW_WRITES_FLAG} to call them with made-up arguments too.`);
  lines.push(summaryLine(report));
  return lines.join('\n') + '\n';
}

function junitCase(tool: SmokeTool, c: SmokeCase): JunitCase {
  const out = [`${c.verdict}: ${c.reason}`, c.arguments ? `arguments: ${JSON.stringify(c.arguments)}` : '', c.response ? `response: ${c.response}` : ''].filter(Boolean).join('\n');
  const base: JunitCase = { name: c.label, classname: tool.name, timeMs: c.ms, systemOut: out };
  if (c.verdict === 'skipped') return { ...base, skipped: c.reason };
  if (c.verdict !== 'failed') return base;
  const problem = { message: c.reason, type: c.outcome, text: c.response };
  if (c.outcome === 'crash' || c.outcome === 'timeout' || c.outcome === 'loupe-error') return { ...base, error: problem, systemErr: c.outcome === 'crash' ? tool.crash?.stderrTail : undefined };
  return { ...base, failure: problem };
}

/** JUnit XML: one testsuite, one testcase per tool and case; warnings pass, with the warning in system-out. */
export function smokeJunit(report: SmokeReport): string {
  const cases = report.tools.flatMap((tool) => tool.cases.map((c) => junitCase(tool, c)));
  if (report.listError) cases.unshift({ name: 'tools/list', classname: 'smoke', failure: { message: report.listError.message, type: report.listError.timedOut ? 'timeout' : 'rpc-error' } });
  const name = `mcp-loupe smoke: ${report.server.name ?? 'server'}`;
  const properties: Record<string, string> = { timeoutMs: String(report.timeoutMs), negative: String(report.negative), allowWrites: String(report.allowWrites) };
  if (report.server.version) properties.serverVersion = report.server.version;
  if (report.protocolVersion) properties.protocolVersion = report.protocolVersion;
  return junitXml({ name, timestamp: report.startedAt, timeMs: report.ms, properties, cases });
}
