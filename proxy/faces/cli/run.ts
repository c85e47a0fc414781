/**
 * The modes without a browser (issue 10): one request (`--cli`), `--smoke`, `--verify`, `--lock`
 * and `--mock`, each composing the same `Session` the UI drives (proxy/faces/cli/face-session.ts) with a
 * policy for the server's requests (policy.ts) and, with `--record`, the JSONL writer. Nothing
 * here loads the HTTP server, the static files or `ws`. The exit codes are io.ts's (docs/contract.md).
 */
import { writeFileSync } from 'node:fs';
import { parseKeyValues, parsePromptArgs, unknownNameMessage } from '../../../lib/headless/cli-arguments.ts';
import { formatResult } from '../../../lib/headless/cli-output.ts';
import { describeFailure } from '../../../lib/client/outcome-text.ts';
import { fetchAllPages } from '../../../lib/client/paged-list.ts';
import { serverRunsToolTasks, taskSupportOf } from '../../../lib/client/tasks.ts';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import { resolveReferences } from '../../../lib/workspace/references.ts';
import type { LoupeError, RpcError, SessionInfo } from '../../../lib/wire/wire.ts';
import type { ResolvedTarget } from '../../command-line/target.ts';
import type { CliOptions, HeadlessOptions } from '../../command-line/types.ts';
import { modeOf } from '../../command-line/headless.ts';
import { oauthOptionsOf } from '../../command-line/oauth.ts';
import { headlessPolicy } from './policy.ts';
import { verbosePrinter } from './verbose.ts';
import { openFaceSession, type FaceSession } from './face-session.ts';
import { EXIT, type HeadlessIo } from './io.ts';
import { runMockMode } from './mock.ts';
import type { EvalPlan } from './eval.ts';
import type { TestPlan } from './test.ts';
import { loadTraceReader, readTrace, type ImportedTrace } from './recording.ts';
import { startRecording, type Recording } from '../../engine/record.ts';
import type { RequestOutcome, Session } from '../../session/session.ts';

/** Each smoke call's limit without --timeout: long enough for a slow tool, short enough for CI. */
const SMOKE_TIMEOUT_MS = 15_000;

const processIo: HeadlessIo = { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t) };

/** Thrown for a usage problem found after connecting (an unknown tool): exit 2 with one sentence. */
class UsageError extends Error {}

