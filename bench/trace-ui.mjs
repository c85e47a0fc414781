#!/usr/bin/env node
/**
 * The History tab in a real Chromium, with real frames (the flood fixture through Loupe):
 *
 * filter:  100,000 notifications in the page (`--trace-limit 100000`; the tab keeps 100,000).
 *          (a) the filter function on the page's real data: performance.now() around it, as the
 *          trace store records it (performance.measure 'loupe:trace-filter'), for needles that
 *          each make it scan everything (each typed TEXT_REPEATS times, interleaved with the queries
 *          of (a'), its median); baseline in the same page and run: a bare loop of
 *          String.prototype.includes over the same raw strings (the floor any text filter pays),
 *          FLOOR_REPEATS times after a warm-up. The figure of each side is its median over the
 *          needles. Target: ours ≤ 1.85× the floor, judged against the noise of the floor's repeats
 *          (bench/lib/verdict.mjs). No issue set a ratio for this row; 1.85× is the best it reached
 *          when it became a ratio (2026-12-02), kept as the bar so that it cannot slide.
 *          (a') the History query (issue 26) the same way: queries whose field terms let every row
 *          through, so that each scans every frame for the same needles (the worst case of a
 *          query: its fields cost their checks, then the text); ratio to the same floor. Target:
 *          no slower than the text filter's ratio measured in the same run (within the noise).
 *          (b) a filter typed into the UI: Event Timing's duration of each keystroke (input
 *          event → next paint, handlers and React render included). No floor: the old budget,
 *          ≤ 100 ms, is printed for context.
 * scroll:  the windowed table scrolled top to bottom in 40 steps, one per frame: frame intervals.
 * flood:   10,000 notifications a second for 3 s while a row is clicked every 250 ms: Event
 *          Timing duration of each click (to the next paint) and long tasks; baseline: the same
 *          clicks with no flood, rounds alternating (ROUNDS, default 3; the median round is
 *          shown). Every notification must arrive (rows counted in the page).
 *          Target: clicks answer within 100 ms. The box is small and shared: load is printed.
 *
 * Usage: node bench/trace-ui.mjs [--count N] [--rounds R]
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';
import { spread } from './lib/verdict.mjs';
import { ROOT, isMain, machine, median, percentile, printTable, requireBuilt, sleep, startLoupe, stop, writeResults } from './lib/common.mjs';

const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const COUNT = arg('--count', 100_000);
const ROUNDS = arg('--rounds', 3);
/** Per round: 3 s at 10,000/s (the rounds together stay under the tab's 100,000-event cap). */
const FLOOD_COUNT = 30_000;
const FLOOD = path.join(ROOT, 'e2e/fixtures/flood.mjs');
const NEEDLES = ['flood 4242 of', 'zzz-no-match', 'FLOOD 99999', '"level":"warning"', 'of 100000 x'];
/** One query per needle: fields every flood row passes, then the needle (lib/trace/query.ts). */
const QUERIES = [
  '"flood 4242 of"',
  'kind:notification "zzz-no-match"',
  'method:notifications/message dir:in -status:error "FLOOD 99999"',
  'size:<10kb -kind:request "level":"warning"',
  'server:* -duration:>1s "of 100000 x"',
];
const TARGET_MS = 100;
const TARGET_FILTER_RATIO = 1.85;
const FLOOR_REPEATS = 5;
/** Each needle and query is typed this many times (interleaved); its figure is the median. */
const TEXT_REPEATS = 3;

function chromiumPath() {
  return [process.env.LOUPE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && existsSync(p));
}

/** Event Timing (input → next paint) and long tasks, collected in the page from now on. */
function observe() {
  window.__bench = { events: [], longtasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.events.push({ name: e.name, duration: e.duration, start: e.startTime });
  }).observe({ type: 'event', durationThreshold: 16, buffered: false });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longtasks.push(e.duration);
  }).observe({ type: 'longtask' });
}

