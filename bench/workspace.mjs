#!/usr/bin/env node
/**
 * Ten stdio servers from one workspace file (issue 9).
 *
 * Time: from spawning `mcp-loupe --no-open --port 0 --config ten.json` to all ten sessions
 * `Connected`, seen over the WebSocket as the page sees it (bench/lib/wire-client.mjs), against a
 * bare Node process connecting ten SDK `Client`s (`StdioClientTransport`) in parallel, from its
 * spawn to its "ready" line (bench/lib/sdk-many.mjs). Both include Node's start and the SDK's
 * load. Target: ratio ≤ 1.3×, judged against the noise of the baseline's rounds (bench/lib/verdict.mjs).
 *
 * Memory: Loupe idle with ten sessions against Loupe idle with one (same server), both with one
 * WebSocket client attached, SETTLE_MS after all are connected: (ten − one) / 9 per extra session.
 * The figure is Loupe's VmRSS plus the Pss of its `/bin/sh` watchdog (one for all stdio sessions,
 * proxy/system/watchdog.ts; Pss: a shell's pages are shared with every other shell; the RSS figure
 * is printed too). The MCP servers are not counted.
 * No floor is measured for this figure: the old budget (< 3 MB per extra idle session) is printed
 * for context only.
 *
 * Servers: e2e/fixtures/workspace-server.mjs by default (a raw-JSON-RPC server with no SDK: ten
 * server-everything processes on 2 cores spend most of the time loading the servers' own code,
 * which measures the servers, not Loupe); `--everything` uses server-everything instead.
 *
 * Usage: node bench/workspace.mjs [--rounds N] [--everything]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchWireClient } from './lib/wire-client.mjs';
import { judge, spread } from './lib/verdict.mjs';
import {
  ROOT, busyWarning, isMain, machine, mb, median, printTable, requireBuilt, rssWithWatchdogPss, rssWithWatchdogs, sampleRss, serverEverything, sleep, spawnUntilLine, startLoupe, stop, writeResults,
} from './lib/common.mjs';

const COUNT = 10;
const TARGET_RATIO = 1.3;
const TARGET_MB_PER_SESSION = 3;
const SETTLE_MS = 3_000;
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const everything = process.argv.includes('--everything');
const MANY = fileURLToPath(new URL('./lib/sdk-many.mjs', import.meta.url));
const FIXTURE = path.join(ROOT, 'e2e/fixtures/workspace-server.mjs');

/** The server command, and whether each gets its name as a last argument (the fixture does). */
function server() {
  return everything ? { ...serverEverything(), nameArg: false } : { command: process.execPath, args: [FIXTURE], nameArg: true };
}

function workspaceFile(count) {
  const { command, args, nameArg } = server();
  const mcpServers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, { command, args: nameArg ? [...args, `s${i}`] : args }]));
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-ws-')), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers }, null, 2));
  return file;
}

/** Loupe from spawn to `count` sessions connected; returns the time and a way to measure and stop it. */
async function openLoupe(count) {
  const loupe = await startLoupe(['--config', workspaceFile(count)]);
  const client = await BenchWireClient.open(loupe.wsUrl);
  try {
    await client.until(() => {
      const sessions = [...client.sessions.values()];
      const failed = sessions.find((s) => s.status === 'failed');
      if (failed) throw new Error(`${failed.name} failed: ${JSON.stringify(failed.error)}`);
      return sessions.length === count && sessions.every((s) => s.status === 'connected');
    }, 60_000, `${count} sessions connected`);
  } catch (error) {
    client.close();
    await stop(loupe.child);
    throw error;
  }
  const ms = performance.now() - loupe.spawnedAt;
  return { ms, pid: loupe.child.pid, close: async () => (client.close(), await stop(loupe.child)) };
}

async function openBaseline(count) {
  const { command, args, nameArg } = server();
  const { child, spawnedAt, lineAt } = await spawnUntilLine(MANY, [String(count), nameArg ? '1' : '0', command, ...args], /ready (\d+)/, { timeoutMs: 60_000 });
  child.removeAllListeners('exit');
  return { ms: lineAt - spawnedAt, pid: child.pid, close: () => stop(child) };
}