/** Runs the headless mode the options ask for; resolves to the exit code. Never throws. */
export async function runHeadless(options: CliOptions, target: ResolvedTarget | undefined, io: HeadlessIo = processIo): Promise<number> {
  const h = options.headless;
  const say = (line: string) => io.stderr(`mcp-loupe: ${line}\n`);
  try {
    if (modeOf(h) === 'mock') return await runMockMode(h, io, say);
    // A collection file (issue 27) is read first: a bad one, or a --collection it does not have, is
    // exit 2 with no server run; and the server its collections name is the one to run against.
    const testing = h.test !== undefined ? await import('./test.ts') : undefined;
    const tests = testing?.readTestPlan(h, say);
    if (typeof tests === 'number') return tests;
    const picked = target ? pickServer(target, tests ? testing!.serversOfPlan(tests) : []) : { ok: false as const, error: 'No server to talk to.' };
    if (!picked.ok) {
      say(picked.error);
      return EXIT.usage;
    }
    // A recording to verify is read before the server starts: a bad file is exit 2, not a server run.
    let recording: ImportedTrace | undefined;
    if (h.verify !== undefined) {
      await loadTraceReader();
      const read = readTrace(h.verify, say);
      if (typeof read === 'number') return read;
      recording = read;
    }
    // An eval file (issue 27) too: a bad file, no model or a missing key is exit 2 before any server starts.
    const evals = h.eval !== undefined ? (await import('./eval.ts')).readEvalPlan(h, process.env, say) : undefined;
    if (typeof evals === 'number') return evals;
    return await withSession(picked.config, picked.secrets, options, io, say, { recorded: recording, pins: picked.pins, evals, tests, server: picked.name });
  } catch (error) {
    if (error instanceof UsageError) {
      say(error.message);
      return EXIT.usage;
    }
    say(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.failed;
  }
}

type Secrets = { env: string[]; headers: string[] };
/** `pins`: the tools' hashes a --config workspace kept for this server (the doctor's hash pinning); `name`: its name there. */
type Picked = { ok: true; config: ServerConfig; secrets: Secrets; pins?: Record<string, string>; name?: string } | { ok: false; error: string };

/**
 * The one server of the command line, or the one picked (or only) server of a --config file,
 * references resolved. `named`: the servers --test's collections name; when they name one, it is
 * the pick among several (`--server` still wins).
 */
function pickServer(target: ResolvedTarget, named: string[] = []): Picked {
  if (target.config) return { ok: true, config: target.config, secrets: { env: [], headers: [] } };
  const { workspace, path, start } = target.workspace!;
  const server = workspace.servers.find((s) => s.name === pickedName(start, workspace.servers, named));
  if (!server) {
    const listed = `${path} has ${workspace.servers.length} servers (${workspace.servers.map((s) => s.name).join(', ')})`;
    if (named.length > 1) return { ok: false, error: `${listed}, and the collections are for ${named.join(', ')}: run --test once for each, with --server NAME.` };
    return { ok: false, error: `${listed}: pick one with --server NAME.` };
  }
  const resolved = resolveReferences(server.config, { env: process.env, inputs: {} });
  if (resolved.missing.length > 0) {
    return { ok: false, error: `Server ${JSON.stringify(server.name)} needs ${resolved.missing.map((m) => '${input:' + m + '}').join(', ')}, which only the page can ask for: give the value with -e/--header, or run without --cli.` };
  }
  return { ok: true, config: resolved.config, secrets: { env: server.secretEnv, headers: server.secretHeaders }, pins: server.extras.toolPins, name: server.name };
}

/** The name the run takes: the one `--server` (or the only server), else the one the collections name. */
function pickedName(start: readonly string[], servers: readonly { name: string }[], named: readonly string[]): string | undefined {
  if (start.length === 1) return start[0];
  if (servers.length === 1) return servers[0].name;
  return named.length === 1 && start.includes(named[0]) ? named[0] : undefined;
}

/** What a mode read before the server started: a recording to verify, the tools' pins, an eval plan. */
type Prepared = { recorded?: ImportedTrace; pins?: Record<string, string>; evals?: EvalPlan; tests?: TestPlan; server?: string };

async function withSession(given: ServerConfig, secrets: Secrets, options: CliOptions, io: HeadlessIo, say: (line: string) => void, prepared: Prepared): Promise<number> {
  const { recorded } = prepared;
  const h = options.headless;
  // Verify connects as the recording's client did: a server may offer other tools to other clients.
  const client = recorded ? await recordedClient(recorded) : undefined;
  const clientCapabilities = client?.choice;
  let config = given;
  if (client?.modern && given.protocol === undefined) {
    say('The recording is of a 2026-07-28 session: verifying with --protocol 2026-07-28.');
    config = { ...given, protocol: '2026-07-28' };
  }
  let recording: Recording | undefined;
  let recordError: string | undefined;
  const opened: FaceSession = await openFaceSession(config, {
    clientSide: { roots: h.roots.map((uri) => ({ uri })), ...(clientCapabilities ? { clientCapabilities } : {}) },
    policy: headlessPolicy(h, h.verbose ? say : undefined),
    connectTimeoutMs: options.connectTimeoutMs ?? h.timeoutMs,
    secretEnv: secrets.env,
    secretHeaders: secrets.headers,
    oauth: oauthOptionsOf(options.oauth),
    rememberCredentials: options.oauth.rememberCredentials,
    rules: options.relay.loaded,
    onTrace: (trace) => {
      if (h.verbose) trace.subscribe(verbosePrinter(h.filter, config.name, io.stderr));
      if (h.record) {
        try {
          recording = startRecording(h.record, trace, initialInfo(config), secrets);
        } catch (error) {
          recordError = `cannot write the recording ${h.record}: ${(error as Error).message}`;
        }
      }
    },
  });
  const stop = installSignals(opened);
  try {
    if (recordError) {
      say(recordError);
      return EXIT.usage;
    }
    if (!opened.ok) {
      say(connectFailure(opened.error));
      return opened.error.code === 'TIMEOUT' ? EXIT.timeout : EXIT.connect;
    }
    return await runMode(opened.session, options, io, say, prepared);
  } finally {
    stop();
    await opened.close();
    recording?.close();
  }
}

/** A Ctrl-C (or CI's SIGTERM) stops the server's process group before Loupe exits. */
function installSignals(opened: FaceSession): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    setTimeout(() => process.exit(130), 3_000).unref();
    void opened.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}

function initialInfo(config: ServerConfig): SessionInfo {
  return { id: 's1', name: config.name ?? 's1', config, status: 'connecting', since: Date.now() } as SessionInfo;
}

