#!/usr/bin/env node
/**
 * `Run tool` click → the result rendered, in a real Chromium, for a 5 MB text result (the fixture
 * tool `big_text` of e2e/fixtures/hard-schemas.mjs), against its floor in the same run: a bare 1.x
 * SDK `Client` + `StdioClientTransport` in this process, calling the same tool with the same size on
 * its own copy of the same fixture server, timed from callTool to the result (what any client pays
 * to get the result at all). For context, a 1 KiB result from the same tool in the same page.
 *
 * In the page: the click is dispatched from a script (performance.now() just before), then every
 * animation frame checks whether the Result region shows the new text block (after the old one
 * left it); the first frame that does is "rendered" (its rAF callback runs after React committed,
 * right before that frame paints).
 * A WebSocket hook (an init script) also notes when the `response` envelope arrived, which splits
 * the total into the wire (server, proxy, socket) and the page's own work (parse, validate, render).
 * WARMUP runs of each first, then RUNS of each, alternated so that a noisy machine hits all alike.
 * Target: the page's median ≤ 1.1× the floor's, judged against the noise of the floor's runs
 * (bench/lib/verdict.mjs). (The official inspector took 1.3 s for 5 MB and cuts off over 10 MiB.)
 *
 * Usage: node bench/tool-result-render.mjs [--runs N] [--mb N]   (BENCH_DEBUG=1 prints every run)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { judge, spread } from './lib/verdict.mjs';
import { ROOT, busyWarning, isMain, machine, median, printTable, requireBuilt, startLoupe, stop, writeResults } from './lib/common.mjs';

const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const RUNS = arg('--runs', 9);
const WARMUP = 2;
const BIG_MB = arg('--mb', 5);
const SMALL_MB = 1 / 1024; // 1 KiB
const TARGET_RATIO = 1.1;
const FIXTURE = path.join(ROOT, 'e2e/fixtures/hard-schemas.mjs');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function chromiumPath() {
  return [process.env.LOUPE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && existsSync(p));
}

/** Runs in the page before its scripts: note when a `response` envelope arrives. */
function hookSocket() {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        // The answer comes alone, or as the `response` member of the events message that carries its frame.
        if (typeof event.data === 'string' && event.data.includes('"type":"response"')) window.__responseAt = performance.now();
      });
    }
  };
}

