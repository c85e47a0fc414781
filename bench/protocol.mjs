#!/usr/bin/env node
/**
 * The 2026-07-28 generation (issue 12), in two parts.
 *
 * 1. Echo round trips on a 2026-07-28 session, sequential, one at a time: Loupe (a WebSocket
 *    client of the wire protocol → Loupe started with `--protocol 2026-07-28` → stdio → the v2 SDK
 *    fixture, modern-only) against a direct v2 SDK Client pinned to 2026-07-28 over the SDK's own
 *    stdio transport → a separate fixture, in this process. Interleaved blocks, order swapped each
 *    block, as bench/echo-latency.mjs does for 2025. Target: the same as the 2025 echo, ≤ 1.5×,
 *    judged against the noise of the direct Client's block medians (bench/lib/verdict.mjs).
 * 2. Why the 1.x SDK keeps the 2025 generation (README "Two protocol generations"): the v2 Client
 *    in its legacy mode against the 1.x Client, both bare, against server-everything: import time
 *    and connect time in a fresh process, idle RSS after connect + tools/list, and echo round trips
 *    in this process. No target: these are the figures the decision rests on.
 *
 * Usage: node bench/protocol.mjs [--blocks N] [--calls N] [--runs N]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { BenchWireClient } from './lib/wire-client.mjs';
import { echoSide } from './lib/sdk-echo.mjs';
import { blockMedians, judge, spread } from './lib/verdict.mjs';
import { busyWarning, checkEcho, isMain, machine, mb, median, ms, printTable, requireBuilt, ROOT, sampleRss, serverEverything, spawnUntilLine, startLoupe, stop, summarize, interleaved, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 1.5;
const WARMUP = 20;
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const BLOCKS = arg('--blocks', 8);
const CALLS_PER_BLOCK = arg('--calls', 50);
const RUNS = arg('--runs', 5);
const FIXTURE = path.join(ROOT, 'e2e/fixtures/modern-server.mjs');
const HOLDER = fileURLToPath(new URL('./lib/generation-holder.mjs', import.meta.url));


async function openLoupe() {
  const loupe = await startLoupe(['--protocol', '2026-07-28', process.execPath, FIXTURE, '--stdio', '--modern-only']);
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

/** A bare SDK Client in this process: `v1`, `v2-legacy` or `v2-modern`, over the SDK's own stdio transport. */
async function openDirect(kind, command, args) {
  const client =
    kind === 'v1'
      ? new ClientV1({ name: 'bench-direct', version: '0.0.0' }, { capabilities: {} })
      : new ClientV2({ name: 'bench-direct', version: '0.0.0' }, { capabilities: {}, versionNegotiation: kind === 'v2-modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' } });
  const transport = kind === 'v1' ? new StdioV1({ command, args, stderr: 'pipe' }) : new StdioV2({ command, args, stderr: 'pipe' });
  await client.connect(transport);
  transport.stderr?.resume();
  return echoSide(client);
}


/** Runs the sides' calls interleaved block by block; returns each side's round trips, summarised, with the spread of its block medians. */
async function interleave(sides) {
  const times = await interleaved(sides, { warmup: WARMUP, blocks: BLOCKS, calls: CALLS_PER_BLOCK });
  return times.map((t) => ({ ...summarize(t), spread: spread(blockMedians(t, CALLS_PER_BLOCK)) }));
}

/** A fresh process per run: import and connect times, then its idle RSS. */
async function freshProcess(kind, command, args) {
  const imports = [];
  const connects = [];
  const rss = [];
  for (let i = 0; i < RUNS; i++) {
    const { child, match } = await spawnUntilLine(HOLDER, [kind, command, ...args], /ready ([\d.]+) ([\d.]+)/);
    imports.push(Number(match[1]));
    connects.push(Number(match[2]));
    rss.push((await sampleRss(child.pid, 3)).median);
    await stop(child);
  }
  return { importMs: median(imports), connectMs: median(connects), rssBytes: median(rss) };
}

async function main() {
  requireBuilt();
  const everything = serverEverything();

  // Part 1: 2026-07-28 through Loupe against a direct v2 Client.
  const [loupe, direct] = await Promise.all([openLoupe(), openDirect('v2-modern', process.execPath, [FIXTURE, '--stdio', '--modern-only'])]);
  let l, d;
  try {
    [l, d] = await interleave([loupe, direct]);
  } finally {
    await Promise.allSettled([loupe.close(), direct.close()]);
  }
  const ratio = l.median / d.median;
  const noise = ratio * d.spread.noise;
  const meets = judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise });
  const row = (label, s) => [label, ms(s.median, 3), ms(s.p90, 3), ms(s.p99, 3), String(s.n)];
  printTable(`2026-07-28 tools/call echo round trips (${WARMUP} warm-up each, then ${BLOCKS} interleaved blocks of ${CALLS_PER_BLOCK})`, [
    ['', 'median', 'p90', 'p99', 'calls'],
    row('Loupe --protocol 2026-07-28: WebSocket → proxy → stdio v2 server', l),
    row('Direct: v2 SDK Client (pinned 2026-07-28) → stdio v2 server', d),
  ]);
  console.log(`ratio of medians Loupe / direct: ${ratio.toFixed(2)}×   target ≤ ${TARGET_RATIO}× (the 2025 echo's target), noise ±${noise.toFixed(3)}×   meets target: ${meets}`);

  // Part 2: the v2 Client's legacy era against the 1.x Client, for the 2025 generation.
  const [v1, v2] = await Promise.all([openDirect('v1', everything.command, everything.args), openDirect('v2-legacy', everything.command, everything.args)]);
  let e1, e2;
  try {
    [e1, e2] = await interleave([v1, v2]);
  } finally {
    await Promise.allSettled([v1.close(), v2.close()]);
  }
  const fresh1 = await freshProcess('v1', everything.command, everything.args);
  const fresh2 = await freshProcess('v2-legacy', everything.command, everything.args);
  printTable('The 2025 generation on each SDK, bare, against server-everything (fresh processes for import/connect/RSS)', [
    ['', '1.x Client', 'v2 Client (legacy)', 'v2 / 1.x'],
    ['import the Client and its stdio transport', ms(fresh1.importMs), ms(fresh2.importMs), `${(fresh2.importMs / fresh1.importMs).toFixed(2)}×`],
    ['connect (spawn, initialize) + tools/list', ms(fresh1.connectMs), ms(fresh2.connectMs), `${(fresh2.connectMs / fresh1.connectMs).toFixed(2)}×`],
    ['idle RSS after connect', mb(fresh1.rssBytes), mb(fresh2.rssBytes), `${(fresh2.rssBytes / fresh1.rssBytes).toFixed(2)}×`],
    ['tools/call echo, median round trip', ms(e1.median, 3), ms(e2.median, 3), `${(e2.median / e1.median).toFixed(2)}×`],
  ]);
  if (busyWarning()) console.log(busyWarning());

  const file = writeResults('protocol', {
    machine: machine(),
    busy: busyWarning() || undefined,
    warmup: WARMUP,
    blocks: BLOCKS,
    callsPerBlock: CALLS_PER_BLOCK,
    loupe: l,
    direct: d,
    ratio,
    noise: { relative: d.spread.noise, ratio: noise },
    target: { ratioOfMediansAtMost: TARGET_RATIO },
    meetsTarget: meets,
    legacyOnEachSdk: { v1: { ...fresh1, echo: e1 }, v2Legacy: { ...fresh2, echo: e2 } },
  });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
  return { name: 'protocol', loupe: l.median, baseline: d.median, ratio, meets };
}

export default main;
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
