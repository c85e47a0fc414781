#!/usr/bin/env node
/**
 * `Run tool` click → the result rendered, in a real Chromium, for a 5 MB text result (the fixture
 * tool `big_text` of e2e/fixtures/hard-schemas.mjs), against a 1 KB result from the same tool in
 * the same page and run (the baseline: everything but the size).
 *
 * In the page: the click is dispatched from a script (performance.now() just before), then every
 * animation frame checks whether the Result region shows the new text block (after the old one
 * left it); the first frame that does is "rendered" (its rAF callback runs after React committed,
 * right before that frame paints).
 * A WebSocket hook (an init script) also notes when the `response` envelope arrived, which splits
 * the total into the wire (server, proxy, socket) and the page's own work (parse, validate, render).
 * WARMUP runs of each first, then RUNS of each, alternated so that a noisy machine hits both alike.
 * Target: median ≤ 400 ms for 5 MB (the official inspector took 1.3 s and cuts off over 10 MiB).
 *
 * Usage: node bench/tool-result-render.mjs [--runs N] [--mb N]   (BENCH_DEBUG=1 prints every run)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';
import { ROOT, busyWarning, isMain, machine, median, printTable, requireBuilt, startLoupe, stop, writeResults } from './lib/common.mjs';

const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const RUNS = arg('--runs', 9);
const WARMUP = 2;
const BIG_MB = arg('--mb', 5);
const SMALL_MB = 1 / 1024; // 1 KiB
const TARGET_MS = 400;
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
        if (typeof event.data === 'string' && event.data.startsWith('{"type":"response"')) window.__responseAt = performance.now();
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
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.addInitScript(hookSocket);
    await page.goto(loupe.url);
    await page.getByRole('button', { name: /^big_text/ }).click();
    for (let i = 0; i < WARMUP; i++) {
      await run(page, BIG_MB);
      await run(page, SMALL_MB);
    }
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first, so that drift hits both.
      if (i % 2 === 0) {
        big.push(await run(page, BIG_MB));
        small.push(await run(page, SMALL_MB));
      } else {
        small.push(await run(page, SMALL_MB));
        big.push(await run(page, BIG_MB));
      }
    }
  } finally {
    await browser.close();
    await stop(loupe.child);
  }
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const summary = (runs) => ({ totalMs: pick(runs, 'totalMs'), wireMs: pick(runs, 'wireMs'), pageMs: pick(runs, 'pageMs'), runs });
  const result = { runs: RUNS, warmup: WARMUP, bigMegabytes: BIG_MB, big: summary(big), baseline1KiB: summary(small), target: { medianMsAtMost: TARGET_MS } };
  result.ratio = result.big.totalMs / result.baseline1KiB.totalMs;
  result.met = result.big.totalMs <= TARGET_MS;
  const warning = busyWarning();
  printTable(`Run tool click → rendered result, Chromium, median of ${RUNS} (after ${WARMUP} warm-up runs each)`, [
    ['result', 'click → rendered', 'click → response at page', 'page: response → rendered'],
    [`${BIG_MB} MB text`, `${result.big.totalMs.toFixed(0)} ms`, `${result.big.wireMs.toFixed(0)} ms`, `${result.big.pageMs.toFixed(0)} ms`],
    ['1 KiB text (baseline)', `${result.baseline1KiB.totalMs.toFixed(0)} ms`, `${result.baseline1KiB.wireMs.toFixed(0)} ms`, `${result.baseline1KiB.pageMs.toFixed(0)} ms`],
  ]);
  console.log(`\n${BIG_MB} MB / 1 KiB: ${result.ratio.toFixed(1)}×; target ≤ ${TARGET_MS} ms for ${BIG_MB} MB: ${result.met ? 'met' : 'NOT met'} (the official inspector: about 1,300 ms)`);
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
