/**
 * What eval runs add up to (issue 27): per case × model the pass rate, the tokens in and out, the
 * mean time of a run and the cost; the table `--eval` prints and the page shows; the JUnit file
 * (a suite per model, a test case per case × repeat; lib/headless/junit.ts).
 *
 * Cost, in US dollars: what the provider reported for every model call of the run when it did
 * (OpenRouter does, in `usage.cost`); else the file's price table for that model (per million
 * tokens in and out); else none. Each cost says which of the two it is.
 */
import { junitXml, type JunitCase, type JunitSuite } from '../headless/junit.ts';
import { resultText } from '../playground/types.ts';
import type { EvalModel } from './models.ts';
import type { RunRecord } from './runner.ts';
import type { EvalCase, Price } from './schema.ts';
import { answerOf, callsOfRun } from './score.ts';

export type CostSource = 'provider' | 'price table';
export interface Cost {
  usd: number;
  /** Where the figure comes from; both when some runs were reported and others priced. */
  sources: CostSource[];
}

export interface EvalCell {
  case: string;
  model: string;
  runs: number;
  passes: number;
  /** Runs that could not be judged (the model call failed, the run was stopped). */
  errors: number;
  inputTokens: number;
  outputTokens: number;
  /** The mean time of a run, prompt to answer. */
  meanMs: number;
  /** Absent when some run has no cost (neither reported nor priced). */
  cost?: Cost;
}

export interface EvalReport {
  cases: string[];
  models: string[];
  cells: EvalCell[];
  records: RunRecord[];
  /** Every run ran and passed. */
  passed: boolean;
}

/** The cost of one run, and where it comes from; undefined when neither the provider nor the file says. */
export function costOf(record: RunRecord, model: EvalModel | undefined, prices: Readonly<Record<string, Price>> | undefined): { usd: number; source: CostSource } | undefined {
  if (record.reportedCost !== undefined) return { usd: record.reportedCost, source: 'provider' };
  const price = prices?.[record.model] ?? (model ? prices?.[model.config.model] : undefined);
  if (!price) return undefined;
  return { usd: (record.usage.inputTokens * price.input + record.usage.outputTokens * price.output) / 1_000_000, source: 'price table' };
}

function cellOf(name: string, model: EvalModel, records: readonly RunRecord[], prices: EvalFilePrices): EvalCell {
  const runs = records.filter((r) => r.case === name && r.model === model.label);
  const costs = runs.map((r) => costOf(r, model, prices));
  const priced = runs.length > 0 && costs.every((c) => c !== undefined);
  const sources = [...new Set(costs.flatMap((c) => (c ? [c.source] : [])))];
  return {
    case: name,
    model: model.label,
    runs: runs.length,
    passes: runs.filter((r) => r.verdict.pass).length,
    errors: runs.filter((r) => r.verdict.error !== undefined).length,
    inputTokens: runs.reduce((s, r) => s + r.usage.inputTokens, 0),
    outputTokens: runs.reduce((s, r) => s + r.usage.outputTokens, 0),
    meanMs: runs.length === 0 ? 0 : runs.reduce((s, r) => s + r.durationMs, 0) / runs.length,
    ...(priced ? { cost: { usd: costs.reduce((s, c) => s + c!.usd, 0), sources } } : {}),
  };
}

type EvalFilePrices = Readonly<Record<string, Price>> | undefined;

/** The runs as a table of case × model, in the order of the file's cases and the models given. */
export function aggregate(records: readonly RunRecord[], plan: { cases: readonly EvalCase[]; models: readonly EvalModel[]; prices?: EvalFilePrices; planned?: number }): EvalReport {
  const cells = plan.cases.flatMap((c) => plan.models.map((m) => cellOf(c.name, m, records, plan.prices)));
  const complete = plan.planned === undefined || records.length === plan.planned;
  return { cases: plan.cases.map((c) => c.name), models: plan.models.map((m) => m.label), cells, records: [...records], passed: complete && records.every((r) => r.verdict.pass) };
}

