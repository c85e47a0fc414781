#!/usr/bin/env node
/**
 * What interception rules cost a session that they do not act on (issue 13): `tools/call echo`
 * round trips through three Loupes in the same run, interleaved block by block —
 *   none:      no rules;
 *   disabled:  `--rules` with 10 disabled rules (the pipeline's fast path: one check a frame);
 *   idle:      `--rules` with 10 enabled rules that match nothing here (every frame is read by the
 *              interpreter and passes).
 * The floor is `none`. Target: disabled / none and idle / none ≤ 1.05× at the median, each judged
 * against the noise of the floor's block medians (bench/lib/verdict.mjs).
 *
 * Usage: node bench/rules.mjs [--blocks N] [--calls N]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BenchWireClient } from './lib/wire-client.mjs';
import { blockMedians, judge, spread } from './lib/verdict.mjs';
import { busyWarning, checkEcho, isMain, machine, ms, printTable, requireBuilt, ROOT, serverEverything, startLoupe, stop, summarize, interleaved, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 1.05;
const WARMUP = 20;
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const BLOCKS = arg('--blocks', 6);
const CALLS_PER_BLOCK = arg('--calls', 50);

/** Ten rules of every kind of match, none of which fits an echo call. */
function tenRules(enabled) {
  const actions = [{ type: 'delay', ms: 50 }, { type: 'drop' }, { type: 'error', message: 'no' }, { type: 'pause' }, { type: 'deny' }];
  return Array.from({ length: 10 }, (_, i) => ({
    id: `bench-${i}`,
    enabled,
    match: i % 3 === 0 ? { method: `never/${i}` } : i % 3 === 1 ? { method: 'tools/call', name: `no-such-tool-${i}` } : { direction: 'to-client', text: `never-seen-${i}` },
    action: actions[i % actions.length],
  }));
}

async function openLoupe(rulesFile) {
  const { command, args } = serverEverything();
  const loupe = await startLoupe([...(rulesFile ? ['--rules', rulesFile] : []), command, ...args]);
  const client = await BenchWireClient.open(loupe.wsUrl);
  const session = await client.primaryConnected();
  let n = 0;
  const call = async () => {
    const message = `hello ${n++}`;
    const response = await client.request(session, 'tools/call', { name: 'echo', arguments: { message } });
    if (!response.ok) throw new Error(`echo via Loupe failed: ${JSON.stringify(response.error)}`);
    checkEcho(response.result, message);
  };
  return { call, close: async () => (client.close(), await stop(loupe.child)) };
}

async function main() {
  requireBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'loupe-bench-rules-'));
  const disabledFile = path.join(dir, 'disabled.json');
  const idleFile = path.join(dir, 'idle.json');
  writeFileSync(disabledFile, JSON.stringify({ rules: tenRules(false) }));
  writeFileSync(idleFile, JSON.stringify({ rules: tenRules(true) }));
  const sides = await Promise.all([openLoupe(undefined), openLoupe(disabledFile), openLoupe(idleFile)]);
  let times;
  try {
    times = await interleaved(sides, { warmup: WARMUP, blocks: BLOCKS, calls: CALLS_PER_BLOCK });
  } finally {
    await Promise.allSettled(sides.map((side) => side.close()));
    rmSync(dir, { recursive: true, force: true });
  }
  const [none, disabled, idle] = times.map(summarize);
  const floor = spread(blockMedians(times[0], CALLS_PER_BLOCK));
  const row = (label, s) => [label, ms(s.median, 3), ms(s.p90, 3), ms(s.mean, 3), String(s.n)];
  printTable(`tools/call echo through Loupe (${WARMUP} warm-up each, then ${BLOCKS} interleaved blocks of ${CALLS_PER_BLOCK})`, [
    ['', 'median', 'p90', 'mean', 'calls'],
    row('no rules', none),
    row('10 disabled rules', disabled),
    row('10 enabled rules that match nothing', idle),
  ]);
  const disabledRatio = disabled.median / none.median;
  const idleRatio = idle.median / none.median;
  const noise = { relative: floor.noise, disabled: disabledRatio * floor.noise, idle: idleRatio * floor.noise };
  const judged = (ratio, n) => judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise: n });
  const meets = { disabled: judged(disabledRatio, noise.disabled), idle: judged(idleRatio, noise.idle) };
  console.log(`\n10 disabled / none: ${disabledRatio.toFixed(3)}×   10 idle / none: ${idleRatio.toFixed(3)}×   target ≤ ${TARGET_RATIO}× (no measurable change), noise ±${noise.idle.toFixed(3)}×`);
  console.log(`meets target: disabled ${meets.disabled}, idle ${meets.idle}`);
  if (busyWarning()) console.log(busyWarning());
  const file = writeResults('rules', {
    machine: machine(),
    busy: busyWarning() || undefined,
    warmup: WARMUP,
    blocks: BLOCKS,
    callsPerBlock: CALLS_PER_BLOCK,
    none: { ...none, spread: floor },
    disabled,
    idle,
    disabledRatio,
    idleRatio,
    noise,
    target: { ratioAtMost: TARGET_RATIO },
    meetsTarget: meets,
  });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
  return { name: 'rules', loupe: idle.median, baseline: none.median, ratio: idleRatio, target: `≤ ${TARGET_RATIO}×`, meets, unit: 'ms' };
}

export default main;
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
