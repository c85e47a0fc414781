#!/usr/bin/env node
/**
 * What `mcp-loupe --tap --record` adds to a host's round trip (issue 13): `tools/call echo`, sequential,
 *   tap:    an SDK `Client` + `StdioClientTransport` in this process → `mcp-loupe --tap --no-attach
 *           --record <tmp file> --` server-everything (the host's stdio copied byte for byte, each
 *           line recorded on the side and written to the file);
 *   floor:  the same SDK Client → the floor of any stdio relay in Node, a bare
 *           `process.stdin.pipe(child.stdin)` / `child.stdout.pipe(process.stdout)` process with no
 *           recording, process group or signal handling (FLOOR below) → server-everything;
 *   direct: the same SDK Client and transport → a separate server-everything (for context: what
 *           any extra process hop costs).
 * WARMUP calls each first, then BLOCKS blocks of CALLS_PER_BLOCK calls, the three interleaved block
 * by block (the order swapped every block) so that a noisy shared machine hits all alike.
 * Target: the tap adds at most 0.05 ms a call over the floor at the median, judged against the
 * noise of the floor's block medians (bench/lib/verdict.mjs). Without the floor (--no-floor) the
 * row cannot be judged.
 *
 * Usage: node bench/tap.mjs [--blocks N] [--calls N] [--no-floor]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { blockMedians, judge, spread } from './lib/verdict.mjs';
import { openSdkEcho } from './lib/sdk-echo.mjs';
import { busyWarning, CLI, isMain, LOUPE_NODE_ARGS, machine, ms, printTable, requireBuilt, ROOT, serverEverything, summarize, interleaved, writeResults } from './lib/common.mjs';

const TARGET_ADDED_MS = 0.05;
const WARMUP = 50;
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const BLOCKS = arg('--blocks', 6);
const CALLS_PER_BLOCK = arg('--calls', 100);
const withFloor = !process.argv.includes('--no-floor');
/** The bare relay: the cost of the extra process hop alone. */
const FLOOR = "const c = require('child_process').spawn(process.argv[1], process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] }); process.stdin.pipe(c.stdin); c.stdout.pipe(process.stdout); c.on('exit', (code) => process.exit(code ?? 1));";

async function main() {
  requireBuilt();
  const { command, args } = serverEverything();
  const dir = mkdtempSync(path.join(tmpdir(), 'loupe-bench-tap-'));
  const record = path.join(dir, 'tap.jsonl');
  const [tap, direct, floor] = await Promise.all([
    openSdkEcho('bench-tap', process.execPath, [...LOUPE_NODE_ARGS, CLI, '--tap', '--no-attach', '--record', record, '--', command, ...args]),
    openSdkEcho('bench-direct', command, args),
    withFloor ? openSdkEcho('bench-floor', process.execPath, ['-e', FLOOR, command, ...args]) : undefined,
  ]);
  let tapMs, directMs, floorMs;
  try {
    [tapMs, directMs, floorMs = []] = await interleaved([tap, direct, ...(floor ? [floor] : [])], { warmup: WARMUP, blocks: BLOCKS, calls: CALLS_PER_BLOCK });
  } finally {
    await Promise.allSettled([tap.close(), direct.close(), floor?.close()]);
    rmSync(dir, { recursive: true, force: true });
  }

  const t = summarize(tapMs);
  const d = summarize(directMs);
  const f = floorMs.length > 0 ? summarize(floorMs) : undefined;
  const added = t.median - d.median;
  const ratio = t.median / d.median;
  const floorSpread = f && spread(blockMedians(floorMs, CALLS_PER_BLOCK));
  const overFloor = f && { addedMsMedian: t.median - f.median, noiseMs: floorSpread.noise * f.median, target: TARGET_ADDED_MS };
  const meets = overFloor ? judge({ value: overFloor.addedMsMedian, unit: 'ms', at: 'most', target: TARGET_ADDED_MS, noise: overFloor.noiseMs }) : 'no (the floor was not measured)';
  const row = (label, s) => [label, ms(s.median, 3), ms(s.p90, 3), ms(s.p99, 3), ms(s.mean, 3), String(s.n)];
  printTable(`tools/call echo round trips (${WARMUP} warm-up each, then ${BLOCKS} interleaved blocks of ${CALLS_PER_BLOCK})`, [
    ['', 'median', 'p90', 'p99', 'mean', 'calls'],
    row('Tap: SDK Client → mcp-loupe --tap --record → stdio server', t),
    ...(f ? [row('Floor: SDK Client → bare Node pipe relay → stdio server', f)] : []),
    row('For context, direct: SDK Client → stdio server', d),
  ]);
  console.log(`\nadded per call by the tap over direct: ${ms(added, 3)} (median), ${ms(t.mean - d.mean, 3)} (mean)   ratio of medians: ${ratio.toFixed(2)}×`);
  if (f) console.log(`the floor adds ${ms(f.median - d.median, 3)} a call (median): the cost of the extra process hop alone on this machine; the tap adds ${ms(t.median - f.median, 3)} on top of it`);
  console.log(`target: ≤ +${TARGET_ADDED_MS} ms a call over the floor at the median (nothing parsed on the relay's path)${overFloor ? `, noise ±${overFloor.noiseMs.toFixed(3)} ms` : ''}`);
  console.log(`meets target: ${meets}`);
  if (busyWarning()) console.log(busyWarning());

  const file = writeResults('tap', {
    machine: machine(),
    busy: busyWarning() || undefined,
    warmup: WARMUP,
    blocks: BLOCKS,
    callsPerBlock: CALLS_PER_BLOCK,
    tap: t,
    direct: d,
    floor: f && { ...f, spread: floorSpread, addedMsMedian: f.median - d.median, tapOverFloorMsMedian: t.median - f.median },
    overFloor,
    ratio,
    addedMsMedian: added,
    addedMsMean: t.mean - d.mean,
    target: { addedOverFloorMsMedianAtMost: TARGET_ADDED_MS },
    meetsTarget: meets,
  });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
  return { name: 'tap', loupe: t.median, baseline: d.median, ratio, target: `≤ +${TARGET_ADDED_MS} ms over the floor (median)`, meets, unit: 'ms' };
}

export default main;
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
