#!/usr/bin/env node
/**
 * `npm run bench`: runs the benchmarks one after another, each in its own process (so that
 * one's warm caches and garbage do not colour the next), then prints one summary from the figures
 * each wrote to bench/results/<name>.json. Every judged row is a ratio to a floor measured in the
 * same run, interleaved with Loupe's side (or, for the tap, ms added over it): an absolute budget
 * lets figures slide with the machine, a floor moves with it.
 *
 * The noise rule (computed in bench/lib/verdict.mjs): each floor is measured k ≥ 2 times in the
 * run, interleaved with Loupe's side (k runs or rounds, or k blocks of calls whose medians are the
 * repeats). Its noise is two standard errors of the median of those repeats, relative to it:
 * 2 · 1.2533 · σ / √k, σ estimated robustly as 1.4826 · MAD (the median absolute deviation), so
 * that one stray repeat on a shared machine does not widen it. A ratio's noise is the ratio times
 * that; an added time's noise is that times the floor, in ms.
 * A row meets its target ('yes'), misses it by no more than its noise ('within noise': not a
 * failure, the run cannot tell), or misses it by more ('no'): then one line
 * `bench: MISSED <row>: 1.53× the floor (target ≤ 1.3×, noise ±0.04×)` goes to stderr and the exit
 * code is 1. A benchmark that cannot run (non-zero exit, timeout, no fresh figures) misses each of
 * its rows the same way. Rows marked context have no floor or no target and are never judged.
 *
 * Environment: LOUPE_CLI=path/to/cli.js benchmarks another build; LOUPE_NODE_ARGS adds Node flags
 * to the Loupe process only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 * Usage: node bench/run-all.mjs [--only name,name]   (names: the benchmark files, e.g. cold-start)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_DIR, busyWarning, machine, mb, printTable, requireBuilt } from './lib/common.mjs';
import { HEADER, summaryRows } from './lib/verdict.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TIMEOUT_MS = 300_000;

const msText = (digits) => (value) => `${value.toFixed(digits)} ms`;
const rate = (value) => `${Math.round(value).toLocaleString('en')}/s`;

/** `94 ms bare node http server (88–102 ms over 9 runs)`. */
function floorCell(value, spread, format, what, repeats) {
  if (!spread) return `${what}: not measured`;
  const [low, high] = [format(spread.min), format(spread.max)];
  const unit = high.match(/[^\d.,]+$/)?.[0] ?? '';
  return `${format(value)} ${what} (${low.endsWith(unit) ? low.slice(0, low.length - unit.length) : low}–${high} over ${spread.repeats} ${repeats})`;
}

/** A row judged as a ratio to its floor. */
const ratio = (loupe, floor, value, target, noise, at = 'most') => ({ loupe, floor, value, unit: '×', at, target, noise });
const context = (loupe, floor) => ({ loupe, floor, context: true });