/** Runs in the page: click Run tool, resolve on the first frame that shows the new result. */
function measureOnce() {
  return new Promise((resolve, reject) => {
    const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Run tool');
    const region = document.querySelector('section[aria-label="Result"]');
    if (!button || !region) return reject(new Error('no Run tool button or Result region'));
    // The old result leaves the region when the new call starts (it shows "running…"): a mutation
    // callback runs between that commit and the one that shows the answer (they are separate tasks).
    let cleared = false;
    const observer = new MutationObserver(() => {
      if (!region.querySelector('[data-block="text"] pre')) cleared = true;
    });
    observer.observe(region, { childList: true, subtree: true, characterData: true });
    window.__responseAt = undefined;
    const started = performance.now();
    button.click();
    const tick = () => {
      const block = region.querySelector('[data-block="text"] pre');
      if (cleared && block?.textContent?.startsWith('BEGIN>')) {
        observer.disconnect();
        const now = performance.now();
        resolve({ totalMs: now - started, wireMs: (window.__responseAt ?? now) - started, pageMs: now - (window.__responseAt ?? now), shownChars: block.textContent.length });
        return;
      }
      if (performance.now() - started > 60_000) {
        observer.disconnect();
        return reject(new Error('no result within 60 s'));
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** The floor: a bare SDK Client on its own copy of the fixture; `call` times callTool → result. */
async function openFloor() {
  const transport = new StdioClientTransport({ command: 'node', args: [FIXTURE], stderr: 'pipe' });
  const client = new Client({ name: 'bench-floor', version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  transport.stderr?.resume();
  const call = async () => {
    const started = performance.now();
    const result = await client.callTool({ name: 'big_text', arguments: { megabytes: BIG_MB } });
    const totalMs = performance.now() - started;
    const text = result.content?.[0]?.text;
    if (typeof text !== 'string' || !text.startsWith('BEGIN>') || !text.endsWith('<END')) throw new Error(`unexpected big_text result: ${JSON.stringify(result).slice(0, 300)}`);
    if (process.env.BENCH_DEBUG) console.log('floor', totalMs);
    return { totalMs, chars: text.length };
  };
  return { call, close: () => client.close() };
}

async function run(page, megabytes) {
  await page.getByLabel(/^Megabytes/).fill(String(megabytes));
  const r = await page.evaluate(measureOnce);
  if (process.env.BENCH_DEBUG) console.log(megabytes, r);
  return r;
}

export async function main() {
  requireBuilt();
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium found (set LOUPE_CHROMIUM)');
  const loupe = await startLoupe(['node', FIXTURE]);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const big = [];
  const small = [];
  const bare = [];
  let floor;
  try {
    floor = await openFloor();
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.addInitScript(hookSocket);
    await page.goto(loupe.url);
    await page.getByRole('button', { name: /^big_text/ }).click();
    for (let i = 0; i < WARMUP; i++) {
      await run(page, BIG_MB);
      await run(page, SMALL_MB);
      await floor.call();
    }
    const steps = [async () => big.push(await run(page, BIG_MB)), async () => small.push(await run(page, SMALL_MB)), async () => bare.push(await floor.call())];
    for (let i = 0; i < RUNS; i++) {
      // Reverse the order every other run, so that drift hits all alike.
      for (const step of i % 2 === 0 ? steps : [...steps].reverse()) await step();
    }
  } finally {
    await Promise.allSettled([browser.close(), floor?.close()]);
    await stop(loupe.child);
  }
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const summary = (runs) => ({ totalMs: pick(runs, 'totalMs'), wireMs: pick(runs, 'wireMs'), pageMs: pick(runs, 'pageMs'), runs });
  const floorSpread = spread(bare.map((r) => r.totalMs));
  const result = { runs: RUNS, warmup: WARMUP, bigMegabytes: BIG_MB, big: summary(big), baseline1KiB: summary(small), floor: { ...floorSpread, totalMs: floorSpread.median, runs: bare }, target: { ratioAtMost: TARGET_RATIO } };
  result.ratio = result.big.totalMs / floorSpread.median;
  result.noise = { relative: floorSpread.noise, ratio: result.ratio * floorSpread.noise };
  result.ratioTo1KiB = result.big.totalMs / result.baseline1KiB.totalMs;
  result.meetsTarget = judge({ value: result.ratio, unit: '×', at: 'most', target: TARGET_RATIO, noise: result.noise.ratio });
  const warning = busyWarning();
  printTable(`Run tool click → rendered result, Chromium, median of ${RUNS} (after ${WARMUP} warm-up runs each)`, [
    ['result', 'click → rendered', 'click → response at page', 'page: response → rendered'],
    [`${BIG_MB} MB text`, `${result.big.totalMs.toFixed(0)} ms`, `${result.big.wireMs.toFixed(0)} ms`, `${result.big.pageMs.toFixed(0)} ms`],
    ['1 KiB text (for context)', `${result.baseline1KiB.totalMs.toFixed(0)} ms`, `${result.baseline1KiB.wireMs.toFixed(0)} ms`, `${result.baseline1KiB.pageMs.toFixed(0)} ms`],
    [`floor: bare SDK Client, ${BIG_MB} MB, callTool → result (${floorSpread.min.toFixed(0)}–${floorSpread.max.toFixed(0)} ms)`, `${floorSpread.median.toFixed(0)} ms`, '', ''],
  ]);
  console.log(`\npage / floor: ${result.ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×, noise ±${result.noise.ratio.toFixed(3)}×): meets: ${result.meetsTarget}`);
  console.log(`${BIG_MB} MB / 1 KiB in the page: ${result.ratioTo1KiB.toFixed(1)}× (the official inspector: about 1,300 ms for 5 MB)`);
  if (warning) console.log(warning);
  writeResults('tool-result-render', { machine: machine(), busy: warning || undefined, ...result });
  return result;
}

if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
