/**
 * Investigation helper (not part of run-all): interleaves echo round trips through several Loupe
 * builds and a direct SDK Client in one run, so that variants of a proxy change can be compared on a
 * noisy machine. Usage: node bench/lib/ab.mjs [--blocks N] [--calls N] [--warmup N] label=path/to/cli.js ...
 * (a path ending in relay-floor.mjs is started with the server command instead of Loupe's options).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BenchWireClient } from './wire-client.mjs';
import { URL_PATTERN, printTable, ms, serverEverything, spawnUntilLine, stop, summarize } from './common.mjs';

const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const BLOCKS = arg('--blocks', 10);
const CALLS = arg('--calls', 100);
const WARMUP = arg('--warmup', 20);
const variants = process.argv.slice(2).filter((a) => a.includes('=')).map((a) => a.split('='));

async function loupe(label, cli) {
  const { command, args } = serverEverything();
  const argv = cli.endsWith('relay-floor.mjs') ? [command, ...args] : ['--no-open', '--port', '0'];
  const { child, match } = await spawnUntilLine(cli, argv, URL_PATTERN);
  child.removeAllListeners('exit');
  const client = await BenchWireClient.open(`ws://127.0.0.1:${match[1]}/ws?token=${match[2]}`);
  const session = await client.primaryConnected();
  const inside = [];
  return {
    label, inside, times: [],
    call: async () => {
      const r = await client.request(session, 'tools/call', { name: 'echo', arguments: { message: 'hi' } });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      inside.push(r.durationMs);
    },
    close: async () => { client.close(); await stop(child); },
  };
}

async function direct() {
  const { command, args } = serverEverything();
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
  const client = new Client({ name: 'ab', version: '0' }, { capabilities: {} });
  await client.connect(transport);
  transport.stderr?.resume();
  return { label: 'direct', times: [], call: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }), close: () => client.close() };
}

const sides = [await direct(), ...(await Promise.all(variants.map(([l, c]) => loupe(l, c))))];
try {
  for (const s of sides) for (let i = 0; i < WARMUP; i++) await s.call();
  for (const s of sides) if (s.inside) s.inside.length = 0;
  for (let b = 0; b < BLOCKS; b++) {
    const order = b % 2 ? [...sides].reverse() : sides;
    for (const s of order) for (let i = 0; i < CALLS; i++) { const t = performance.now(); await s.call(); s.times.push(performance.now() - t); }
  }
} finally {
  await Promise.allSettled(sides.map((s) => s.close()));
}
const d = summarize(sides[0].times).median;
printTable(`A/B: ${BLOCKS} interleaved blocks of ${CALLS} echo calls`, [
  ['', 'median', 'p90', 'mean', 'inside proxy (median)', 'ratio to direct'],
  ...sides.map((s) => { const x = summarize(s.times); return [s.label, ms(x.median, 3), ms(x.p90, 3), ms(x.mean, 3), s.inside ? ms(summarize(s.inside).median, 3) : '', (x.median / d).toFixed(2) + '×']; }),
]);
