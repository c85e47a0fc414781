#!/usr/bin/env node
/**
 * `mcp-loupe [options] <command> [args...] | <url> | --config <file> [--server <name>]`
 * (docs/contract.md). Prints one line with the page URL and runs until SIGINT/SIGTERM, then stops every
 * process it started and exits 0.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { describeConfig } from '../lib/config/server-config.ts';
import { parseCliArgs, resolveTarget, USAGE, type CliOptions, type ResolvedTarget } from './command-line/options.ts';
import { defaultServer } from './default-server.ts';
import { modeOf } from './command-line/headless.ts';
import { oauthOptionsOf } from './command-line/oauth.ts';
import type { RunningLoupe } from './launch.ts';
import { VERSION } from './version.ts';
import type { Rule } from '../lib/model/rules.ts';
import { writeRuntimeState } from './system/runtime-state.ts';

function exitWith(message: string, code = 2): never {
  process.stderr.write(`mcp-loupe: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) exitWith(`${parsed.error}\n\n${USAGE}`);
  const options = parsed.options;
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  // The workspace parser (and zod with it) only when there is a file: a launch without one listens ~50 ms sooner.
  const parseWorkspace = options.config !== undefined ? (await import('../lib/workspace/workspace.ts')).parseWorkspace : undefined;
  const mode = modeOf(options.headless);
  // --mock starts no server: it has no target to resolve.
  const target = mode === 'mock' ? undefined : resolveTarget(options, { readFile: (path) => readFileSync(path, 'utf8'), defaultServer, parseWorkspace });
  if (target && !target.ok) exitWith(target.error);
  for (const warning of target?.value.warnings ?? []) process.stderr.write(`mcp-loupe: warning: ${warning}\n`);
  // `--rules FILE` (issue 13): read and checked before anything starts; a bad file is a usage error.
  const rules = options.relay.rules !== undefined ? await readRulesOrExit(options.relay.rules) : undefined;
  options.relay.loaded = rules;
  if (options.relay.tap) {
    // The tap never loads the page's server, ws's server side, or the SDK Client (tap.ts).
    const { runTap } = await import('./faces/tap/tap.ts');
    process.exitCode = await runTap(options, target!.value);
    return;
  }
  if (mode !== undefined) {
    // The modes without a browser never load the HTTP server, the static files or ws (cli-run.ts).
    const { runHeadless } = await import('./faces/cli/run.ts');
    // runHeadless returns once its output is written and its servers are stopped.
    await exitWhenWritten(await runHeadless(options, target?.value));
  }
  await runUi(options, target!.value);
}

/**
 * A headless mode is over: exits with its code once stdout and stderr have taken everything
 * written, whatever a library still holds the event loop with (the SDK's task store keeps a timer
 * of each task's ttl, minutes long; a server's orphan may hold a pipe open).
 */
