#!/usr/bin/env node
/**
 * Round-trip latency of `tools/call echo`, sequential, one at a time:
 *   Loupe:  a WebSocket client of the wire protocol → Loupe (`request` envelope) → SDK Client →
 *           stdio → server-everything, and back (`response` envelope, after the batched trace events);
 *   direct: an SDK `Client` + `StdioClientTransport` in this process → a separate server-everything.
 * WARMUP calls each first, then BLOCKS blocks of CALLS_PER_BLOCK calls, the two interleaved block by
 * block (and the order swapped every block) so that a noisy shared machine hits both alike.
 * The floor, a third side in the same interleave: a bare WebSocket → stdio relay with no SDK,
 * validation or trace (bench/lib/relay-floor.mjs), i.e. the cost of the extra hop alone.
 * Targets: Loupe's median ≤ 1.10× the floor's; ≤ 1.5× the direct Client's (the official inspector
 * measured about 6×, +1.8 ms a call). Each judged against the noise of that side's block medians
 * (bench/lib/verdict.mjs). Without the floor (--no-floor) the floor's row cannot be judged.
 *
 * Usage: node bench/echo-latency.mjs [--blocks N] [--calls N] [--no-floor]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSdkEcho } from './lib/sdk-echo.mjs';
import { BenchWireClient } from './lib/wire-client.mjs';
import { blockMedians, judge, spread } from './lib/verdict.mjs';
import { busyWarning, checkEcho, isMain, machine, ms, printTable, requireBuilt, ROOT, serverEverything, spawnUntilLine, startLoupe, stop, summarize, timed, URL_PATTERN, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 1.5;
/** Loupe's round trip against the bare relay's: what Loupe's own work costs on top of the hop. */
const FLOOR_TARGET = 1.1;
const WARMUP = 20;
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const BLOCKS = arg('--blocks', 8);
const CALLS_PER_BLOCK = arg('--calls', 50);
const withFloor = !process.argv.includes('--no-floor');
const RELAY_FLOOR = fileURLToPath(new URL('./lib/relay-floor.mjs', import.meta.url));


async function openLoupe() {
  const loupe = await startLoupe();
  // As the page does: the answer names its trace frame, which comes just before it.
  const client = await BenchWireClient.open(loupe.wsUrl, { joinFrames: process.env.BENCH_JOIN !== '0' });
  const session = await client.primaryConnected();
  const proxyMs = [];
  let n = 0;
  const call = async () => {
    const message = `hello ${n++}`;
    const response = await client.request(session, 'tools/call', { name: 'echo', arguments: { message } });
    if (!response.ok) throw new Error(`echo via Loupe failed: ${JSON.stringify(response.error)}`);
    checkEcho(response.result, message);
    proxyMs.push(response.durationMs);
  };
  const close = async () => {
    client.close();
    await stop(loupe.child);
  };
  return { call, close, proxyMs, client };
}

/** The design's floor, for context: a bare WebSocket → stdio relay (bench/lib/relay-floor.mjs). */
async function openFloor() {
  const { command, args } = serverEverything();
  const { child, match } = await spawnUntilLine(RELAY_FLOOR, [command, ...args], URL_PATTERN);
  child.removeAllListeners('exit');
  const client = await BenchWireClient.open(`ws://127.0.0.1:${match[1]}/ws?token=${match[2]}`);
  const session = await client.primaryConnected();
  let n = 0;
  const call = async () => {
    const message = `hello ${n++}`;
    const response = await client.request(session, 'tools/call', { name: 'echo', arguments: { message } });
    if (!response.ok) throw new Error(`echo via the relay floor failed: ${JSON.stringify(response.error)}`);
    checkEcho(response.result, message);
  };
  return { call, close: async () => (client.close(), await stop(child)) };
}

function openDirect() {
  const { command, args } = serverEverything();
  return openSdkEcho('bench-direct', command, args);
}


