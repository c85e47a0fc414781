#!/usr/bin/env node
/**
 * The headless CLI (issue 10), two figures, each against a baseline in the same run:
 *  1. one-shot wall time: `mcp-loupe --cli --method tools/list <server-everything>` from spawn to
 *     exit, against a minimal script doing the same with the bare SDK (Client + StdioClientTransport,
 *     list, print, close), RUNS of each alternating after a discarded warm-up. Target ≤ 1.2×, judged
 *     against the noise of the baseline's runs (bench/lib/verdict.mjs).
 *  2. echo round trip through the engine without the WebSocket: a session of Loupe's engine in this
 *     process (dist/proxy/faces/cli/face-session.js, the same Session the UI drives) against a bare SDK Client,
 *     interleaved blocks of sequential `tools/call echo`. For context (no target in the issue).
 *
 * Usage: node bench/cli.mjs [--runs N] [--blocks N] [--calls N]
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { judge, spread } from './lib/verdict.mjs';
import { busyWarning, checkEcho, CLI, isMain, LOUPE_NODE_ARGS, machine, ms, printTable, requireBuilt, ROOT, serverEverything, summarize, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 1.2;
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const RUNS = arg('--runs', 7);
const BLOCKS = arg('--blocks', 4);
const CALLS = arg('--calls', 50);
const WARMUP = 20;

/**
 * The bare-SDK baseline: the least a script can do to list a server's tools. It exits as soon as
 * stdout is written, without waiting for the server to stop (the server sees stdin close and
 * ends by itself); Loupe waits until the server's process group is gone, so this is the stricter
 * comparison (with `await client.close()` the script takes ~1.3 s here, Loupe ~0.9 s).
 */
const BARE_SOURCE = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'bare', version: '0.0.0' }, { capabilities: {} });
const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
await client.connect(transport);
const result = await client.listTools();
process.stdout.write(JSON.stringify(result, null, 2) + '\\n', () => process.exit(0));
`;

function timeRun(nodeArgs, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.once('error', reject);
    child.once('exit', (code) => {
      const elapsed = performance.now() - started;
      if (code !== 0 || !out.includes('"echo"')) reject(new Error(`run failed (exit ${code}): ${err.slice(-500)}`));
      else resolve(elapsed);
    });
  });
}

async function oneShot() {
  const { command, args } = serverEverything();
  // Beside node_modules' resolution root: the script imports the SDK as a user's script would.
  const bare = path.join(ROOT, 'bench', 'results', '.bare-list-tools.mjs');
  writeFileSync(bare, BARE_SOURCE);
  const loupe = () => timeRun(LOUPE_NODE_ARGS, [CLI, '--cli', '--method', 'tools/list', command, ...args]);
  const baseline = () => timeRun([], [bare, command, ...args]);
  await loupe();
  await baseline();
  const l = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      l.push(await loupe());
      b.push(await baseline());
    } else {
      b.push(await baseline());
      l.push(await loupe());
    }
  }
  return { loupe: summarize(l), baseline: summarize(b), floor: spread(b) };
}


async function engineEcho() {
  const { openFaceSession } = await import(pathToFileURL(path.join(ROOT, 'dist/proxy/faces/cli/face-session.js')).href);
  const { command, args } = serverEverything();
  const opened = await openFaceSession({ kind: 'stdio', command, args, env: {} });
  if (!opened.ok) throw new Error(`engine session failed: ${opened.error.message}`);
  let n = 0;
  const engine = async () => {
    const message = `hello ${n++}`;
    const outcome = await opened.session.request(`b${n}`, 'tools/call', { name: 'echo', arguments: { message } });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    checkEcho(outcome.result, message);
  };
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  const client = new Client({ name: 'bench-direct', version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const direct = async () => {
    const message = `hello ${n++}`;
    checkEcho(await client.callTool({ name: 'echo', arguments: { message } }), message);
  };
  const timed = async (call, count, into) => {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await call();
      into?.push(performance.now() - started);
    }
  };
  const e = [];
  const d = [];
  try {
    await timed(engine, WARMUP);
    await timed(direct, WARMUP);
    for (let block = 0; block < BLOCKS; block++) {
      const sides = [[engine, e], [direct, d]];
      for (const [call, into] of block % 2 === 0 ? sides : sides.reverse()) await timed(call, CALLS, into);
    }
  } finally {
    await Promise.allSettled([opened.close(), client.close()]);
  }
  return { engine: summarize(e), direct: summarize(d) };
}

async function main() {
  requireBuilt();
  const shot = await oneShot();
  const echo = await engineEcho();
  const ratio = shot.loupe.median / shot.baseline.median;
  const echoRatio = echo.engine.median / echo.direct.median;
  const noise = ratio * shot.floor.noise;
  const meets = judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise });
  const row = (label, s) => [label, ms(s.median, s.median < 10 ? 3 : 0), ms(s.min ?? s.median, s.median < 10 ? 3 : 0), ms(s.max ?? s.median, s.median < 10 ? 3 : 0), String(s.n)];
  printTable(`one-shot tools/list against server-everything, spawn → exit (${RUNS} runs each, alternating)`, [
    ['', 'median', 'min', 'max', 'runs'],
    row('mcp-loupe --cli --method tools/list', shot.loupe),
    row('bare SDK script (Client + StdioClientTransport)', shot.baseline),
  ]);
  console.log(`ratio of medians: ${ratio.toFixed(2)}×   target ≤ ${TARGET_RATIO}×, noise ±${noise.toFixed(3)}×   meets target: ${meets}`);
  printTable(`tools/call echo through the engine, no WebSocket (${BLOCKS} interleaved blocks of ${CALLS})`, [
    ['', 'median', 'min', 'max', 'calls'],
    row('engine session (Session.request)', echo.engine),
    row('bare SDK Client', echo.direct),
  ]);
  console.log(`ratio of medians: ${echoRatio.toFixed(2)}×   added per call: ${ms(echo.engine.median - echo.direct.median, 3)}`);
  if (busyWarning()) console.log(busyWarning());
  const file = writeResults('cli', {
    machine: machine(),
    busy: busyWarning() || undefined,
    oneShot: { ...shot, ratio, noise: { relative: shot.floor.noise, ratio: noise }, target: { ratioAtMost: TARGET_RATIO }, meetsTarget: meets },
    engineEcho: { ...echo, ratio: echoRatio },
  });
  console.log(`results: ${file}`);
}

if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
