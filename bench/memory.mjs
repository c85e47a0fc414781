#!/usr/bin/env node
/**
 * Idle resident memory (VmRSS of the process and of the `/bin/sh` watchdog Loupe starts beside its
 * stdio servers (proxy/system/watchdog.ts); not the MCP server itself, on either side) with one stdio session to
 * server-everything:
 *   Loupe:    `node dist/proxy/cli.js --no-open --port 0` (its default target), as in normal use: the
 *             page's files fetched once (when out/ is built) and one WebSocket client attached as the
 *             page would be (snapshot received, session connected, `tools/list`);
 *   baseline: a bare Node process with an SDK `Client` + `StdioClientTransport` to the same server,
 *             connected, after `tools/list` (bench/lib/sdk-holder.mjs).
 * Each is sampled SETTLE_MS after it is ready, SAMPLES times INTERVAL_MS apart; the median is kept.
 * ROUNDS (5) alternating rounds; the figure is the median over rounds. Target: ratio ≤ 1.05×, judged
 * against the noise of the baseline's rounds (bench/lib/verdict.mjs).
 *
 * Also, for information: both held side by side for 45 s (after V8's memory reducer has run).
 *
 * Usage: node bench/memory.mjs [--rounds N] [--no-long-idle]
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchWireClient } from './lib/wire-client.mjs';
import { judge, spread } from './lib/verdict.mjs';
import { busyWarning, ROOT, isMain, machine, mb, median, printTable, requireBuilt, rssWithWatchdogs, sampleRss, serverEverything, sleep, spawnUntilLine, startLoupe, stop, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 1.05;
const SETTLE_MS = 3_000;
const SAMPLES = 5;
const INTERVAL_MS = 250;
const LONG_IDLE_MS = 45_000;
const longIdle = !process.argv.includes('--no-long-idle');
/** How many files the last page load fetched (0: the UI is not built, only the WebSocket is attached). */
let pageFiles = 0;
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const HOLDER = fileURLToPath(new URL('./lib/sdk-holder.mjs', import.meta.url));

function get(port, urlPath) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.once('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.once('error', reject);
  });
}

/** What a page load asks for: `/` and every same-origin script, style and icon it names. Returns the count fetched. */
async function loadPage(port) {
  const index = await get(port, '/');
  if (index.status !== 200) return 0;
  const assets = new Set([...index.body.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&')));
  for (const asset of assets) await get(port, asset);
  return 1 + assets.size;
}

/**
 * Loupe as in normal use: the page loaded (when the UI is built) and its WebSocket attached; ready
 * once the session is connected and tools are listed.
 */
async function openLoupe() {
  const loupe = await startLoupe();
  let client;
  try {
    pageFiles = await loadPage(loupe.port);
    client = await BenchWireClient.open(loupe.wsUrl);
    const session = await client.primaryConnected();
    const listed = await client.request(session, 'tools/list', {});
    if (!listed.ok) throw new Error(`tools/list failed: ${JSON.stringify(listed.error)}`);
  } catch (error) {
    client?.close();
    await stop(loupe.child);
    throw error;
  }
  return { pid: loupe.child.pid, measure: rssWithWatchdogs, close: async () => (client.close(), await stop(loupe.child)) };
}

async function openBaseline() {
  const { command, args } = serverEverything();
  const { child } = await spawnUntilLine(HOLDER, [command, ...args], /ready (\d+) tools/);
  child.removeAllListeners('exit');
  return { pid: child.pid, close: () => stop(child) };
}

async function measure(open) {
  const side = await open();
  try {
    await sleep(SETTLE_MS);
    return { ...(await sampleRss(side.pid, SAMPLES, INTERVAL_MS, side.measure)), pid: side.pid };
  } finally {
    await side.close();
  }
}
const measureLoupe = () => measure(openLoupe);
const measureBaseline = () => measure(openBaseline);

/**
 * Both held side by side for LONG_IDLE_MS: V8's memory reducer gives memory back some 15–30 s after a
 * process goes idle, so the 3 s figure (the one with the target) is the early, higher one.
 */
async function measureLongIdle() {
  const [loupe, baseline] = await Promise.all([openLoupe(), openBaseline()]);
  try {
    await sleep(LONG_IDLE_MS);
    const [l, b] = await Promise.all([sampleRss(loupe.pid, SAMPLES, INTERVAL_MS, loupe.measure), sampleRss(baseline.pid, SAMPLES, INTERVAL_MS)]);
    return { loupe: l, baseline: b };
  } finally {
    await Promise.allSettled([loupe.close(), baseline.close()]);
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
  const floor = spread(baseline.map((r) => r.median));
  const noise = ratio * floor.noise;
  const meets = judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise });

  printTable(`Idle RSS with one stdio session to server-everything (${SETTLE_MS / 1000} s settle, median of ${SAMPLES} samples, median of ${rounds} rounds)`, [
    ['', 'RSS', 'rounds'],
    [`Loupe process + its watchdog (${pageFiles ? `page loaded: ${pageFiles} files, ` : 'UI not built, '}1 WebSocket client, after tools/list)`, mb(l), loupe.map((r) => mb(r.median)).join('  ')],
    ['Baseline: bare SDK Client + StdioClientTransport (after tools/list)', mb(b), baseline.map((r) => mb(r.median)).join('  ')],
  ]);
  const long = longIdle ? await measureLongIdle() : undefined;
  if (long) {
    printTable(`For information: the same after ${LONG_IDLE_MS / 1000} s idle, both held side by side (after V8's memory reducer)`, [
      ['', 'RSS', 'ratio'],
      ['Loupe process', mb(long.loupe.median), (long.loupe.median / long.baseline.median).toFixed(3) + '×'],
      ['Baseline process', mb(long.baseline.median), ''],
    ]);
  }
  console.log(`\nratio Loupe / baseline (${SETTLE_MS / 1000} s figure): ${ratio.toFixed(3)}×   added: ${mb(l - b)}`);
  console.log(`target: ratio ≤ ${TARGET_RATIO}×, noise ±${noise.toFixed(3)}× (official inspector's process: 110–128 MB)`);
  console.log(`meets target: ${meets}`);
  if (busyWarning()) console.log(busyWarning());

  const file = writeResults('memory', {
    machine: machine(),
    busy: busyWarning() || undefined,
    settleMs: SETTLE_MS,
    samples: SAMPLES,
    rounds,
    pageFilesFetched: pageFiles,
    loupe: { rssBytes: l, rounds: loupe },
    baseline: { rssBytes: b, rounds: baseline },
    floor,
    ratio,
    noise: { relative: floor.noise, ratio: noise },
    addedBytes: l - b,
    longIdle: long && { afterMs: LONG_IDLE_MS, loupe: long.loupe, baseline: long.baseline, ratio: long.loupe.median / long.baseline.median },
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
