#!/usr/bin/env node
/**
 * What checking every frame against the spec schema (issue 14, proxy/pipeline/spec-validator.ts) costs the
 * relay: an A/B of two Loupe builds in one run, one with the validator (`--with`, default this
 * checkout's dist/) and one without (`--without`: a build of the commit before it, e.g.
 * `git worktree add /tmp/loupe-before HEAD~1`, then `npm ci && node .ci/build.mjs` there):
 *
 *   echo:      tools/call echo round trips to server-everything, one at a time, in interleaved
 *              blocks (order swapped every block), through `with`, `without` and a second `with`
 *              process (with′: how far two processes of one build differ on this machine, i.e.
 *              what "no measurable change" can mean here);
 *   flood:     COUNT valid notifications/message (e2e/fixtures/flood.mjs) relayed to a wire
 *              client, rounds alternating between the builds: notifications/s, none lost;
 *   bad flood: COUNT notifications that each break the schema (e2e/fixtures/doctor-wire.mjs,
 *              tool flood-bad): the worst case, one spec event per frame; notifications/s, and
 *              the spec events that reached the client (or were skipped, and said so).
 *
 * Target: no measurable change — the with/without ratios within the with/with′ spread.
 * Usage: node bench/spec-validation.mjs --without path/to/cli.js [--with path/to/cli.js]
 *        [--blocks N] [--calls N] [--count N] [--rounds R]
 */
import path from 'node:path';
import WebSocket from 'ws';
import { BenchWireClient } from './lib/wire-client.mjs';
import { busyWarning, CLI, isMain, machine, median, ms, printTable, ROOT, serverEverything, spawnUntilLine, stop, summarize, until, URL_PATTERN, writeResults } from './lib/common.mjs';

const option = (name) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const number = (name, fallback) => Number(option(name)) || fallback;
const WITH = path.resolve(option('--with') ?? CLI);
const WITHOUT = option('--without') && path.resolve(option('--without'));
const BLOCKS = number('--blocks', 6);
const CALLS = number('--calls', 100);
const WARMUP = 30;
const COUNT = number('--count', 50_000);
const ROUNDS = number('--rounds', 3);
const FLOOD = path.join(ROOT, 'e2e/fixtures/flood.mjs');
const DOCTOR_WIRE = path.join(ROOT, 'e2e/fixtures/doctor-wire.mjs');

async function startBuild(cli, target) {
  const { child, match } = await spawnUntilLine(cli, ['--no-open', '--port', '0', '--trace-limit', String(COUNT * 3), ...target], URL_PATTERN);
  child.removeAllListeners('exit');
  return { child, wsUrl: `ws://127.0.0.1:${match[1]}/ws?token=${match[2]}` };
}

async function echoSide(label, cli) {
  const { command, args } = serverEverything();
  const loupe = await startBuild(cli, [command, ...args]);
  const client = await BenchWireClient.open(loupe.wsUrl);
  const session = await client.primaryConnected();
  const times = [];
  const call = async () => {
    const response = await client.request(session, 'tools/call', { name: 'echo', arguments: { message: 'hi' } });
    if (!response.ok) throw new Error(`echo via ${label} failed: ${JSON.stringify(response.error)}`);
  };
  return { label, times, call, close: async () => (client.close(), await stop(loupe.child)) };
}

async function echo() {
  const sides = await Promise.all([echoSide('with', WITH), echoSide('without', WITHOUT), echoSide('with′', WITH)]);
  try {
    for (const side of sides) for (let i = 0; i < WARMUP; i++) await side.call();
    for (let block = 0; block < BLOCKS; block++) {
      for (const side of block % 2 === 0 ? sides : [...sides].reverse()) {
        for (let i = 0; i < CALLS; i++) {
          const started = performance.now();
          await side.call();
          side.times.push(performance.now() - started);
        }
      }
    }
  } finally {
    await Promise.allSettled(sides.map((side) => side.close()));
  }
  return Object.fromEntries(sides.map((side) => [side.label, summarize(side.times)]));
}