async function rowsShown(page) {
  const text = (await page.getByRole('status', { name: 'Rows shown' }).textContent()) ?? '';
  const numbers = [...text.matchAll(/[\d,]+/g)].map((m) => Number(m[0].replace(/,/g, '')));
  return { shown: numbers[0] ?? 0, total: numbers[numbers.length - 1] ?? 0 };
}

/** Rows of kind notification (the kind chip on, read, off). */
async function notificationRows(page) {
  const chip = page.getByRole('group', { name: 'Kinds' }).getByRole('button', { name: 'notification', exact: true });
  await chip.click();
  await sleep(100);
  const { shown } = await rowsShown(page);
  await chip.click();
  return shown;
}

async function waitRows(page, atLeast, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { total } = await rowsShown(page);
    if (total >= atLeast) return total;
    if (Date.now() > deadline) throw new Error(`page shows ${total} rows, expected ${atLeast}`);
    await sleep(250);
  }
}

async function flood(page, args) {
  const composer = page.getByRole('textbox', { name: 'JSON-RPC message' });
  await composer.fill(JSON.stringify({ jsonrpc: '2.0', id: `flood-${Date.now()}`, method: 'tools/call', params: { name: 'flood', arguments: args } }));
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The store's own measure of filterRows for each text typed into the box (from an empty box: every row). */
async function measureTyped(box, page, texts) {
  const out = [];
  for (const needle of texts) {
    await box.fill('');
    await box.fill(needle);
    await sleep(150);
    const last = await page.evaluate(() => {
      const entry = performance.getEntriesByName('loupe:trace-filter').at(-1);
      return { duration: entry.duration, rows: entry.detail?.rows, matched: entry.detail?.matched };
    });
    out.push({ needle, ms: last.duration, rows: last.rows, matched: last.matched });
  }
  return out;
}

/** (a) the store's own measure of filterRows, per needle and per query; and the includes() floor over the same strings. */
async function filterFunction(page) {
  const box = page.getByRole('searchbox', { name: 'Filter history' });
  // Measured alike, interleaved (needle i, then query i), TEXT_REPEATS times; each text's figure is its median.
  const runs = [];
  for (let r = 0; r < TEXT_REPEATS; r += 1) runs.push(await measureTyped(box, page, NEEDLES.flatMap((needle, i) => [needle, QUERIES[i]])));
  const pick = (offset) => NEEDLES.map((_, i) => ({ ...runs[0][2 * i + offset], ms: median(runs.map((run) => run[2 * i + offset].ms)) }));
  const ours = pick(0);
  const queries = pick(1);
  await box.fill('');
  const repeats = await page.evaluate(([needles, times]) => {
    // The raw strings the page holds, read through the table's own rows is not possible from
    // outside; the floor uses the same shapes: one string per frame, as the flood sends them.
    const raws = [];
    for (let i = 1; i <= 100_000; i += 1) raws.push(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'flood', data: `flood ${i} of 100000` } }));
    const run = () =>
      needles.map((needle) => {
        const lower = needle.toLowerCase();
        const start = performance.now();
        let n = 0;
        for (const raw of raws) if (raw.includes(lower)) n += 1;
        return { needle, ms: performance.now() - start, matched: n };
      });
    run(); // warm: the page's filter has run before too
    return Array.from({ length: times }, run);
  }, [NEEDLES, FLOOR_REPEATS]);
  // Per needle, the median over the repeats; per repeat, the median over the needles (the spread).
  const floor = NEEDLES.map((needle, i) => ({ needle, ms: median(repeats.map((r) => r[i].ms)), matched: repeats[0][i].matched }));
  const floorSpread = spread(repeats.map((r) => median(r.map((x) => x.ms))));
  return { ours, queries, floor, floorSpread, floorRepeats: repeats };
}

/** (b) typing a filter: each keystroke's input → next paint. */
async function typedFilter(page) {
  const box = page.getByRole('searchbox', { name: 'Filter history' });
  await box.click();
  await page.evaluate(() => (window.__bench.events = []));
  await page.keyboard.type('flood 77777', { delay: 120 });
  await sleep(300);
  const events = await page.evaluate(() => window.__bench.events);
  await box.fill('');
  const keys = events.filter((e) => e.name === 'keydown' || e.name === 'input' || e.name === 'keypress');
  return { keystrokes: 11, slowEvents: keys.length, maxMs: Math.max(0, ...keys.map((e) => e.duration)), durations: keys.map((e) => e.duration) };
}

