#!/usr/bin/env node
/**
 * `npm run bench`: runs the benchmarks one after another, each in its own process (so that
 * one's warm caches and garbage do not colour the next), then prints a combined summary from the
 * figures each wrote to bench/results/<name>.json. Figures, not tests: the exit code is 0 whether
 * or not a target is met (non-zero only if a benchmark could not run).
 * Environment: LOUPE_CLI=path/to/cli.js benchmarks another build; LOUPE_NODE_ARGS adds Node flags
 * to the Loupe process only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_DIR, busyWarning, machine, mb, printTable, requireBuilt } from './lib/common.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BENCHES = [
  {
    name: 'cold-start',
    row: (r) => [
      `cold start, spawn → first HTTP ${r.uiBuilt ? '200' : 'response (UI not built)'} (median of ${r.runs})`,
      `${r.loupe.median.toFixed(0)} ms`,
      `${r.baseline.median.toFixed(0)} ms (bare node http)`,
      `${r.ratio.toFixed(2)}×`,
      `≤ ${r.target.loupeMedianMsAtMost} ms`,
    ],
  },
  {
    name: 'memory',
    row: (r) => [
      `idle RSS, one stdio session (${r.settleMs / 1000} s settle)`,
      mb(r.loupe.rssBytes),
      `${mb(r.baseline.rssBytes)} (bare SDK Client)`,
      `${r.ratio.toFixed(3)}×`,
      `≤ ${r.target.ratioAtMost}×`,
    ],
  },
  {
    name: 'workspace',
    row: (r) => [
      `${r.count} stdio servers from one workspace, spawn → all Connected (${r.servers})`,
      `${r.loupe.medianMs.toFixed(0)} ms`,
      `${r.baseline.medianMs.toFixed(0)} ms (${r.count} bare SDK Clients in parallel)`,
      `${r.ratio.toFixed(2)}×`,
      `≤ ${r.target.ratioAtMost}×`,
    ],
    meets: (r) => r.ratio <= r.target.ratioAtMost,
  },
  {
    name: 'workspace-memory',
    file: 'workspace',
    row: (r) => [
      `idle memory per extra session (${r.count} against 1; ${r.memory.measure})`,
      mb(r.memory.perExtraSessionBytes),
      `${mb(r.memory.oneBytes)} (Loupe, 1 session)`,
      '',
      `< ${r.target.perExtraSessionMbUnder} MB`,
    ],
    meets: (r) => r.memory.perExtraSessionBytes < r.target.perExtraSessionMbUnder * 1024 * 1024,
  },
  {
    name: 'echo-latency',
    row: (r) => [
      `tools/call echo, median of ${r.loupe.n} (+${r.addedMsMedian.toFixed(3)} ms a call)`,
      `${r.loupe.median.toFixed(3)} ms`,
      `${r.direct.median.toFixed(3)} ms (direct SDK Client)`,
      `${r.ratio.toFixed(2)}×`,
      `≤ ${r.target.ratioOfMediansAtMost}×`,
    ],
  },
  {
    name: 'echo-floor',
    file: 'echo-latency',
    row: (r) => [
      'the same echo against a bare WebSocket → stdio relay (the floor)',
      `${r.loupe.median.toFixed(3)} ms`,
      r.floor ? `${r.floor.median.toFixed(3)} ms (relay floor)` : 'not measured',
      r.floor ? `${r.floor.loupeToFloor.toFixed(2)}×` : '',
      '≤ 1.15×',
    ],
    meets: (r) => r.floor !== undefined && r.floor.loupeToFloor <= r.floor.target,
  },
  {
    name: 'tap',
    row: (r) => [
      `tools/call echo through --tap, median of ${r.tap.n} (+${r.addedMsMedian.toFixed(3)} ms a call)`,
      `${r.tap.median.toFixed(3)} ms`,
      `${r.direct.median.toFixed(3)} ms (direct SDK Client)`,
      `${r.ratio.toFixed(2)}×`,
      `≤ +${r.target.addedMsMedianAtMost} ms`,
    ],
    meets: (r) => r.meetsTarget,
  },
  {
    name: 'rules',
    row: (r) => [
      `echo with 10 interception rules that match nothing (issue 13), median of ${r.idle.n}`,
      `${r.idle.median.toFixed(3)} ms`,
      `${r.none.median.toFixed(3)} ms (no rules; 10 disabled: ${r.disabledRatio.toFixed(3)}×)`,
      `${r.idleRatio.toFixed(3)}×`,
      `≤ ${r.target.ratioAtMost}×`,
    ],
  },
  {
    name: 'protocol',
    row: (r) => [
      `2026-07-28 tools/call echo (--protocol 2026-07-28, v2 fixture), median of ${r.loupe.n}`,
      `${r.loupe.median.toFixed(3)} ms`,
      `${r.direct.median.toFixed(3)} ms (direct v2 SDK Client)`,
      `${r.ratio.toFixed(2)}×`,
      `≤ ${r.target.ratioOfMediansAtMost}×`,
    ],
  },
  {
    name: 'cli',
    row: (r) => [
      `mcp-loupe --cli --method tools/list, spawn → exit (median of ${r.oneShot.loupe.n})`,
      `${r.oneShot.loupe.median.toFixed(0)} ms`,
      `${r.oneShot.baseline.median.toFixed(0)} ms (bare SDK script)`,
      `${r.oneShot.ratio.toFixed(2)}×`,
      `≤ ${r.oneShot.target.ratioAtMost}×`,
    ],
    meets: (r) => r.oneShot.ratio <= r.oneShot.target.ratioAtMost,
  },
  {
    name: 'cli-engine-echo',
    file: 'cli',
    row: (r) => [
      `tools/call echo through the engine, no WebSocket (median of ${r.engineEcho.engine.n})`,
      `${r.engineEcho.engine.median.toFixed(3)} ms`,
      `${r.engineEcho.direct.median.toFixed(3)} ms (direct SDK Client)`,
      `${r.engineEcho.ratio.toFixed(2)}×`,
      '(context)',
    ],
    meets: () => true,
  },
  {
    name: 'tool-result-render',
    row: (r) => [
      `Run tool → rendered ${r.bigMegabytes} MB text result (median of ${r.runs})`,
      `${r.big.totalMs.toFixed(0)} ms`,
      `${r.baseline1KiB.totalMs.toFixed(0)} ms (1 KiB result)`,
      `${r.ratio.toFixed(1)}×`,
      `≤ ${r.target.medianMsAtMost} ms`,
    ],
    meets: (r) => r.big.totalMs <= r.target.medianMsAtMost,
  },
  {
    name: 'trace-relay',
    row: (r) => [
      `notifications relayed stdio → WebSocket, ${r.count.toLocaleString('en')} a round (${r.lost ? 'SOME LOST' : 'none lost'})`,
      `${Math.round(r.loupe.perSecondMedian).toLocaleString('en')}/s`,
      `${Math.round(r.direct.perSecondMedian).toLocaleString('en')}/s (direct SDK Client)`,
      `${r.ratio.toFixed(2)}×`,
      `≥ ${r.target.perSecondAtLeast.toLocaleString('en')}/s`,
    ],
    meets: (r) => !r.lost && r.loupe.perSecondMedian >= r.target.perSecondAtLeast,
  },
  {
    name: 'trace-ui',
    row: (r) => {
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const ours = median(r.filter.ours.map((x) => x.ms));
      const floor = median(r.filter.floor.map((x) => x.ms));
      return [`text filter over ${r.rows.toLocaleString('en')} frames in the page`, `${ours.toFixed(1)} ms`, `${floor.toFixed(1)} ms (bare includes() loop)`, `${(ours / floor).toFixed(2)}×`, `≤ ${r.target.ms} ms`];
    },
    meets: (r) => Math.max(...r.filter.ours.map((x) => x.ms)) <= r.target.ms && r.typed.maxMs <= r.target.ms,
  },
];

requireBuilt();
const started = Date.now();
const failed = [];
for (const bench of BENCHES) {
  if (bench.file) continue; // a second row of another benchmark's figures
  console.log(`\n=== ${bench.name} ${'='.repeat(60 - bench.name.length)}`);
  const run = spawnSync(process.execPath, [path.join(HERE, `${bench.name}.mjs`)], { stdio: 'inherit', timeout: 150_000 });
  if (run.status !== 0) failed.push(bench.name);
}

const rows = [['benchmark', 'Loupe', 'baseline (same run)', 'ratio', 'target', 'meets target']];
for (const bench of BENCHES) {
  if (failed.includes(bench.file ?? bench.name)) {
    rows.push([bench.name, 'FAILED', '', '', '', '']);
    continue;
  }
  const result = JSON.parse(readFileSync(path.join(RESULTS_DIR, `${bench.file ?? bench.name}.json`), 'utf8'));
  const meets = bench.meets ? bench.meets(result) : result.meetsTarget;
  rows.push([...bench.row(result), meets ? 'yes' : 'no']);
}
const warning = busyWarning();
printTable(`Summary (${((Date.now() - started) / 1000).toFixed(0)} s, load average at end ${machine().loadavg?.join(' ') ?? 'n/a'})`, rows);
if (warning) console.log(`\n${warning}`);
if (failed.length > 0) {
  console.error(`\nbench: could not run: ${failed.join(', ')}`);
  process.exit(1);
}
