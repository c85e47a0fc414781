/** A verify report in words, for a terminal, and its exit code (issue 10; split from verify.ts). */
import { shown, type ContextFrame, type VerifyReport } from './verify.ts';

/** 0: every compared answer is the same; 1: drift (a divergence, a replay that stopped, or nothing compared). */
export function verifyExitCode(report: VerifyReport): 0 | 1 {
  return report.divergenceCount > 0 || report.stopped !== undefined || report.compared === 0 ? 1 : 0;
}

function frameLine(f: ContextFrame): string {
  const where = f.seq !== undefined ? `seq ${f.seq} ${f.dir}` : '';
  return `    ${`${f.label}`.padEnd(18)}${where.padEnd(12)}${f.text}`;
}

/** The report for a terminal: the first divergence in full, the others one line each. */
export function formatVerifyText(report: VerifyReport): string {
  const lines: string[] = [];
  const r = report.recording;
  const live = report.live ? ` against ${report.live.name ?? 'the server'}${report.live.version ? ` ${report.live.version}` : ''}` : '';
  lines.push(`Verify: ${r.requests} recorded requests (session ${r.session}${r.exportedAt ? `, recorded ${r.exportedAt}` : ''})${live}.`);
  const builtIn = report.ignores.filter((i) => i.builtIn);
  const mine = report.ignores.filter((i) => !i.builtIn);
  const absorbed = (i: { absorbed: number }) => (i.absorbed > 0 ? ` (${i.absorbed} absorbed)` : '');
  if (builtIn.length > 0) lines.push(`Ignored, built in: ${builtIn.map((i) => `${i.path}${absorbed(i)}`).join(' ')}`);
  lines.push(mine.length > 0 ? `Ignored, yours: ${mine.map((i) => `${i.path}${absorbed(i)}`).join(' ')}` : 'Add your own with --ignore JSONPATH (for example --ignore "$..etag").');
  lines.push('Only answers are compared; notifications and the server\'s own requests are not.');
  for (const note of report.notes) lines.push(`Note: ${note}`);
  const [first, ...rest] = report.divergences;
  if (first) {
    lines.push('', `First divergence: seq ${first.seq} ${first.method} ${first.params === undefined ? '' : shown(first.params)}`.trimEnd());
    lines.push(`  ${first.message}`, `    recorded: ${first.recorded}`, `    live:     ${first.live}`, '  Frames:');
    for (const f of first.frames) lines.push(frameLine(f));
  }
  if (rest.length > 0 || report.divergenceCount > report.divergences.length) {
    lines.push('', `Other divergences (${report.divergenceCount - 1}):`);
    for (const d of rest) lines.push(`  seq ${d.seq} ${d.method} at ${d.path}: ${d.recorded} → ${d.live}`);
    if (report.divergenceCount > report.divergences.length) lines.push(`  … and ${report.divergenceCount - report.divergences.length} more`);
  }
  if (report.notCompared.length > 0) {
    lines.push('', `Not compared (${report.notCompared.length}):`);
    for (const n of report.notCompared) lines.push(`  seq ${n.seq} ${n.method}: ${n.why}`);
  }
  if (report.problems.length > 0) {
    lines.push('', `Problems in the recording (${report.problems.length}):`);
    for (const p of report.problems) lines.push(`  ${p}`);
  }
  if (report.stopped) lines.push('', `Stopped: ${report.stopped}`);
  lines.push('', resultLine(report));
  return lines.join('\n') + '\n';
}

function resultLine(report: VerifyReport): string {
  if (report.compared === 0) return 'Result: nothing was compared: the recording has no answered request. Record a session that makes calls (exit 1).';
  if (verifyExitCode(report) === 0) return `Result: no drift: ${report.same} of ${report.compared} answers are the same (exit 0).`;
  return `Result: drift: ${report.divergenceCount} of ${report.compared} answers differ${report.stopped ? ', and the replay stopped early' : ''} (exit 1).`;
}