async function scroll(page) {
  return page.evaluate(async () => {
    const box = document.querySelector('[role="table"][aria-label="Frames"]');
    const intervals = [];
    box.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(r));
    let last = performance.now();
    for (let i = 1; i <= 40; i += 1) {
      box.scrollTop = (box.scrollHeight * i) / 40;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      intervals.push(now - last);
      last = now;
    }
    return { steps: 40, drawnRows: box.querySelectorAll('[role="row"]').length, intervals };
  });
}

/** Click a row every 250 ms for `ms`; returns the clicks' Event Timing durations and long tasks. */
async function clicks(page, ms) {
  await page.evaluate(() => {
    window.__bench.events = [];
    window.__bench.longtasks = [];
  });
  const table = page.getByRole('table', { name: 'Frames' });
  const box = await table.boundingBox();
  let n = 0;
  for (const until = Date.now() + ms; Date.now() < until; n += 1) {
    await page.mouse.click(box.x + 200, box.y + 80 + (n % 8) * 26);
    await sleep(250);
  }
  const { events, longtasks } = await page.evaluate(() => window.__bench);
  const slow = events.filter((e) => e.name === 'click' || e.name === 'pointerdown' || e.name === 'pointerup' || e.name === 'mousedown');
  // Clicks under 16 ms are not reported by Event Timing: they count as 16.
  const byClick = [];
  for (let i = 0; i < n; i += 1) byClick.push(16);
  slow.filter((e) => e.name === 'click').forEach((e, i) => (byClick[i] = Math.max(16, e.duration)));
  return { durations: slow.map((e) => `${e.name}:${Math.round(e.duration)}`), clicks: n, slowClicks: slow.filter((e) => e.name === 'click').length, maxMs: Math.max(16, ...slow.map((e) => e.duration)), p95Ms: percentile(byClick, 95), longTasks: longtasks.length, longTaskMs: longtasks.reduce((a, b) => a + b, 0) };
}

