#!/usr/bin/env node
/**
 * `--watch` (issue 25): from a save of the server's source to its new tool list, as the page gets
 * it. Loupe runs `--watch node server.mjs` (e2e/fixtures/watch-server.mjs, written to a temporary
 * folder) with one WebSocket client attached as the page would be; each round rewrites the file
 * (another version, the tool list alternating) and times write → the `surface-point` that carries
 * the new tools (Loupe has stopped the old process, started the new one, initialized it and listed
 * its tools). Floor, in the same run, interleaved: the server's own start-up, a bare SDK `Client` in
 * this process spawning the same file over `StdioClientTransport` to its `tools/list` answer.
 * Judged: (Loupe − the debounce) / floor, target ≤ 1.2× (the "1.2× the server's start-up
 * plus the debounce"), against the floor's own noise (bench/lib/verdict.mjs).
 *
 * Usage: node bench/watch.mjs [--rounds N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BenchWireClient } from './lib/wire-client.mjs';
import { judge, spread } from './lib/verdict.mjs';
import { busyWarning, isMain, machine, median, printTable, requireBuilt, startLoupe, stop, writeResults } from './lib/common.mjs';
import { WATCH_TOOLS_V1, WATCH_TOOLS_V2, writeWatchServer } from '../e2e/fixtures/watch-server.mjs';

const TARGET_RATIO = 1.2;
/** proxy/system/watch.ts DEFAULT_DEBOUNCE_MS. */
const DEBOUNCE_MS = 150;
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 7;

const toolsOf = (round) => (round % 2 === 0 ? WATCH_TOOLS_V2 : WATCH_TOOLS_V1);

/** The floor: a bare SDK Client spawning the server and listing its tools. */
async function serverStartUp(file) {
  const started = performance.now();
  const client = new Client({ name: 'bench-floor', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [file], stderr: 'ignore' }));
  const { tools } = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  return { ms, tools: tools.length };
}

async function main() {
  requireBuilt();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-watch-'));
  const file = path.join(dir, 'server.mjs');
  writeWatchServer(file, { version: '0.0.0', tools: WATCH_TOOLS_V1 });
  const loupe = await startLoupe(['--watch', 'node', file]);
  const client = await BenchWireClient.open(loupe.wsUrl);
  const loupeMs = [];
  const floorMs = [];
  try {
    const id = await client.until(() => client.primary, 20_000, 'the session');
    await client.until(() => client.sessions.get(id)?.status === 'connected' && client.surfacePoints.length > 0, 20_000, 'connected and listed');
    // Warm-up of each side (the OS cache, the SDK's first load here).
    await serverStartUp(file);
    for (let round = 0; round <= rounds; round++) {
      const order = round % 2 === 0 ? ['loupe', 'floor'] : ['floor', 'loupe'];
      for (const side of order) {
        if (side === 'floor') {
          const { ms } = await serverStartUp(file);
          if (round > 0) floorMs.push(ms);
          continue;
        }
        const tools = toolsOf(round);
        const seen = client.surfacePoints.length;
        const written = performance.now();
        writeWatchServer(file, { version: `1.0.${round}`, tools });
        const arrived = await client.until(() => client.surfacePoints.slice(seen).find((p) => p.point.lists.tools.length === tools.length && p.point.reason.startsWith('restarted')), 30_000, `round ${round}'s new tool list`);
        if (round > 0) loupeMs.push(arrived.at - written);
        // Let the watcher's debounce and the restart settle before the floor spawns its own.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
  } finally {
    client.close();
    await stop(loupe.child);
    rmSync(dir, { recursive: true, force: true });
  }
  const l = median(loupeMs);
  const floor = spread(floorMs);
  const ratio = (l - DEBOUNCE_MS) / floor.median;
  const noise = ratio * floor.noise;
  const meets = judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise });
  printTable(`--watch: save → new tool list in the page (median of ${loupeMs.length} rounds)`, [
    ['', 'time', 'rounds'],
    ['Loupe: write server.mjs → surface-point with the new tools', `${l.toFixed(0)} ms`, loupeMs.map((x) => x.toFixed(0)).join('  ')],
    ['Floor: bare SDK Client, spawn → tools/list answered', `${floor.median.toFixed(0)} ms`, floorMs.map((x) => x.toFixed(0)).join('  ')],
  ]);
  console.log(`\n(Loupe − ${DEBOUNCE_MS} ms debounce) / floor: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×, noise ±${noise.toFixed(3)}×): meets: ${meets}`);
  busyWarning();
  writeResults('watch', {
    machine: machine(),
    measured: 'write of the watched server file → surface-point with its new tools, over the WebSocket',
    debounceMs: DEBOUNCE_MS,
    loupe: { median: l, runs: loupeMs },
    baseline: { median: floor.median, runs: floorMs },
    floor,
    ratio,
    noise: { ratio: noise },
    target: { ratioAtMost: TARGET_RATIO },
    meetsTarget: meets,
  });
}

if (isMain(import.meta.url)) await main();