async function main() {
  requireBuilt();
  const [loupe, direct, floor] = await Promise.all([openLoupe(), openDirect(), withFloor ? openFloor() : undefined]);
  const loupeMs = [];
  const directMs = [];
  const floorMs = [];
  try {
    await timed(loupe.call, WARMUP);
    await timed(direct.call, WARMUP);
    if (floor) await timed(floor.call, WARMUP);
    loupe.proxyMs.length = 0;
    const sides = [[loupe, loupeMs], [direct, directMs], ...(floor ? [[floor, floorMs]] : [])];
    for (let block = 0; block < BLOCKS; block++) {
      // Interleaved, the order reversed every other block.
      for (const [side, into] of block % 2 === 0 ? sides : [...sides].reverse()) await timed(side.call, CALLS_PER_BLOCK, into);
    }
  } finally {
    await Promise.allSettled([loupe.close(), direct.close(), floor?.close()]);
  }

  const l = summarize(loupeMs);
  const d = summarize(directMs);
  const p = summarize(loupe.proxyMs);
  const f = floorMs.length ? summarize(floorMs) : undefined;
  const ratio = l.median / d.median;
  const directSpread = spread(blockMedians(directMs, CALLS_PER_BLOCK));
  const vsDirect = { ratio, noise: ratio * directSpread.noise, target: TARGET_RATIO };
  const meets = judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise: vsDirect.noise });
  const floorSpread = f && spread(blockMedians(floorMs, CALLS_PER_BLOCK));
  const vsFloor = f && { ratio: l.median / f.median, noise: (l.median / f.median) * floorSpread.noise, target: FLOOR_TARGET };
  if (vsFloor) vsFloor.meets = judge({ value: vsFloor.ratio, unit: '×', at: 'most', target: FLOOR_TARGET, noise: vsFloor.noise });
  const row = (label, s) => [label, ms(s.median, 3), ms(s.p90, 3), ms(s.p99, 3), ms(s.mean, 3), String(s.n)];
  printTable(`tools/call echo round trips (${WARMUP} warm-up each, then ${BLOCKS} interleaved blocks of ${CALLS_PER_BLOCK})`, [
    ['', 'median', 'p90', 'p99', 'mean', 'calls'],
    row('Loupe: WebSocket → proxy → stdio server', l),
    row('  of which inside the proxy (durationMs)', p),
    row('Direct: SDK Client → stdio server', d),
    ...(f ? [row('Floor: bare WebSocket → stdio relay', f)] : []),
  ]);
  if (f) console.log(`the floor (no SDK, no validation, no trace) is ${(f.median / d.median).toFixed(2)}× direct: the cost of the extra process hop alone on this machine`);
  if (f) console.log(`Loupe / the floor: ${vsFloor.ratio.toFixed(2)}×   target ≤ ${FLOOR_TARGET}×, noise ±${vsFloor.noise.toFixed(3)}× (issue 10: one parse, no second validation, no needless copies): meets: ${vsFloor.meets}`);
  console.log(`\nratio of medians Loupe / direct: ${ratio.toFixed(2)}×   added per call: ${ms(l.median - d.median, 3)} (median), ${ms(l.mean - d.mean, 3)} (mean)`);
  console.log(`target: ratio of medians ≤ ${TARGET_RATIO}×, noise ±${vsDirect.noise.toFixed(3)}× (official inspector: about 6×, +1.8 ms a call)`);
  console.log(`meets target: ${meets}`);
  if (busyWarning()) console.log(busyWarning());

  const file = writeResults('echo-latency', {
    machine: machine(),
    busy: busyWarning() || undefined,
    warmup: WARMUP,
    blocks: BLOCKS,
    callsPerBlock: CALLS_PER_BLOCK,
    loupe: l,
    loupeInsideProxy: p,
    direct: { ...d, spread: directSpread },
    floor: f && { ...f, spread: floorSpread, ratioToDirect: f.median / d.median, loupeToFloor: l.median / f.median, target: FLOOR_TARGET },
    vsFloor,
    vsDirect,
    ratio,
    addedMsMedian: l.median - d.median,
    addedMsMean: l.mean - d.mean,
    target: { ratioOfMediansAtMost: TARGET_RATIO },
    meetsTarget: meets,
    eventMessagesReceived: loupe.client.eventMessages,
  });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
  return { name: 'echo-latency', loupe: l.median, baseline: d.median, ratio, target: `≤ ${TARGET_RATIO}× (median)`, meets, unit: 'ms' };
}

export default main;
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
