/**
 * Shared pieces of the benchmarks: spawning Loupe, reading its URL line, resident memory from
 * /proc, order statistics, and the table/JSON output every benchmark prints.
 * Benchmarks print figures; they are never timed tests (docs/architecture.md, bench/).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The Loupe CLI under test; LOUPE_CLI=/path/to/cli.js compares another build (an A/B of a change). */
export const CLI = process.env.LOUPE_CLI ? path.resolve(process.env.LOUPE_CLI) : path.join(ROOT, 'dist/proxy/cli.js');
/**
 * Node flags for the Loupe process: those its bin's shebang gives (`#!/usr/bin/env -S node --flag`,
 * so that the figures are those of Loupe as `npx mcp-loupe` starts it), plus LOUPE_NODE_ARGS for
 * investigation (e.g. LOUPE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
export const LOUPE_NODE_ARGS = [...shebangFlags(CLI), ...(process.env.LOUPE_NODE_ARGS ?? '').split(' ').filter(Boolean)];

function shebangFlags(file) {
  let first;
  try {
    first = readFileSync(file, 'utf8').split('\n', 1)[0];
  } catch {
    return [];
  }
  const words = first.startsWith('#!') ? first.slice(2).trim().split(/\s+/) : [];
  const node = words.findIndex((w) => w === 'node' || w.endsWith('/node'));
  return node === -1 ? [] : words.slice(node + 1).filter((w) => w.startsWith('--'));
}
export const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** The command Loupe itself runs for its default target (proxy/default-server.ts): same Node, same file, `stdio`. */
export function serverEverything() {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['mcp-server-everything'];
  return { command: process.execPath, args: [path.join(path.dirname(manifestPath), bin), 'stdio'] };
}

export function requireBuilt() {
  if (!existsSync(CLI)) {
    console.error(`bench: ${path.relative(ROOT, CLI)} is missing; run \`npm run build:proxy\` first.`);
    process.exit(2);
  }
}

export const URL_PATTERN = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+)/;

/**
 * Spawns `node <script> ...args` and resolves once a stdout line matches `pattern`.
 * Returns the child, the match, and the high-resolution time (performance.now) of spawn and match.
 */
export function spawnUntilLine(script, args, pattern, { timeoutMs = 20_000, env, nodeArgs = [] } = {}) {
  return new Promise((resolve, reject) => {
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out waiting for ${pattern} from ${script}\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    const onData = (chunk) => {
      out += chunk;
      const match = out.match(pattern);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.resume(); // keep draining
        resolve({ child, match, spawnedAt, lineAt: performance.now() });
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => (err = (err + chunk).slice(-4000)));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before printing its URL\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Starts Loupe (`--no-open --port 0`, default target unless `targetArgs`) and resolves with its URL parts. */
export async function startLoupe(targetArgs = [], options = {}) {
  const nodeArgs = LOUPE_NODE_ARGS;
  const { child, match, spawnedAt, lineAt } = await spawnUntilLine(CLI, ['--no-open', '--port', '0', ...targetArgs], URL_PATTERN, { nodeArgs, ...options });
  child.removeAllListeners('exit');
  const port = Number(match[1]);
  const token = match[2];
  return { child, port, token, url: match[0], wsUrl: `ws://127.0.0.1:${port}/ws?token=${token}`, spawnedAt, lineAt };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export function stop(child, graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident set size of one process (not its children), in bytes, from /proc/<pid>/status. */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1]);
  return kb * 1024;
}

/**
 * Loupe's own processes besides itself: the `/bin/sh` watchdog it starts beside each stdio server
 * (proxy/system/watchdog.ts), found as its children whose command line names `loupe-watchdog`. Counted
 * into Loupe's memory figure so that the extra process is not hidden.
 */
export function watchdogPids(pid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('loupe-watchdog')) out.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return out;
}

/** RSS of a process plus its watchdogs (see watchdogPids). */
export function rssWithWatchdogs(pid) {
  return watchdogPids(pid).reduce((sum, child) => sum + rssBytes(child), rssBytes(pid));
}

/** Proportional set size of one process (its share of pages it shares with others), from /proc/<pid>/smaps_rollup. */
export function pssBytes(pid) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return Number(rollup.match(/^Pss:\s+(\d+)\s+kB/m)?.[1]) * 1024;
}

