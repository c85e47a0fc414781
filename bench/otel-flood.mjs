#!/usr/bin/env node
/**
 * OpenTelemetry export under a flood (issue 28): `node e2e/fixtures/flood.mjs` sends N
 * notifications/message at 10,000 a second during one tools/call; a WebSocket client of the wire
 * protocol counts those that reach it, and the figure is N over the time from the `request`
 * envelope to the last of them, none missing. Loupe side: launched with `--otlp` to an OTLP/HTTP
 * sink in this process (a plain HTTP server answering 200, counting the bodies); floor: the same
 * Loupe, same server, without it. Rounds alternate. Target: the median rate with export ≥ 0.9× the
 * floor's, judged against the noise of the floor's rounds (bench/lib/verdict.mjs); and the sink
 * must have received the flood call's span.
 *
 * Usage: node bench/otel-flood.mjs [--count N] [--rounds R]
 */
import { createServer } from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { judge, spread } from './lib/verdict.mjs';
import { isMain, machine, median, printTable, requireBuilt, ROOT, sleep, startLoupe, stop, until, writeResults } from './lib/common.mjs';

const TARGET_RATIO = 0.9;
const PER_SECOND = 10_000;
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const COUNT = arg('--count', 50_000);
const ROUNDS = arg('--rounds', 5);
const FLOOD = path.join(ROOT, 'e2e/fixtures/flood.mjs');

/** The team's collector, as cheap as one can be: it counts bodies and bytes. */
function startSink() {
  const sink = { bodies: 0, bytes: 0, text: '' };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      sink.bodies++;
      sink.bytes += body.length;
      sink.text += body.toString('latin1');
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ sink, server, url: `http://127.0.0.1:${server.address().port}` })));
}

function openWire(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const state = { ws, primary: undefined, status: new Map(), notes: 0, lastAt: 0, responses: new Map(), wake: () => {} };
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'snapshot') {
        state.primary = m.primary;
        for (const s of m.sessions) state.status.set(s.id, s.status);
      } else if (m.type === 'session') {
        // A session made after the snapshot (tracing's modules load first) is the primary one here.
        state.primary ??= m.session.id;
        state.status.set(m.session.id, m.session.status);
      }
      else if (m.type === 'response') state.responses.set(m.id, m);
      if (m.type === 'events' || m.type === 'snapshot') {
        for (const e of m.events) if (e.kind === 'frame' && e.method === 'notifications/message') state.notes++;
        state.lastAt = performance.now();
      }
      state.wake();
    });
    ws.once('open', () => resolve(state));
    ws.once('error', reject);
  });
}

async function round(count, otlp) {
  const loupe = await startLoupe([...(otlp ? ['--otlp', otlp] : []), '--trace-limit', String(count + 1000), 'node', FLOOD]);
  const wire = await openWire(loupe.wsUrl);
  try {
    await until(wire, () => wire.primary && wire.status.get(wire.primary) === 'connected', 20_000, 'connected');
    await sleep(300);
    const before = wire.notes;
    const started = performance.now();
    wire.ws.send(JSON.stringify({ type: 'request', session: wire.primary, id: 'flood', method: 'tools/call', params: { name: 'flood', arguments: { count, perSecond: PER_SECOND } } }));
    await until(wire, () => wire.notes - before >= count && wire.responses.has('flood'), 120_000, `${count} notifications`);
    return { perSecond: count / ((wire.lastAt - started) / 1000), received: wire.notes - before };
  } finally {
    wire.ws.close();
    await stop(loupe.child);
  }
}

async function main() {
  requireBuilt();
  const { sink, server, url } = await startSink();
  const traced = [];
  const plain = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? ['traced', 'plain'] : ['plain', 'traced']) {
      const result = await round(COUNT, side === 'traced' ? url : undefined);
      (side === 'traced' ? traced : plain).push(result);
      console.log(`round ${r + 1} ${side.padEnd(6)} ${Math.round(result.perSecond).toLocaleString('en')}/s, ${result.received.toLocaleString('en')} of ${COUNT.toLocaleString('en')} received`);
    }
  }
  server.close();
  const lost = [...traced, ...plain].some((x) => x.received !== COUNT);
  // The flood call's span reached the sink (protobuf: its name is in the bytes as written).
  const exported = sink.text.includes('tools/call flood');
  const tracedRate = median(traced.map((x) => x.perSecond));
  const plainRate = median(plain.map((x) => x.perSecond));
  const ratio = tracedRate / plainRate;
  const floor = spread(plain.map((x) => x.perSecond));
  const noise = ratio * floor.noise;
  const meets = lost ? 'no (notifications lost)' : !exported ? 'no (nothing exported)' : judge({ value: ratio, unit: '×', at: 'least', target: TARGET_RATIO, noise });
  printTable(`Notifications relayed at ${PER_SECOND.toLocaleString('en')}/s with OTLP export on (${COUNT.toLocaleString('en')} a round, median of ${ROUNDS})`, [
    ['figure', 'with --otlp', 'without (same run)', 'ratio', 'target'],
    ['notifications/s, none lost', `${Math.round(tracedRate).toLocaleString('en')}/s`, `${Math.round(plainRate).toLocaleString('en')}/s`, `${ratio.toFixed(2)}× (±${noise.toFixed(3)}×)`, `≥ ${TARGET_RATIO}×: ${meets}`],
    ['OTLP bodies received by the sink', String(sink.bodies), '', '', exported ? 'the flood call’s span among them' : 'NOT the flood call’s span'],
  ]);
  writeResults('otel-flood', {
    machine: machine(),
    count: COUNT,
    rounds: ROUNDS,
    perSecond: PER_SECOND,
    traced: { perSecondMedian: tracedRate, rounds: traced },
    plain: { perSecondMedian: plainRate, rounds: plain },
    floor,
    ratio,
    noise: { relative: floor.noise, ratio: noise },
    lost,
    exported,
    sink: { bodies: sink.bodies, bytes: sink.bytes },
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