/** A wire client that counts one kind of notification, the spec events, and the validator's notes. */
function counter(url, method) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const state = { ws, primary: undefined, status: new Map(), notes: 0, specs: 0, skipped: [], lastAt: 0, responses: new Set(), wake: () => {} };
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'snapshot') {
        state.primary = m.primary;
        for (const s of m.sessions) state.status.set(s.id, s.status);
      } else if (m.type === 'session') state.status.set(m.session.id, m.session.status);
      else if (m.type === 'response') state.responses.add(m.id);
      for (const e of m.type === 'events' || m.type === 'snapshot' ? m.events : []) {
        if (e.kind === 'frame' && e.method === method) {
          state.notes++;
          state.lastAt = performance.now();
        } else if (e.kind === 'spec') state.specs++;
        else if (e.kind === 'transport' && e.message.startsWith('Spec validation skipped')) state.skipped.push(e.message);
      }
      state.wake();
    });
    ws.once('open', () => resolve(state));
    ws.once('error', reject);
  });
}


async function floodRound(cli, server, tool) {
  const loupe = await startBuild(cli, ['node', server]);
  const wire = await counter(loupe.wsUrl, 'notifications/message');
  try {
    await until(wire, () => wire.primary && wire.status.get(wire.primary) === 'connected', 20_000, 'connected');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = wire.notes;
    const started = performance.now();
    wire.ws.send(JSON.stringify({ type: 'request', session: wire.primary, id: 'flood', method: 'tools/call', params: { name: tool, arguments: { count: COUNT } } }));
    await until(wire, () => wire.notes - before >= COUNT && wire.responses.has('flood'), 180_000, `${COUNT} notifications`);
    const perSecond = COUNT / ((wire.lastAt - started) / 1000);
    // The verdicts trail the frames: give the validator a moment to say what it found or skipped.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { perSecond, received: wire.notes - before, specs: wire.specs, skipped: wire.skipped };
  } finally {
    wire.ws.close();
    await stop(loupe.child);
  }
}

async function flood(server, tool) {
  const rounds = { with: [], without: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? ['with', 'without'] : ['without', 'with']) {
      const r = await floodRound(side === 'with' ? WITH : WITHOUT, server, tool);
      rounds[side].push(r);
      console.log(`${tool} round ${round + 1} ${side.padEnd(7)} ${Math.round(r.perSecond).toLocaleString('en')}/s, ${r.received.toLocaleString('en')} received, ${r.specs.toLocaleString('en')} spec events${r.skipped.length ? `; ${r.skipped.join(' ')}` : ''}`);
    }
  }
  return rounds;
}

async function main() {
  if (!WITHOUT) {
    console.error('bench/spec-validation: give --without path/to/cli.js (a Loupe build without the spec validator).');
    process.exit(2);
  }
  const e = await echo();
  const good = await flood(FLOOD, 'flood');
  const bad = await flood(DOCTOR_WIRE, 'flood-bad');
  const rate = (rounds) => median(rounds.map((r) => r.perSecond));
  const row = (label, s) => [label, ms(s.median, 3), ms(s.p90, 3), ms(s.mean, 3), String(s.n)];
  printTable(`tools/call echo round trips (${WARMUP} warm-up each, ${BLOCKS} interleaved blocks of ${CALLS})`, [
    ['', 'median', 'p90', 'mean', 'calls'],
    row('with the validator', e.with),
    row('without', e.without),
    row('with′ (a second process of the same build)', e['with′']),
  ]);
  console.log(`with / without: ${(e.with.median / e.without.median).toFixed(3)}× (median); with / with′: ${(e.with.median / e['with′'].median).toFixed(3)}× (the spread of two processes of one build)`);
  const fmt = (n) => `${Math.round(n).toLocaleString('en')}/s`;
  printTable(`Notifications relayed to a wire client (${COUNT.toLocaleString('en')} a round, median of ${ROUNDS})`, [
    ['', 'with', 'without', 'ratio', 'spec events (with)'],
    ['valid flood (flood.mjs)', fmt(rate(good.with)), fmt(rate(good.without)), `${(rate(good.with) / rate(good.without)).toFixed(3)}×`, String(median(good.with.map((r) => r.specs)))],
    ['every frame invalid (doctor-wire flood-bad)', fmt(rate(bad.with)), fmt(rate(bad.without)), `${(rate(bad.with) / rate(bad.without)).toFixed(3)}×`, String(median(bad.with.map((r) => r.specs)))],
  ]);
  if (busyWarning()) console.log(busyWarning());
  const file = writeResults('spec-validation', { machine: machine(), busy: busyWarning() || undefined, with: WITH, without: WITHOUT, echo: e, flood: good, badFlood: bad, count: COUNT, rounds: ROUNDS });
  console.log(`figures written to ${path.relative(ROOT, file)}`);
}

if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