/** Each benchmark and its rows: [label, figures → the rest of the row]. */
const BENCHES = [
  {
    name: 'cold-start',
    rows: [
      ['launch → UI HTTP 200', (r) => ({
        ...ratio(msText(0)(r.loupe.median), floorCell(r.baseline.median, r.floor, msText(0), 'bare node http server', 'runs'), r.ratio, r.target.ratioAtMost, r.noise.ratio),
        broken: r.uiBuilt ? undefined : 'the UI is not built (first response, not 200)',
      })],
    ],
  },
  {
    name: 'memory',
    rows: [
      ['idle RSS, one session', (r) => ratio(mb(r.loupe.rssBytes), floorCell(r.baseline.rssBytes, r.floor, mb, 'bare SDK Client', 'rounds'), r.ratio, r.target.ratioAtMost, r.noise.ratio)],
    ],
  },
  {
    name: 'workspace',
    rows: [
      [`10 stdio servers from one workspace, spawn → all Connected`, (r) => ratio(msText(0)(r.loupe.medianMs), floorCell(r.baseline.medianMs, r.floor, msText(0), `${r.count} bare SDK Clients`, 'rounds'), r.ratio, r.target.ratioAtMost, r.noise.ratio)],
      ['idle memory per extra session (10 against 1)', (r) => context(mb(r.memory.perExtraSessionBytes), `no floor (old budget < ${r.context.perExtraSessionMbUnder} MB)`)],
    ],
  },
  {
    name: 'watch',
    rows: [
      ['--watch: save → new tool list (less the debounce)', (r) => ratio(msText(0)(r.loupe.median), floorCell(r.baseline.median, r.floor, msText(0), "the server's own start-up (SDK Client spawn → tools/list)", 'rounds'), r.ratio, r.target.ratioAtMost, r.noise.ratio)],
    ],
  },
  {
    name: 'echo-latency',
    rows: [
      ['page → stdio echo', (r) => ({
        ...ratio(msText(3)(r.loupe.median), floorCell(r.floor?.median, r.floor?.spread, msText(3), 'bare WebSocket → stdio relay', 'blocks'), r.vsFloor?.ratio, r.vsFloor?.target, r.vsFloor?.noise),
        broken: r.vsFloor ? undefined : 'the floor was not measured',
      })],
      ['page → stdio echo, against a direct SDK Client', (r) => ratio(msText(3)(r.loupe.median), floorCell(r.direct.median, r.direct.spread, msText(3), 'direct SDK Client', 'blocks'), r.vsDirect.ratio, r.vsDirect.target, r.vsDirect.noise)],
    ],
  },
  {
    name: 'tap',
    rows: [
      ['--tap --record echo round trip', (r) => ({
        loupe: msText(3)(r.tap.median),
        floor: floorCell(r.floor?.median, r.floor?.spread, msText(3), 'bare Node pipe relay', 'blocks'),
        value: r.overFloor?.addedMsMedian,
        unit: 'ms',
        at: 'most',
        target: r.target.addedOverFloorMsMedianAtMost,
        noise: r.overFloor?.noiseMs,
        broken: r.overFloor ? undefined : 'the floor was not measured',
      })],
    ],
  },
  {
    name: 'rules',
    rows: [
      ['echo with 10 enabled rules that match nothing', (r) => ratio(msText(3)(r.idle.median), floorCell(r.none.median, r.none.spread, msText(3), 'Loupe, no rules', 'blocks'), r.idleRatio, r.target.ratioAtMost, r.noise.idle)],
      ['echo with 10 disabled rules', (r) => ratio(msText(3)(r.disabled.median), floorCell(r.none.median, r.none.spread, msText(3), 'Loupe, no rules', 'blocks'), r.disabledRatio, r.target.ratioAtMost, r.noise.disabled)],
    ],
  },
  {
    name: 'protocol',
    rows: [
      ['2026-07-28 echo (--protocol 2026-07-28, v2 fixture)', (r) => ratio(msText(3)(r.loupe.median), floorCell(r.direct.median, r.direct.spread, msText(3), 'direct v2 SDK Client', 'blocks'), r.ratio, r.target.ratioOfMediansAtMost, r.noise.ratio)],
    ],
  },
  {
    name: 'cli',
    rows: [
      ['mcp-loupe --cli --method tools/list, spawn → exit', (r) => ratio(msText(0)(r.oneShot.loupe.median), floorCell(r.oneShot.baseline.median, r.oneShot.floor, msText(0), 'bare SDK script', 'runs'), r.oneShot.ratio, r.oneShot.target.ratioAtMost, r.oneShot.noise.ratio)],
      ['tools/call echo through the engine, no WebSocket', (r) => ({ ...context(msText(3)(r.engineEcho.engine.median), `${msText(3)(r.engineEcho.direct.median)} direct SDK Client (${r.engineEcho.ratio.toFixed(2)}×)`) })],
    ],
  },
  {
    name: 'tool-result-render',
    rows: [
      [`5 MB tool result, click → rendered, in the page`, (r) => ratio(msText(0)(r.big.totalMs), floorCell(r.floor.median, r.floor, msText(0), 'bare SDK Client, callTool → result', 'runs'), r.ratio, r.target.ratioAtMost, r.noise.ratio)],
      ['1 KiB tool result, click → rendered, in the page', (r) => context(msText(0)(r.baseline1KiB.totalMs), `5 MB is ${r.ratioTo1KiB.toFixed(1)}× this`)],
    ],
  },
  {
    name: 'trace-relay',
    rows: [
      ['notifications relayed to the page per second, none lost', (r) => ({
        ...ratio(`${rate(r.loupe.perSecondMedian)}${r.lost ? ' (SOME LOST)' : ''}`, floorCell(r.direct.perSecondMedian, r.floor, rate, 'direct SDK Client', 'rounds'), r.ratio, r.target.ratioAtLeast, r.noise.ratio, 'least'),
        broken: r.lost ? 'notifications lost' : undefined,
      })],
    ],
  },
  {
    name: 'otel-flood',
    rows: [
      ['notifications relayed at 10,000/s with OTLP export on, none lost', (r) => ({
        ...ratio(`${rate(r.traced.perSecondMedian)}${r.lost ? ' (SOME LOST)' : ''}`, floorCell(r.plain.perSecondMedian, r.floor, rate, 'the same Loupe without --otlp', 'rounds'), r.ratio, r.target.ratioAtLeast, r.noise.ratio, 'least'),
        broken: r.lost ? 'notifications lost' : r.exported ? undefined : 'the flood call was not exported',
      })],
    ],
  },
  {
    name: 'trace-ui',
    rows: [
      ['text filter over 100,000 frames in the page', (r) => ratio(msText(1)(r.filter.oursMs), floorCell(r.filter.floorMs, r.filter.floorSpread, msText(1), 'bare includes() loop', 'repeats'), r.filter.ratio, r.target.filterRatioAtMost, r.filter.noise.ratio)],
      ['History query at 100,000 frames in the page (target: the text filter\'s ratio, same run)', (r) => ({
        ...ratio(msText(1)(r.query.oursMs), floorCell(r.query.floorMs, r.query.floorSpread, msText(1), 'bare includes() loop', 'repeats'), r.query.ratio, r.query.targetRatio, r.query.noise.ratio),
        broken: r.query.sameMatches ? undefined : 'the queries did not find the rows their needles find',
      })],
      ['typed filter, each keystroke → paint (max)', (r) => context(`${r.typed.maxMs < 16 ? '< 16' : r.typed.maxMs} ms`, `no floor (old budget ≤ ${r.context.ms} ms)`)],
    ],
  },
];

