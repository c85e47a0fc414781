#!/usr/bin/env node
/**
 * Cold start: spawn `node dist/proxy/cli.js --no-open --port 0` → first HTTP 200 on `GET /`.
 * Baseline in the same run: spawn → first 200 of a bare `node -e` http server serving a small file
 * (Node's own floor). Median of 9 runs each (plus min/max), alternating, after one discarded warm-up
 * of each (so that both find the files in the OS cache). Target: Loupe's median ≤ 1.3× the floor's,
 * judged against the floor's own noise over its runs (bench/lib/verdict.mjs).
 *
 * Usage: node bench/cold-start.mjs [--runs N]
 */
import http from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { judge, spread } from './lib/verdict.mjs';
import { busyWarning, CLI, LOUPE_NODE_ARGS, ROOT, isMain, URL_PATTERN, machine, median, ms, printTable, requireBuilt, sleep, spawnUntilLine, stop, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 1.3;
const POLL_MS = 5;
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 9;
// Where the CLI serves the UI from (proxy/launch.ts defaultUiRoot: dist/proxy/ → ../../out).
const uiIndex = path.join(path.dirname(CLI), '../../out/index.html');

/** A bare Node http server serving one small file; prints a URL line shaped like Loupe's. */
const BASELINE_SOURCE = `
const http = require('node:http');
const fs = require('node:fs');
const file = process.argv[1];
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  fs.createReadStream(file).pipe(res);
});
server.listen(0, '127.0.0.1', () => console.log('Open http://127.0.0.1:' + server.address().port + '/?token=baseline'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

function get(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode));
    });
    req.once('error', () => resolve(0));
  });
}

/** Polls `GET /` every POLL_MS ms from the URL line on; returns spawn → first wanted status. */
async function measure(script, args, acceptAny, nodeArgs = []) {
  const { child, match, spawnedAt, lineAt } = await spawnUntilLine(script, args, URL_PATTERN, { nodeArgs });
  const port = Number(match[1]);
  let status = 0;
  let firstResponseAt;
  try {
    for (let deadline = performance.now() + 20_000; performance.now() < deadline; await sleep(POLL_MS)) {
      status = await get(port);
      if (status !== 0) firstResponseAt ??= performance.now();
      if (status === 200 || (acceptAny && status !== 0)) break;
    }
    const doneAt = performance.now();
    if (status !== 200 && !acceptAny) throw new Error(`no 200 from ${script} (last status ${status})`);
    return { ms: doneAt - spawnedAt, lineMs: lineAt - spawnedAt, firstResponseMs: firstResponseAt - spawnedAt, status };
  } finally {
    child.removeAllListeners('exit');
    await stop(child);
  }
}

async function main() {
  requireBuilt();
  const uiBuilt = existsSync(uiIndex);
  if (!uiBuilt) {
    console.warn(`bench: ${uiIndex} is missing (run \`npm run build:ui\`): Loupe answers GET / with 404,`);
    console.warn('bench: so this run measures spawn → first HTTP response instead of first 200.');
  }
  const smallFile = path.join(ROOT, 'package.json');
  const runLoupe = () => measure(CLI, ['--no-open', '--port', '0'], !uiBuilt, LOUPE_NODE_ARGS);
  // `node -e SRC file`: spawnUntilLine runs `node <script> ...args`, so '-e' stands in for the script.
  const runBaseline = () => measure('-e', [BASELINE_SOURCE, smallFile], false);

  await runLoupe();
  await runBaseline();
  const loupe = [];
  const baseline = [];
  for (let i = 0; i < runs; i++) {
    loupe.push(await runLoupe());
    baseline.push(await runBaseline());
  }

  const summary = (list, key = 'ms') => {
    const values = list.map((r) => r[key]);
    return { median: median(values), min: Math.min(...values), max: Math.max(...values), runs: values };
  };
  const l = summary(loupe);
  const b = summary(baseline);
  const lLine = summary(loupe, 'lineMs');
  const ratio = l.median / b.median;
  const floor = spread(b.runs);
  const noise = ratio * floor.noise;
  const meets = judge({ value: ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise });

  printTable(`Cold start: spawn → first HTTP ${uiBuilt ? '200' : 'response (UI not built: 404)'} on GET /  (median of ${runs}, ${POLL_MS} ms polling)`, [
    ['', 'median', 'min', 'max', 'runs'],
    ['Loupe (dist/proxy/cli.js --no-open --port 0)', ms(l.median), ms(l.min), ms(l.max), l.runs.map((v) => v.toFixed(0)).join(' ')],
    ['  of which spawn → URL line printed', ms(lLine.median), ms(lLine.min), ms(lLine.max), lLine.runs.map((v) => v.toFixed(0)).join(' ')],
    ['Baseline (bare node -e http server, small file)', ms(b.median), ms(b.min), ms(b.max), b.runs.map((v) => v.toFixed(0)).join(' ')],
  ]);
  console.log(`\nratio Loupe / baseline (medians): ${ratio.toFixed(2)}×   added: ${ms(l.median - b.median)}`);
  console.log(`target: Loupe median ≤ ${TARGET_RATIO}× the floor, noise ±${noise.toFixed(3)}× (official inspector 2.12.0: 497 ms, MCPJam: 2,206 ms)`);
  console.log(`meets target: ${meets}`);
  if (busyWarning()) console.log(busyWarning());

  const file = writeResults('cold-start', {
    machine: machine(),
    busy: busyWarning() || undefined,
    uiBuilt,
    measured: uiBuilt ? 'spawn → first HTTP 200 on GET /' : 'spawn → first HTTP response on GET / (UI not built)',
    runs,
    loupe: { ...l, urlLine: lLine },
    baseline: b,
    floor,
    ratio,
    noise: { relative: floor.noise, ratio: noise },
    addedMs: l.median - b.median,
    target: { ratioAtMost: TARGET_RATIO },
    meetsTarget: meets,
  });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
  return { name: 'cold-start', loupe: l.median, baseline: b.median, ratio, target: `≤ ${TARGET_RATIO}×`, meets, unit: 'ms', uiBuilt };
}

export default main;
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
