#!/usr/bin/env node
/**
 * Notifications relayed, and proxy memory with 100,000 frames held:
 *
 * relay:    `node e2e/fixtures/flood.mjs` sends N notifications/message as fast as stdout takes
 *           them (tool `flood`). Loupe: a WebSocket client of the wire protocol counts the
 *           `notifications/message` frames that reach it in `events` batches; the figure is N over
 *           the time from the `request` envelope to the last of them, and none may be missing.
 *           Baseline (same run, same server): an SDK `Client` + `StdioClientTransport` in this
 *           process counting the same notifications (the floor). Rounds alternate. Target: Loupe's
 *           median rate ≥ 0.9× the floor's, none lost, judged against the noise of the floor's
 *           rounds (bench/lib/verdict.mjs).
 * memory:   VmRSS of the Loupe process (not its children) idle after connecting, then with
 *           100,000 notifications in its trace (`--trace-limit 100000`): 2 s after the flood
 *           (peak, the relay's garbage included) and settled (the lowest within 40 s, once V8's
 *           memory reducer has run); the figure is the settled growth per frame held.
 *
 * Usage: node bench/trace-relay.mjs [--count N] [--rounds R]
 */
import path from 'node:path';
import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { judge, spread } from './lib/verdict.mjs';
import { isMain, machine, mb, median, printTable, requireBuilt, ROOT, rssBytes, sampleRss, sleep, startLoupe, stop, until, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 0.9;
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const COUNT = arg('--count', 100_000);
const ROUNDS = arg('--rounds', 5);
const FLOOD = path.join(ROOT, 'e2e/fixtures/flood.mjs');
const HELD = 100_000;
const SETTLE_MS = 40_000;

/** A wire client that counts notifications/message frames and answers `request` envelopes. */
function openWire(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const state = { ws, primary: undefined, status: new Map(), notes: 0, lastAt: 0, responses: new Map(), stats: new Map(), wake: () => {} };
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'snapshot') {
        state.primary = m.primary;
        for (const s of m.sessions) state.status.set(s.id, s.status);
      } else if (m.type === 'session') state.status.set(m.session.id, m.session.status);
      else if (m.type === 'response') state.responses.set(m.id, m);
      if (m.type === 'events' || m.type === 'snapshot') {
        for (const e of m.events) if (e.kind === 'frame' && e.method === 'notifications/message') state.notes++;
        state.lastAt = performance.now();
        for (const s of m.stats ?? []) state.stats.set(s.session, s);
      }
      state.wake();
    });
    ws.once('open', () => resolve(state));
    ws.once('error', reject);
  });
}


async function loupeRound(count, keepOpen = false) {
  const loupe = await startLoupe(['--trace-limit', String(Math.max(HELD, count)), 'node', FLOOD]);
  const wire = await openWire(loupe.wsUrl);
  try {
    await until(wire, () => wire.primary && wire.status.get(wire.primary) === 'connected', 20_000, 'connected');
    await sleep(500);
    const idleRss = keepOpen ? (await sampleRss(loupe.child.pid)).median : undefined;
    const before = wire.notes;
    const started = performance.now();
    wire.ws.send(JSON.stringify({ type: 'request', session: wire.primary, id: 'flood', method: 'tools/call', params: { name: 'flood', arguments: { count } } }));
    await until(wire, () => wire.notes - before >= count && wire.responses.has('flood'), 120_000, `${count} notifications`);
    const seconds = (wire.lastAt - started) / 1000;
    const received = wire.notes - before;
    if (!keepOpen) return { perSecond: count / seconds, received, seconds };
    await sleep(2_000);
    const peakRss = (await sampleRss(loupe.child.pid, 5, 300)).median;
    // V8 gives the flood's garbage back to the OS only once its memory reducer runs (some 30 s of
    // quiet): the settled figure is the lowest RSS within SETTLE_MS, i.e. what holding the frames costs.
    let heldRss = peakRss;
    for (const until = Date.now() + SETTLE_MS; Date.now() < until; ) {
      await sleep(2_000);
      heldRss = Math.min(heldRss, rssBytes(loupe.child.pid));
    }
    return { perSecond: count / seconds, received, seconds, idleRss, peakRss, heldRss, stats: wire.stats.get(wire.primary) };
  } finally {
    wire.ws.close();
    await stop(loupe.child);
  }
}