async function timed(open) {
  const side = await open();
  await side.close();
  return side.ms;
}

async function idleMemory(count) {
  const side = await openLoupe(count);
  try {
    await sleep(SETTLE_MS);
    const [fair, rss] = [await sampleRss(side.pid, 5, 250, rssWithWatchdogPss), await sampleRss(side.pid, 5, 250, rssWithWatchdogs)];
    return { fair: fair.median, rss: rss.median };
  } finally {
    await side.close();
  }
}

async function main() {
  requireBuilt();
  const loupe = [];
  const baseline = [];
  const ten = [];
  const one = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so neither always runs on a freshly quiet machine.
    const order = i % 2 === 0 ? ['loupe', 'baseline'] : ['baseline', 'loupe'];
    for (const side of order) (side === 'loupe' ? loupe : baseline).push(await timed(side === 'loupe' ? () => openLoupe(COUNT) : () => openBaseline(COUNT)));
    if (i < 3) {
      ten.push(await idleMemory(COUNT));
      one.push(await idleMemory(1));
    }
  }
  const l = median(loupe);
  const b = median(baseline);
  const ratio = l / b;
  const tenFair = median(ten.map((m) => m.fair));
  const oneFair = median(one.map((m) => m.fair));
  const perSession = (tenFair - oneFair) / (COUNT - 1);
  const perSessionRss = (median(ten.map((m) => m.rss)) - median(one.map((m) => m.rss))) / (COUNT - 1);
  const floor = spread(baseline);
  const noise = ratio * floor.noise;
  const meetsTime = judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise });
  const meetsMemory = perSession < TARGET_MB_PER_SESSION * 1024 * 1024;
  const what = everything ? 'server-everything' : 'e2e/fixtures/workspace-server.mjs';

  printTable(`${COUNT} stdio servers (${what}) from one workspace file, spawn → all Connected (median of ${rounds} rounds)`, [
    ['', 'time', 'rounds'],
    [`Loupe --config (${COUNT} sessions, seen over its WebSocket)`, `${l.toFixed(0)} ms`, loupe.map((x) => x.toFixed(0)).join('  ')],
    [`Baseline: ${COUNT} bare SDK Clients in parallel in one process`, `${b.toFixed(0)} ms`, baseline.map((x) => x.toFixed(0)).join('  ')],
  ]);
  printTable(`Loupe idle (${SETTLE_MS / 1000} s settle), ${COUNT} sessions against 1 (median of ${ten.length} rounds)`, [
    ['', `${COUNT} sessions`, '1 session', 'per extra session'],
    ['VmRSS of Loupe + Pss of its watchdogs (the figure)', mb(tenFair), mb(oneFair), mb(perSession)],
    ['VmRSS of Loupe + VmRSS of its watchdogs', mb(median(ten.map((m) => m.rss))), mb(median(one.map((m) => m.rss))), mb(perSessionRss)],
  ]);
  console.log(`\ntime ratio Loupe / baseline: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×, noise ±${noise.toFixed(3)}×): meets: ${meetsTime}`);
  console.log(`memory per extra idle session: ${mb(perSession)} (for context; the old budget: < ${TARGET_MB_PER_SESSION} MB: ${meetsMemory ? 'within it' : 'over it'})`);
  if (busyWarning()) console.log(busyWarning());
  const file = writeResults('workspace', {
    machine: machine(),
    busy: busyWarning() || undefined,
    servers: what,
    count: COUNT,
    rounds,
    loupe: { medianMs: l, rounds: loupe },
    baseline: { medianMs: b, rounds: baseline },
    floor,
    ratio,
    noise: { relative: floor.noise, ratio: noise },
    memory: { settleMs: SETTLE_MS, measure: 'VmRSS(Loupe) + Pss(watchdogs)', tenBytes: tenFair, oneBytes: oneFair, perExtraSessionBytes: perSession, perExtraSessionBytesRss: perSessionRss, ten, one },
    target: { ratioAtMost: TARGET_RATIO },
    context: { perExtraSessionMbUnder: TARGET_MB_PER_SESSION, withinIt: meetsMemory },
    meetsTarget: meetsTime,
  });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
}

export default main;
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