/** The UI's words for a failed connect, with the server's stderr tail when it left one. */
export function connectFailure(error: LoupeError): string {
  const lines = [error.message];
  if (error.hint) lines.push(error.hint);
  const tail = (error.detail as { stderrTail?: unknown } | undefined)?.stderrTail;
  if (typeof tail === 'string' && tail.trim() !== '') lines.push(tail.trimEnd().split('\n').map((l) => `  | ${l}`).join('\n'));
  return lines.join('\n');
}

/** How the recording's client spoke: its capabilities, and whether it was a 2026-07-28 session. */
async function recordedClient(trace: ImportedTrace) {
  const { planReplay, recordedClientChoice, recordedModern } = await import('./verify.ts');
  const plan = planReplay(trace);
  return { choice: recordedClientChoice(plan), modern: recordedModern(plan) };
}

async function runMode(session: Session, options: CliOptions, io: HeadlessIo, say: (line: string) => void, { recorded, pins, evals, tests, server }: Prepared): Promise<number> {
  const h = options.headless;
  const timeoutMs = h.timeoutMs;
  switch (modeOf(h)) {
    case 'smoke': {
      const { runSmoke, formatSmokeText, smokeJunit, smokeExitCode } = await import('./smoke.ts');
      const report = await runSmoke(session, { timeoutMs: timeoutMs ?? SMOKE_TIMEOUT_MS, negative: h.negative, allowWrites: h.allowWrites });
      io.stdout(formatSmokeText(report));
      if (h.junit) writeFileSync(h.junit, smokeJunit(report));
      return smokeExitCode(report);
    }
    case 'verify':
    case 'lock':
      return runVerifyMode(session, h, io, say, recorded);
    case 'doctor':
      return (await import('./doctor.ts')).runDoctorMode(session, h, io, pins);
    case 'export-tools':
      return (await import('./doctor.ts')).runExportMode(session, h, io, say);
    case 'eval':
      return (await import('./eval.ts')).runEvalMode(session, evals!, h, io, say);
    case 'test':
      return (await import('./test.ts')).runTestMode(session, tests!, h, io, say, server);
    default:
      return runOne(session, h, io, say);
  }
}

async function runVerifyMode(session: Session, h: HeadlessOptions, io: HeadlessIo, say: (line: string) => void, recorded?: ImportedTrace): Promise<number> {
  const verify = await import('./verify.ts');
  let code: number = EXIT.ok;
  if (recorded) {
    const report = await verify.runVerify(session, recorded, { ignore: h.ignore, timeoutMs: h.timeoutMs ?? 30_000 });
    io.stdout(verify.formatVerifyText(report));
    code = Math.max(code, verify.verifyExitCode(report));
  }
  if (h.lock !== undefined) {
    const run = await verify.runLock(session, h.lock, { update: h.updateLock, timeoutMs: h.timeoutMs });
    if (run.kind === 'checked') io.stdout(verify.lockRunText(run));
    else say(verify.lockRunText(run).trimEnd());
    code = Math.max(code, verify.lockRunExitCode(run));
  }
  return code;
}

/** `--cli --method …`: one request, its result on stdout. */
async function runOne(session: Session, h: HeadlessOptions, io: HeadlessIo, say: (line: string) => void): Promise<number> {
  const method = h.method!;
  // checkHeadless keeps markdown to --doctor.
  const format = h.format === 'markdown' ? 'pretty' : h.format;
  if (method === 'initialize') {
    const info = session.snapshot();
    io.stdout(formatResult(method, { protocolVersion: info.protocolVersion, serverInfo: info.serverInfo, capabilities: info.capabilities ?? {}, instructions: info.instructions }, format));
    return EXIT.ok;
  }
  const request = (m: string, params?: Record<string, unknown>) => session.request(`cli-${m}`, m, params, { timeoutMs: h.timeoutMs });
  if (method === 'tools/list' || method === 'resources/list' || method === 'resources/templates/list' || method === 'prompts/list') {
    const key = method === 'tools/list' ? 'tools' : method === 'resources/list' ? 'resources' : method === 'prompts/list' ? 'prompts' : 'resourceTemplates';
    let failure: RpcError | LoupeError | undefined;
    const paged = await fetchAllPages(async (cursor) => {
      const outcome = await request(method, cursor === undefined ? undefined : { cursor });
      if (!outcome.ok) failure = outcome.error;
      return outcome;
    }, key);
    if (failure) return reportFailure(failure, say);
    if (paged.error) {
      say(paged.error);
      return EXIT.failed;
    }
    if (paged.note) say(paged.note);
    io.stdout(formatResult(method, { [key]: paged.items }, format));
    return EXIT.ok;
  }
  const { params, needsTask } = await paramsFor(h, request);
  const answered = (needsTask && (await asTask(session, h, params))) || (await request(method, params));
  // A 2026-07-28 server may answer with a task handle (the tasks extension): followed to its result.
  const isHandle = answered.ok && (answered.result as { resultType?: unknown } | undefined)?.resultType === 'task';
  const outcome = isHandle ? await (await import('./smoke.ts')).followTaskHandle(session, answered, h.timeoutMs ?? 60_000) : answered;
  if (!outcome.ok) return reportFailure(outcome.error, say);
  io.stdout(formatResult(method, outcome.result, format));
  if (method === 'tools/call' && (outcome.result as { isError?: unknown } | undefined)?.isError === true) {
    say(`the tool ${h.toolName} answered with isError: true.`);
    return EXIT.failed;
  }
  return EXIT.ok;
}