async function directRound(count) {
  const client = new Client({ name: 'bench-direct', version: '1.0.0' });
  let notes = 0;
  let lastAt = 0;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
    notes++;
    lastAt = performance.now();
    if (notes === count) done();
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [FLOOD], stderr: 'ignore' }));
  try {
    const started = performance.now();
    await Promise.all([client.callTool({ name: 'flood', arguments: { count } }, undefined, { timeout: 120_000 }), all]);
    return { perSecond: count / ((lastAt - started) / 1000), received: notes };
  } finally {
    await client.close();
  }
}

async function main() {
  requireBuilt();
  const loupe = [];
  const direct = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['loupe', 'direct'] : ['direct', 'loupe'];
    for (const side of order) {
      const r = side === 'loupe' ? await loupeRound(COUNT) : await directRound(COUNT);
      (side === 'loupe' ? loupe : direct).push(r);
      console.log(`round ${round + 1} ${side.padEnd(6)} ${Math.round(r.perSecond).toLocaleString('en')}/s, ${r.received.toLocaleString('en')} of ${COUNT.toLocaleString('en')} received`);
    }
  }
  const memory = await loupeRound(HELD, true);
  const lost = loupe.some((r) => r.received !== COUNT) || memory.received !== HELD;
  const loupeRate = median(loupe.map((r) => r.perSecond));
  const directRate = median(direct.map((r) => r.perSecond));
  const perFrame = (memory.heldRss - memory.idleRss) / HELD;
  const ratio = loupeRate / directRate;
  const floor = spread(direct.map((r) => r.perSecond));
  const noise = ratio * floor.noise;
  const meets = lost ? 'no (notifications lost)' : judge({ value: ratio, unit: '×', at: 'least', target: TARGET_RATIO, noise });
  printTable(`Notifications relayed, stdio server → WebSocket client (${COUNT.toLocaleString('en')} a round, median of ${ROUNDS})`, [
    ['figure', 'Loupe', 'baseline (same run)', 'ratio', 'target'],
    ['notifications/s, none lost', `${Math.round(loupeRate).toLocaleString('en')}/s${lost ? ' (LOST SOME)' : ''}`, `${Math.round(directRate).toLocaleString('en')}/s (direct SDK Client)`, `${ratio.toFixed(2)}× (±${noise.toFixed(3)}×)`, `≥ ${TARGET_RATIO}×: ${meets}`],
    [`proxy RSS, ${HELD.toLocaleString('en')} frames held (settled)`, mb(memory.heldRss), `${mb(memory.idleRss)} (same Loupe, idle)`, `${(memory.heldRss / memory.idleRss).toFixed(2)}×`, `${Math.round(perFrame)} B/frame`],
    ['proxy RSS 2 s after the flood (peak)', mb(memory.peakRss), `${mb(memory.idleRss)} (same Loupe, idle)`, `${(memory.peakRss / memory.idleRss).toFixed(2)}×`, ''],
  ]);
  writeResults('trace-relay', {
    machine: machine(),
    count: COUNT,
    rounds: ROUNDS,
    loupe: { perSecondMedian: loupeRate, rounds: loupe },
    direct: { perSecondMedian: directRate, rounds: direct },
    floor,
    ratio,
    noise: { relative: floor.noise, ratio: noise },
    lost,
    memory: { held: HELD, idleRssBytes: memory.idleRss, peakRssBytes: memory.peakRss, heldRssBytes: memory.heldRss, bytesPerFrame: perFrame, stats: memory.stats },
    target: { ratioAtLeast: TARGET_RATIO },
    meetsTarget: meets,
  });
}

if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