function selected() {
  const at = process.argv.indexOf('--only');
  if (at === -1) return BENCHES;
  const names = (process.argv[at + 1] ?? '').split(',');
  const unknown = names.filter((n) => !BENCHES.some((b) => b.name === n));
  if (unknown.length > 0) throw new Error(`bench: no benchmark named ${unknown.join(', ')}`);
  return BENCHES.filter((b) => names.includes(b.name));
}

/** Runs one benchmark; returns its figures, or why there are none. */
function run(bench) {
  console.log(`\n=== ${bench.name} ${'='.repeat(60 - bench.name.length)}`);
  const startedAt = Date.now();
  const child = spawnSync(process.execPath, [path.join(HERE, `${bench.name}.mjs`)], { stdio: 'inherit', timeout: TIMEOUT_MS });
  if (child.status !== 0) return { failed: `bench/${bench.name}.mjs could not run (${child.error?.code === 'ETIMEDOUT' ? `timed out after ${TIMEOUT_MS / 1000} s` : `exit ${child.status ?? child.signal}`})` };
  const file = path.join(RESULTS_DIR, `${bench.name}.json`);
  const figures = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  // Figures left by an earlier run would be judged as this run's.
  if (!figures || Date.parse(figures.at) < startedAt - 1_000) return { failed: `bench/${bench.name}.mjs wrote no figures in this run` };
  return { figures };
}

/** The rows of one benchmark: judged from its figures, or failed with the reason. */
function checksOf(bench, outcome) {
  return bench.rows.map(([label, row]) => {
    if (outcome.failed) return { label, loupe: 'FAILED', floor: outcome.failed, broken: outcome.failed };
    try {
      return { label, ...row(outcome.figures) };
    } catch (error) {
      const broken = `its figures are not as expected (${error.message})`;
      return { label, loupe: 'FAILED', floor: broken, broken };
    }
  });
}

requireBuilt();
const started = Date.now();
const checks = selected().flatMap((bench) => checksOf(bench, run(bench)));
const { rows, misses } = summaryRows(checks);
printTable(`Summary (Node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s, load average at end ${machine().loadavg?.join(' ') ?? 'n/a'})`, [HEADER, ...rows]);
const warning = busyWarning();
if (warning) console.log(`\n${warning}`);
if (misses.length > 0) {
  console.error('');
  for (const line of misses) console.error(line);
  process.exit(1);
}
