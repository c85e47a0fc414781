#!/usr/bin/env node
/**
 * Idle resident memory (VmRSS of the one process, not its children) with one stdio session to
 * server-everything:
 *   Loupe:    `node dist/proxy/cli.js --no-open --port 0` (its default target), with one WebSocket
 *             client attached as a page would be (snapshot received, session connected, `tools/list`);
 *   baseline: a bare Node process with an SDK `Client` + `StdioClientTransport` to the same server,
 *             connected, after `tools/list` (bench/lib/sdk-holder.mjs).
 * Each is sampled SETTLE_MS after it is ready, SAMPLES times INTERVAL_MS apart; the median is kept.
 * ROUNDS alternating rounds; the figure is the median over rounds. Target: ratio ≤ 1.15×.
 *
 * Usage: node bench/memory.mjs [--rounds N]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchWireClient } from './lib/wire-client.mjs';
import { ROOT, isMain, machine, mb, median, printTable, requireBuilt, sampleRss, serverEverything, sleep, spawnUntilLine, startLoupe, stop, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 1.15;
const SETTLE_MS = 3_000;
const SAMPLES = 5;
const INTERVAL_MS = 250;
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const HOLDER = fileURLToPath(new URL('./lib/sdk-holder.mjs', import.meta.url));

async function measureLoupe() {
  const loupe = await startLoupe();
  let client;
  try {
    client = await BenchWireClient.open(loupe.wsUrl);
    const session = await client.primaryConnected();
    const listed = await client.request(session, 'tools/list', {});
    if (!listed.ok) throw new Error(`tools/list failed: ${JSON.stringify(listed.error)}`);
    await sleep(SETTLE_MS);
    const rss = await sampleRss(loupe.child.pid, SAMPLES, INTERVAL_MS);
    return { ...rss, tools: listed.result.tools.length, pid: loupe.child.pid };
  } finally {
    client?.close();
    await stop(loupe.child);
  }
}

async function measureBaseline() {
  const { command, args } = serverEverything();
  const { child } = await spawnUntilLine(HOLDER, [command, ...args], /ready (\d+) tools/);
  child.removeAllListeners('exit');
  try {
    await sleep(SETTLE_MS);
    return { ...(await sampleRss(child.pid, SAMPLES, INTERVAL_MS)), pid: child.pid };
  } finally {
    await stop(child);
  }
}

async function main() {
  requireBuilt();
  const loupe = [];
  const baseline = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so neither always runs on a freshly quiet machine.
    if (i % 2 === 0) {
      loupe.push(await measureLoupe());
      baseline.push(await measureBaseline());
    } else {
      baseline.push(await measureBaseline());
      loupe.push(await measureLoupe());
    }
  }
  const l = median(loupe.map((r) => r.median));
  const b = median(baseline.map((r) => r.median));
  const ratio = l / b;
  const meets = ratio <= TARGET_RATIO;

  printTable(`Idle RSS with one stdio session to server-everything (${SETTLE_MS / 1000} s settle, median of ${SAMPLES} samples, median of ${rounds} rounds)`, [
    ['', 'RSS', 'rounds'],
    ['Loupe process (1 WebSocket client attached, after tools/list)', mb(l), loupe.map((r) => mb(r.median)).join('  ')],
    ['Baseline: bare SDK Client + StdioClientTransport (after tools/list)', mb(b), baseline.map((r) => mb(r.median)).join('  ')],
  ]);
  console.log(`\nratio Loupe / baseline: ${ratio.toFixed(3)}×   added: ${mb(l - b)}`);
  console.log(`target: ratio ≤ ${TARGET_RATIO}× (official inspector's process: 110–128 MB)`);
  console.log(`meets target: ${meets ? 'yes' : 'no'}`);

  const file = writeResults('memory', {
    machine: machine(),
    settleMs: SETTLE_MS,
    samples: SAMPLES,
    rounds,
    loupe: { rssBytes: l, rounds: loupe },
    baseline: { rssBytes: b, rounds: baseline },
    ratio,
    addedBytes: l - b,
    target: { ratioAtMost: TARGET_RATIO },
    meetsTarget: meets,
  });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
  return { name: 'memory', loupe: l, baseline: b, ratio, target: `≤ ${TARGET_RATIO}×`, meets, unit: 'bytes' };
}

export default main;
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