/**
 * RSS of a process plus the Pss of its watchdogs: each `/bin/sh` watchdog shares nearly all its
 * pages (the shell's text, libc) with every other shell on the machine, so its RSS would count
 * those once per session; Pss counts its share (issue 9's fairer figure for many sessions).
 */
export function rssWithWatchdogPss(pid) {
  return watchdogPids(pid).reduce((sum, child) => sum + pssBytes(child), rssBytes(pid));
}

/** Median of several RSS samples taken `intervalMs` apart. */
export async function sampleRss(pid, samples = 5, intervalMs = 250, measure = rssBytes) {
  const values = [];
  for (let i = 0; i < samples; i++) {
    if (i > 0) await sleep(intervalMs);
    values.push(measure(pid));
  }
  return { median: median(values), samples: values };
}

export function sorted(values) {
  return [...values].sort((a, b) => a - b);
}

export function median(values) {
  const s = sorted(values);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values, p) {
  const s = sorted(values);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1];
}

export function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function summarize(values) {
  return {
    n: values.length,
    median: median(values),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    mean: mean(values),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

export const ms = (value, digits = 1) => `${value.toFixed(digits)} ms`;
export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Prints a plain-text table; `rows` are arrays of strings, the first is the header. */
export function printTable(title, rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
  const line = (r) => r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(rows[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(line(r));
}

export function writeResults(name, data) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, at: new Date().toISOString(), node: process.version, ...data }, null, 2) + '\n');
  return file;
}

/** Machine facts worth keeping beside the figures: the box is small and shared. */
export function machine() {
  let load;
  try {
    load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    load = undefined;
  }
  return { platform: process.platform, arch: process.arch, loadavg: load };
}

/** True when the module at `url` is the script node was started with (not imported by run-all). */
export function isMain(url) {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(url);
}

/** A warning to print beside the figures when the (shared) machine is busier than it has cores. */
export function busyWarning() {
  const { loadavg } = machine();
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  if (!loadavg || loadavg[0] <= cores) return '';
  return `warning: the machine is busy (load average ${loadavg[0].toFixed(2)} on ${cores} cores): the figures may be inflated (the load average lags: compare the baseline with a quiet run)`;
}

/** A `tools/call echo` result must carry the message back (a benchmark of wrong answers measures nothing). */
export function checkEcho(result, message) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== 'string' || !text.includes(message)) throw new Error(`unexpected echo result: ${JSON.stringify(result).slice(0, 300)}`);
}

/** `count` sequential calls; each round trip in ms is pushed to `into` (none for a warm-up). */
export async function timed(call, count, into) {
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    into?.push(performance.now() - started);
  }
}

/**
 * Each side's `call` `warmup` times, then `blocks` blocks of `calls`, the sides interleaved block
 * by block with the order reversed every other block (so that a noisy machine hits all alike).
 * Returns each side's round trips in ms.
 */
export async function interleaved(sides, { warmup, blocks, calls }) {
  for (const side of sides) await timed(side.call, warmup);
  const times = sides.map(() => []);
  const order = sides.map((side, i) => [side, times[i]]);
  for (let block = 0; block < blocks; block++) {
    for (const [side, into] of block % 2 === 0 ? order : [...order].reverse()) await timed(side.call, calls, into);
  }
  return times;
}

/** Waits until `check()` holds, woken by `state.wake` (a WebSocket message) or every 100 ms. */
export async function until(state, check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => {
      state.wake = resolve;
      setTimeout(resolve, 100);
    });
  }
}