async function main() {
  requireBuilt();
  const loupe = await startLoupe(['--trace-limit', String(COUNT), 'node', FLOOD]);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(loupe.url);
    await page.getByRole('status').filter({ hasText: /\bConnected\b/ }).first().waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'History', exact: true }).click();
    await page.evaluate(observe);
    await sleep(2_000);
    await clicks(page, 1_000); // warm-up: the first clicks pay for code loaded on first use

    // Rounds alternate no-flood and flood, so that the shared machine's load hits both alike.
    const idleRounds = [];
    const floodRounds = [];
    let lost = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      idleRounds.push(await clicks(page, 3_000));
      const before = (await rowsShown(page)).total;
      const notesBefore = await notificationRows(page);
      await flood(page, { count: FLOOD_COUNT, perSecond: 10_000 });
      floodRounds.push(await clicks(page, 3_000));
      await waitRows(page, before + FLOOD_COUNT + 2, 30_000);
      await sleep(500);
      lost += notesBefore + FLOOD_COUNT - (await notificationRows(page));
      console.log(`round ${round + 1}: click p95 ${idleRounds.at(-1).p95Ms} ms idle, ${floodRounds.at(-1).p95Ms} ms in the flood (load ${machine().loadavg?.join(' ')})`);
    }
    const pick = (rounds) => rounds.slice().sort((a, b) => a.p95Ms - b.p95Ms)[rounds.length >> 1];
    const idle = pick(idleRounds);
    const flooded = pick(floodRounds);

    await flood(page, { count: COUNT });
    const total = await waitRows(page, COUNT, 120_000);
    await sleep(1_000);
    const heapMb = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize / 1e6 : undefined));
    const fn = await filterFunction(page);
    const typed = await typedFilter(page);
    const scrolled = await scroll(page);

    const oursMs = median(fn.ours.map((r) => r.ms));
    const floorMs = fn.floorSpread.median;
    const filterRatio = oursMs / floorMs;
    const queryMs = median(fn.queries.map((r) => r.ms));
    const queryRatio = queryMs / floorMs;
    const sameMatches = fn.queries.every((q, i) => q.matched === fn.ours[i].matched);
    printTable(`History tab, Chromium, ${total.toLocaleString('en')} rows in the page`, [
      ['figure', 'Loupe', 'baseline (same run)', 'ratio', 'target'],
      [`text filter over ${fn.ours[0].rows.toLocaleString('en')} frames (median of ${NEEDLES.length} needles)`, `${oursMs.toFixed(1)} ms`, `${floorMs.toFixed(1)} ms (bare includes() loop)`, `${filterRatio.toFixed(2)}× (±${(filterRatio * fn.floorSpread.noise).toFixed(3)}×)`, `≤ ${TARGET_FILTER_RATIO}×`],
      [`History query at ${fn.queries[0].rows.toLocaleString('en')} frames (median of ${QUERIES.length} queries${sameMatches ? ', same rows as the needles' : ', ROWS DIFFER from the needles'})`, `${queryMs.toFixed(1)} ms`, `${floorMs.toFixed(1)} ms (bare includes() loop)`, `${queryRatio.toFixed(2)}× (±${(queryRatio * fn.floorSpread.noise).toFixed(3)}×)`, `≤ ${filterRatio.toFixed(2)}× (the text filter's)`],
      ['  slowest needle', `${Math.max(...fn.ours.map((r) => r.ms)).toFixed(1)} ms`, `${Math.max(...fn.floor.map((r) => r.ms)).toFixed(1)} ms`, '', ''],
      [`typed filter, each keystroke to paint (max of ${typed.keystrokes})`, `${typed.maxMs < 16 ? '< 16' : typed.maxMs} ms`, '', '', `(context: ≤ ${TARGET_MS} ms)`],
      [`scroll top → bottom, frame interval p95 (${scrolled.drawnRows} rows in the DOM)`, `${percentile(scrolled.intervals, 95).toFixed(1)} ms`, '16.7 ms (60 Hz)', `${(percentile(scrolled.intervals, 95) / 16.7).toFixed(2)}×`, ''],
      [`click → paint during a 10,000/s flood (p95 of ${flooded.clicks}; max; median round of ${ROUNDS})`, `${flooded.p95Ms} ms; ${flooded.maxMs} ms`, `${idle.p95Ms} ms; ${idle.maxMs} ms (no flood)`, `${(flooded.p95Ms / idle.p95Ms).toFixed(2)}×`, `(context: ≤ ${TARGET_MS} ms)`],
      ['  long tasks during the flood', `${flooded.longTasks} (${Math.round(flooded.longTaskMs)} ms in 3 s)`, `${idle.longTasks} (no flood)`, '', ''],
      [`  notifications lost (of ${(ROUNDS * FLOOD_COUNT).toLocaleString('en')})`, String(lost), '', '', '0'],
    ]);
    writeResults('trace-ui', {
      machine: machine(),
      rows: total,
      heapMb,
      filter: { ...fn, oursMs, floorMs, ratio: filterRatio, noise: { relative: fn.floorSpread.noise, ratio: filterRatio * fn.floorSpread.noise } },
      query: { queries: fn.queries, oursMs: queryMs, floorMs, floorSpread: fn.floorSpread, ratio: queryRatio, sameMatches, targetRatio: Number(filterRatio.toFixed(2)), noise: { relative: fn.floorSpread.noise, ratio: queryRatio * fn.floorSpread.noise } },
      typed,
      scroll: scrolled,
      clicks: { idle, flooded, idleRounds, floodRounds },
      lost,
      target: { filterRatioAtMost: TARGET_FILTER_RATIO },
      context: { ms: TARGET_MS },
    });
  } finally {
    await browser.close();
    await stop(loupe.child);
  }
}

if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
