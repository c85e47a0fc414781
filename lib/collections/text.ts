/**
 * The report `mcp-loupe --test` prints (issue 27): per collection, one line per call (`✓` passed,
 * `✗` failed, `!` error, `-` skipped, its name and duration), under a failure each failed
 * assertion's sentence, under an error or a skip its reason; then one summary line. Every name and
 * value came from a file or a server: control characters are shown as `\uXXXX`, never written to
 * the terminal.
 */
import type { CallStatus, CallVerdict, CollectionVerdict } from './types.ts';

const MARK: Record<CallStatus, string> = { passed: '✓', failed: '✗', error: '!', skipped: '-' };

/** Text safe for a terminal line: control characters (ESC, CR, …), line separators and bidi overrides as visible escapes (as lib/headless/smoke-report.ts oneLine). */
export function terminalSafe(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function callLines(v: CallVerdict): string[] {
  const head = `  ${MARK[v.status]} ${terminalSafe(v.call)}${v.status === 'skipped' ? '' : `  ${duration(v.durationMs)}`}`;
  const lines = [head];
  if (v.status === 'failed') for (const a of v.assertions) if (!a.ok) lines.push(`      ${terminalSafe(a.message ?? a.label)}`);
  if ((v.status === 'error' || v.status === 'skipped') && v.reason) lines.push(`      ${terminalSafe(v.reason)}`);
  for (const note of v.notes ?? []) lines.push(`      note: ${terminalSafe(note)}`);
  return lines;
}

/** Every call's status counted over all collections. */
export function totalsOf(verdicts: readonly CollectionVerdict[]): Record<CallStatus, number> {
  const totals: Record<CallStatus, number> = { passed: 0, failed: 0, error: 0, skipped: 0 };
  for (const v of verdicts) for (const status of Object.keys(totals) as CallStatus[]) totals[status] += v.counts[status];
  return totals;
}

/** `3 passed, 1 failed, 0 errors` (and `, 2 skipped` when any were). */
export function summaryLine(verdicts: readonly CollectionVerdict[]): string {
  const t = totalsOf(verdicts);
  const errors = `${t.error} ${t.error === 1 ? 'error' : 'errors'}`;
  return `${t.passed} passed, ${t.failed} failed, ${errors}${t.skipped > 0 ? `, ${t.skipped} skipped` : ''}`;
}

/** The whole report, ending with a newline. */
export function formatTestText(verdicts: readonly CollectionVerdict[]): string {
  const lines: string[] = [];
  for (const v of verdicts) {
    lines.push(`${terminalSafe(v.name)}  (${duration(v.durationMs)})`);
    for (const call of v.calls) lines.push(...callLines(call));
    if (v.calls.length === 0) lines.push('  (no calls)');
  }
  if (verdicts.length === 0) lines.push('No collection to run.');
  lines.push(summaryLine(verdicts));
  return `${lines.join('\n')}\n`;
}

/** 0 when nothing failed or erred (skips included), 1 otherwise: as `--verify` (docs/contract.md). */
export function testExitCode(verdicts: readonly CollectionVerdict[]): 0 | 1 {
  const t = totalsOf(verdicts);
  return t.failed + t.error > 0 ? 1 : 0;
}