type Request = (method: string, params?: Record<string, unknown>) => ReturnType<Session['request']>;

/**
 * A tool that requires a task is called as one and followed to its result (tasks/get, then
 * tasks/result), as --smoke does; undefined when the server does not run tool tasks.
 */
async function asTask(session: Session, h: HeadlessOptions, params: Record<string, unknown> | undefined): Promise<RequestOutcome | undefined> {
  if (!serverRunsToolTasks(session.snapshot().capabilities)) return undefined;
  const { callToolAsTask } = await import('./smoke.ts');
  return callToolAsTask(session, h.toolName!, (params?.arguments ?? {}) as Record<string, unknown>, h.timeoutMs ?? 60_000);
}

type Params = { params?: Record<string, unknown>; needsTask?: boolean };

/** The request's params; for a tool or prompt, after checking that it exists (closest names when not). */
async function paramsFor(h: HeadlessOptions, request: Request): Promise<Params> {
  switch (h.method) {
    case 'tools/call': {
      const tools = await listNames(request, 'tools/list', 'tools');
      const tool = tools?.find((t) => t.name === h.toolName);
      if (tools && !tool) throw new UsageError(unknownNameMessage('tool', h.toolName!, tools.map((t) => t.name)));
      const args = h.args ?? parsed(parseKeyValues(h.toolArgs, tool?.item.inputSchema));
      return { params: { name: h.toolName, arguments: args }, needsTask: tool !== undefined && taskSupportOf(tool.item) === 'required' };
    }
    case 'prompts/get': {
      const prompts = await listNames(request, 'prompts/list', 'prompts');
      if (prompts && !prompts.some((p) => p.name === h.promptName)) throw new UsageError(unknownNameMessage('prompt', h.promptName!, prompts.map((p) => p.name)));
      const args = parsed(parsePromptArgs(h.promptArgs));
      return { params: Object.keys(args).length > 0 ? { name: h.promptName, arguments: args } : { name: h.promptName } };
    }
    case 'resources/read':
      return { params: { uri: h.uri } };
    default:
      return {};
  }
}

function parsed(result: ReturnType<typeof parseKeyValues>): Record<string, unknown> {
  if (!result.ok) throw new UsageError(result.error);
  return result.value;
}

/** The names a list gives (all pages), or undefined when the server does not list them (then no check). */
async function listNames(request: Request, method: string, key: string): Promise<{ name: string; item: Record<string, unknown> }[] | undefined> {
  const paged = await fetchAllPages((cursor) => request(method, cursor === undefined ? undefined : { cursor }), key);
  if (paged.error) return undefined;
  return paged.items
    .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string')
    .map((item) => ({ name: item.name as string, item }));
}

function reportFailure(error: RpcError | LoupeError, say: (line: string) => void): number {
  if (typeof error.code === 'number') {
    say(`the server answered with ${describeFailure(error)}`);
    // Loupe's own timer fails a request with -32001 (request-timer.ts).
    return error.code === -32001 && /timed out/i.test(error.message) ? EXIT.timeout : EXIT.failed;
  }
  say(connectFailure(error));
  if (error.code === 'TIMEOUT') return EXIT.timeout;
  // A 2026-07-28 call whose input rounds failed: the call failed on a live connection (exit 1), not the connect.
  return CALL_FAILURES.has(error.code) ? EXIT.failed : EXIT.connect;
}

const CALL_FAILURES: ReadonlySet<LoupeError['code']> = new Set(['INPUT_REFUSED', 'TOO_MANY_ROUNDS']);