export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  return usd < 0.0001 ? `$${usd.toExponential(1)}` : `$${usd.toFixed(4)}`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

export function passWords(cell: Pick<EvalCell, 'passes' | 'runs'>): string {
  return cell.runs === 0 ? 'not run' : `${cell.passes}/${cell.runs} (${Math.round((cell.passes / cell.runs) * 100)}%)`;
}

export function costWords(cost: Cost | undefined): string {
  return cost ? `${formatUsd(cost.usd)} (${cost.sources.join(' + ')})` : '—';
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}

/** The transcript of a run in a few lines: each call with its arguments and how it ended, then the answer. */
export function transcriptLines(record: RunRecord): string[] {
  const lines = callsOfRun(record.transcript).map((s) => {
    const result = s.result ? `: ${resultText(s.result).replace(/\s+/g, ' ').slice(0, 200)}` : '';
    return `call ${s.call.name} ${s.call.argumentsText.trim() || '{}'} → ${s.status}${result}`;
  });
  const answer = answerOf(record.transcript);
  lines.push(answer === '' ? `no answer (${record.transcript.status}${record.transcript.reason ? `: ${record.transcript.reason}` : ''})` : `answer: ${answer.replace(/\s+/g, ' ').slice(0, 500)}`);
  return lines;
}

/** The table and every failed run's reasons, as `--eval` prints them. */
export function formatEvalText(report: EvalReport): string {
  const runs = report.records.length;
  const passes = report.records.filter((r) => r.verdict.pass).length;
  const head = `Evals: ${report.cases.length} case${report.cases.length === 1 ? '' : 's'} × ${report.models.length} model${report.models.length === 1 ? '' : 's'}, ${runs} run${runs === 1 ? '' : 's'}: ${passes} passed, ${runs - passes} failed.`;
  const rows = [['case', 'model', 'passed', 'tokens in/out', 'latency', 'cost'], ...report.cells.map((c) => [c.case, c.model, passWords(c), `${c.inputTokens}/${c.outputTokens}`, c.runs === 0 ? '—' : formatMs(c.meanMs), costWords(c.cost)])];
  const failed = report.records.filter((r) => !r.verdict.pass);
  const details = failed.flatMap((r) => [``, `FAILED ${r.case} × ${r.model}, run ${r.repeat}:`, ...r.verdict.reasons.map((reason) => `  - ${reason}`), ...transcriptLines(r).map((l) => `    ${l}`)]);
  const note = 'latency: the mean time of a run, tool calls included; cost: reported by the provider, or from the file\'s price table (US dollars), — where neither.';
  return `${[head, '', table(rows), '', note, ...details].join('\n')}\n`;
}

function junitCase(record: RunRecord): JunitCase {
  const text = [...record.verdict.reasons.map((r) => `- ${r}`), '', ...transcriptLines(record)].join('\n');
  const message = record.verdict.reasons.join('; ');
  return {
    name: `${record.case} (run ${record.repeat})`,
    classname: record.model,
    timeMs: record.durationMs,
    ...(record.verdict.error !== undefined ? { error: { message, type: 'error', text } } : !record.verdict.pass ? { failure: { message, type: 'expectation', text } } : {}),
    systemOut: `tokens: ${record.usage.inputTokens} in, ${record.usage.outputTokens} out\n${transcriptLines(record).join('\n')}`,
  };
}

/** JUnit XML: a suite per model, a test case per case × repeat. */
export function evalJunit(report: EvalReport, timestamp?: string): string {
  const suites: JunitSuite[] = report.models.map((model) => {
    const records = report.records.filter((r) => r.model === model);
    return { name: model, ...(timestamp ? { timestamp } : {}), timeMs: records.reduce((s, r) => s + r.durationMs, 0), cases: records.map(junitCase) };
  });
  return junitXml(suites);
}
