// Scores one run of a conformance client scenario from the checks the suite wrote (checks.json),
// and renders the table `.ci/conformance.mjs` prints. Kept apart from the runner so the scoring
// rules can be tested without starting anything.
//
// Why count checks instead of reading the suite's verdict: the suite's "OVERALL: PASSED" only means
// "no FAILURE or WARNING was recorded", and a scenario records nothing at all for a client that
// never does what it is waiting for (`initialize` passes a client that exits at once). So a
// scenario passes here only when it recorded at least one judged check and none of them failed.

/** The statuses the suite judges with; INFO (its request log) and SKIPPED are not judgements. */
const JUDGED = new Set(['SUCCESS', 'FAILURE']);

/**
 * passed / failed / total count SUCCESS and FAILURE, as the suite's own "Passed: x/y" does.
 * WARNING (a SHOULD, or timing that is late but within the MUST) is counted apart and does not fail
 * a scenario: the timing one depends on the load of a shared machine, and a MUST that is broken is a
 * FAILURE in the suite anyway.
 */
export function scoreChecks(checks) {
  const list = Array.isArray(checks) ? checks : [];
  const passed = list.filter((c) => c?.status === 'SUCCESS').length;
  const failed = list.filter((c) => c?.status === 'FAILURE').length;
  const warnings = list.filter((c) => c?.status === 'WARNING').length;
  const total = list.filter((c) => JUDGED.has(c?.status)).length;
  const problems = list
    .filter((c) => c?.status === 'FAILURE' || c?.status === 'WARNING')
    .map((c) => ({ id: String(c.id), status: c.status, message: checkMessage(c) }));
  return { passed, failed, warnings, total, problems };
}

/** What a failed check says went wrong, in the suite's words. */
function checkMessage(check) {
  const detail = check.details && typeof check.details.message === 'string' ? check.details.message : undefined;
  return check.errorMessage ?? detail ?? check.description ?? '';
}

/**
 * The verdict of one scenario. `ran` is false when the suite itself did not produce checks (it
 * crashed, or was killed at the hard timeout): then there is nothing to count and it fails.
 */
export function verdictOf(score, ran = true) {
  if (!ran) return { verdict: 'fail', reason: 'The suite produced no results for this scenario.' };
  if (score.total === 0) return { verdict: 'fail', reason: 'No check was judged: the client did nothing this scenario could score.' };
  if (score.failed > 0) return { verdict: 'fail', reason: score.problems.find((p) => p.status === 'FAILURE')?.message ?? '' };
  return { verdict: 'pass', reason: score.warnings > 0 ? score.problems[0].message : '' };
}

const clip = (text, width) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/** A plain-text table, one row per scenario, widths from the content. */
export function formatTable(results) {
  const head = ['scenario', 'group', 'passed', 'failed', 'warn', 'total', 'verdict', 'why'];
  const rows = results.map((r) => [
    r.name, r.group, String(r.passed), String(r.failed), String(r.warnings), String(r.total),
    r.verdict === 'pass' ? 'PASS' : 'FAIL', clip(r.reason.replace(/\s+/g, ' '), 90),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Per group: how many scenarios passed, and how many checks passed of those judged. */
export function summarize(results) {
  const groups = {};
  for (const r of results) {
    const g = (groups[r.group] ??= { scenarios: 0, passing: 0, checksPassed: 0, checksTotal: 0 });
    g.scenarios += 1;
    g.passing += r.verdict === 'pass' ? 1 : 0;
    g.checksPassed += r.passed;
    g.checksTotal += r.total;
  }
  return groups;
}

/**
 * Warnings that depend on the machine's load rather than on the client (a reconnect that came late
 * but within the MUST, sse-retry): they are reported, never counted as a regression. Every other
 * warning is a SHOULD the client can meet, so a new one is.
 */
export const LOAD_DEPENDENT_WARNINGS = new Set(['client-sse-retry-timing']);

/** The baseline a run is held to: per scenario, the checks it passed (written by --write-baseline). */
export function baselineOf(results) {
  return Object.fromEntries(results.map((r) => [r.name, { passed: r.passed, total: r.total }]));
}

/**
 * Each scenario of `results` against the baseline, scored by check counts: a regression is a
 * scenario that fails, passes fewer checks than it did, or warns where it need not. A scenario the
 * baseline does not know (a newer suite) must pass; one it knows that did not run is no regression
 * here (a run of chosen scenarios).
 */
export function regressions(results, baseline) {
  const out = [];
  for (const r of results) {
    const before = baseline?.[r.name];
    const avoidable = r.problems.filter((p) => p.status === 'WARNING' && !LOAD_DEPENDENT_WARNINGS.has(p.id));
    if (r.verdict !== 'pass') out.push({ name: r.name, why: `fails: ${r.reason}` });
    else if (before && r.passed < before.passed) out.push({ name: r.name, why: `passes ${r.passed} checks, ${before.passed} before` });
    else if (avoidable.length > 0) out.push({ name: r.name, why: `warns: ${avoidable.map((p) => `${p.id} (${p.message})`).join('; ')}` });
  }
  return out;
}