async function exitWhenWritten(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/** Resolves once what was written before is handed to the OS (or the stream has failed: nothing more will go). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}

async function readRulesOrExit(file: string): Promise<{ rules: Rule[]; source: string }> {
  const { readRulesFile } = await import('../lib/rules/file.ts');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    exitWith(`cannot read the rules file ${file}: ${(error as Error).message}`);
  }
  const read = readRulesFile(text);
  if (!read.ok) exitWith(`the rules file ${file} is not valid: ${read.error}`);
  return { rules: read.rules, source: file };
}

async function runUi(options: CliOptions, target: ResolvedTarget): Promise<void> {
  const [{ launch }, { isLoopbackAddress }, lines] = await Promise.all([
    import('./launch.ts'),
    import('./listen/security.ts'),
    // The client config lines only with --gateway: a plain start loads nothing it does not print.
    options.relay.gateway ? import('./listen/client-lines.ts') : undefined,
  ]);

  // Signals are handled from the start: a Ctrl-C while the SDK is still loading must stop the
  // server process that is about to start, too.
  const state: { running?: RunningLoupe; stopping: boolean } = { stopping: false };
  const stop = (signal: string) => {
    if (state.stopping) return;
    state.stopping = true;
    process.stderr.write(`mcp-loupe: ${signal}: stopping servers…\n`);
    setTimeout(() => process.exit(0), 5_000).unref();
    forgetState?.();
    if (state.running) void state.running.close().finally(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));

  let forgetState: (() => void) | undefined;
  const exposed = !isLoopbackAddress(options.host);
  const gateway = options.relay.gateway
    ? { port: options.relay.gatewayPort, idleMs: options.relay.gatewayIdleMs, maxSessions: options.relay.gatewayMaxSessions, label: options.relay.label, noAuth: options.relay.gatewayNoAuth }
    : undefined;
  const what = describeWhat(target);
  const watch = options.watch !== undefined ? await planWatchOrExit(options.watch, target) : undefined;
  state.running = await launch({
    watch,
    onWatch: (line) => process.stderr.write(`mcp-loupe: ${line}\n`),
    config: target.config,
    workspace: target.workspace,
    record: options.headless.record,
    oauth: oauthOptionsOf(options.oauth),
    rememberCredentials: options.oauth.rememberCredentials,
    port: options.port,
    host: options.host,
    traceLimit: options.traceLimit,
    connectTimeoutMs: options.connectTimeoutMs,
    extraHosts: exposed ? [options.host] : undefined,
    rules: options.relay.loaded,
    otel: options.otel,
    onOtel: (line) => process.stderr.write(`mcp-loupe: ${line}\n`),
    gateway,
    onGateway: ({ url, token }) => {
      const announced = { url, token, name: options.relay.label ?? target.config?.name, what };
      if (!lines) return;
      if (token === undefined) process.stderr.write(lines.noAuthWarning(announced));
      process.stdout.write(lines.gatewayLines(announced));
    },
    onListening: ({ url }) => {
      keepYoungGenerationSmall();
      // Where `mcp-loupe --tap` finds this Loupe (issue 13): a 0600 file in the user's runtime directory.
      if (!exposed) forgetState = writeRuntimeState({ url, pid: process.pid, version: VERSION });
      if (exposed) process.stderr.write(`mcp-loupe: WARNING: listening on ${options.host}: anyone who can reach it and has the token can run commands on this machine.\n`);
      process.stdout.write(`MCP Loupe ${VERSION} is inspecting ${what}\nOpen ${url}\n`);
      if (watch) process.stdout.write(`Watching ${watch.said}: a change restarts the server.\n`);
      // The browser opener (and node:child_process with it) once the URL is out: a --no-open launch never loads it.
      if (options.open) void import('./faces/web/open-browser.ts').then(({ openBrowser }) => openBrowser(url));
    },
  }).catch((error: NodeJS.ErrnoException) =>
    exitWith(error.code === 'EADDRINUSE' ? `port ${options.port} is in use; choose another with --port` : `could not start: ${error.message}`, 1),
  );
  // A signal that came while starting: stop now that there is something to stop.
  if (state.stopping) await state.running.close().finally(() => process.exit(0));
}

/**
 * A young generation that stays at the size it has when the port listens: idle, Loupe holds
 * little, and V8 grows the semi-spaces to 16 MB each while the SDK and the engine load, ~10 MB of
 * resident memory over a bare SDK client (bench/memory.mjs). Set at run time, because any heap flag
 * on the command line (`--max-semi-space-size`) makes Node compile its own modules without their
 * code cache: 15 ms more to the first response (bench/cold-start.mjs); and only once the port
 * listens, for the same reason (a flag set at run time does the same to the modules loaded after
 * it; those of the hub load while the page does). V8 reads this flag each time it would grow the
 * young generation; under a flood of frames it costs ~10% of the relay rate (bench/trace-relay.mjs).
 */
function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** What `--watch` watches for the target's stdio command; a path that does not exist is a usage error. */
async function planWatchOrExit(paths: string[], target: ResolvedTarget) {
  const config = target.config;
  if (!config || config.kind !== 'stdio') exitWith('--watch restarts a stdio server Loupe starts: give its command.');
  const { planWatch } = await import('./system/watch.ts');
  // Given paths are the shell's (relative to where Loupe was started); the script is found where the server starts.
  const plan = planWatch({ paths: paths.map((p) => resolve(p)), command: config.command, args: config.args, cwd: config.cwd ?? process.cwd() });
  if ('error' in plan) exitWith(plan.error);
  return plan;
}

/** `node build/index.js`, or `3 servers from mcp.json (a, b; c not started)`. */
function describeWhat(target: ResolvedTarget): string {
  if (target.isDefault) return 'the bundled demo server (server-everything)';
  if (target.config) return describeConfig(target.config);
  const { path, workspace, start } = target.workspace!;
  const idle = workspace.servers.filter((s) => !start.includes(s.name)).map((s) => s.name);
  const count = workspace.servers.length;
  return `${count} server${count === 1 ? '' : 's'} from ${path} (${start.join(', ') || 'none started'}${idle.length > 0 ? `; not started: ${idle.join(', ')}` : ''})`;
}

main(process.argv.slice(2)).catch((error: unknown) => exitWith(error instanceof Error ? (error.stack ?? error.message) : String(error), 1));
