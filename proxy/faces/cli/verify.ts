/**
 * The live half of `--verify FILE` and `--lock FILE` (issue 10): replays a recording's requests on a
 * connected face session (proxy/faces/cli/face-session.ts) and hands every answer to the comparison of
 * lib/headless/verify.ts; lists the server's surface for the lockfile of lib/headless/tool-lock.ts and writes or
 * checks the file. What is compared and how it is reported lives in lib/, so that it is tested
 * without processes.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fetchAllPages } from '../../../lib/client/paged-list.ts';
import { diffLock, lockFromLists, lockExitCode, lockText, parseLock, type LockDiff, type ToolLock } from '../../../lib/headless/tool-lock.ts';
import { diffSurfaces, formatSurfaceDiff, type SurfaceDiff } from '../../../lib/surface/diff.ts';
import type { ImportedTrace } from '../../../lib/trace/read-trace.ts';
import { compileIgnores, planReplay, Verification, type LiveAnswer, type ReplayStep, type VerifyReport } from '../../../lib/headless/verify.ts';
import type { FrameEvent, TraceEvent } from '../../../lib/wire/wire.ts';
import type { RequestOutcome, Session } from '../../session/session.ts';

// The pure halves, re-exported so that the command line imports one module for both modes.
export { compileIgnores, DEFAULT_IGNORES, recordedClientChoice, recordedModern, planReplay, type VerifyReport } from '../../../lib/headless/verify.ts';
export { formatVerifyText, verifyExitCode } from '../../../lib/headless/verify-text.ts';
export { diffLock, lockExitCode, lockText, parseLock, type LockDiff, type ToolLock } from '../../../lib/headless/tool-lock.ts';

export interface VerifyOptions {
  /** The user's ignore rules (`--ignore`), added to the built-in ones. */
  ignore: readonly string[];
  /** How long each replayed request may take. */
  timeoutMs: number;
  /** `false` leaves the built-in ignore rules out. */
  defaults?: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The response texts of this session's own requests as they arrive, by JSON-RPC id. */
function watchResponses(session: Session): { get(id: unknown): string | undefined; stop(): void } {
  const texts = new Map<string, string>();
  const stop = session.trace.subscribe((event: TraceEvent) => {
    if (event.kind === 'frame' && event.dir === 'in' && (event.rpc === 'response' || event.rpc === 'error') && event.id !== undefined) texts.set(String(event.id), event.raw);
  });
  return { get: (id) => (id === undefined ? undefined : texts.get(String(id))), stop };
}

/** The live handshake: the initialize result as the server sent it (from the trace), else what the session kept of it. */
function liveInitialize(session: Session): { result: Record<string, unknown>; frame?: string; declared?: unknown } {
  const frames = session.trace.all().filter((e): e is FrameEvent => e.kind === 'frame');
  const request = frames.findLast((f) => f.dir === 'out' && f.method === 'initialize');
  const response = request && frames.find((f) => f.dir === 'in' && f.seq > request.seq && f.id === request.id && f.method === undefined);
  const read = (raw: string | undefined): Record<string, unknown> | undefined => {
    try {
      const message: unknown = raw === undefined ? undefined : JSON.parse(raw);
      return isRecord(message) ? message : undefined;
    } catch {
      return undefined;
    }
  };
  const declared = read(request?.raw)?.params;
  const result = read(response?.raw)?.result;
  if (isRecord(result)) return { result, frame: response?.raw, declared: isRecord(declared) ? declared.capabilities : undefined };
  const info = session.snapshot();
  return { result: { protocolVersion: info.protocolVersion, capabilities: info.capabilities, serverInfo: info.serverInfo, instructions: info.instructions }, declared: isRecord(declared) ? declared.capabilities : undefined };
}

interface Unanswered {
  step: ReplayStep;
  uiId: string;
  outcome?: RequestOutcome;
  request: Promise<RequestOutcome>;
}

/**
 * Replays the client side of `trace` on `session`, in recorded order, one request at a time (as
 * the answers are compared in that order). A request the recording has no answer for is sent and
 * not waited for (it was not answered then either); whatever of those is still open at the end is
 * cancelled. Throws only for ignore rules that do not parse (check them first with compileIgnores).
 */
export async function runVerify(session: Session, trace: ImportedTrace, options: VerifyOptions): Promise<VerifyReport> {
  const rules = compileIgnores(options.ignore, { defaults: options.defaults });
  if (!rules.ok) throw new Error(rules.error);
  const plan = planReplay(trace);
  const run = new Verification(plan, rules.rules, options.timeoutMs);
  const responses = watchResponses(session);
  const unanswered: Unanswered[] = [];
  try {
    run.compareInitialize(liveInitialize(session));
    for (let i = 0; i < plan.steps.length; i += 1) {
      const step = plan.steps[i];
      if (session.status !== 'connected') {
        const error = session.snapshot().error;
        run.stop(`the server stopped during the replay${error ? `: ${error.message.replace(/\.$/, '')}` : ` (the session is ${session.status})`}.`, plan.steps.slice(i));
        break;
      }
      const uiId = `verify-${step.exchange.seq}`;
      const request = session.request(uiId, step.exchange.method, run.paramsFor(step), { timeoutMs: options.timeoutMs, ...(step.progress ? { onProgress: () => undefined } : {}) });
      if (!step.compare) {
        const entry: Unanswered = { step, uiId, request };
        void request.then((outcome) => (entry.outcome = outcome));
        unanswered.push(entry);
        continue;
      }
      const outcome = await request;
      run.record(step, answer(outcome, responses));
    }
    await settle(session, unanswered, run, responses);
  } finally {
    responses.stop();
  }
  return run.report();
}

/** The requests the recording has no answer for: those still open are cancelled, and each is said. */
async function settle(session: Session, unanswered: readonly Unanswered[], run: Verification, responses: { get(id: unknown): string | undefined }): Promise<void> {
  const open = unanswered.filter((entry) => entry.outcome === undefined);
  for (const entry of open) session.cancel(entry.uiId);
  for (const entry of unanswered) {
    const outcome = await entry.request;
    run.replayedOnly(entry.step, open.includes(entry) ? 'waiting' : answer(outcome, responses));
  }
}

function answer(outcome: RequestOutcome, responses: { get(id: unknown): string | undefined }): LiveAnswer {
  const frame = responses.get(outcome.rpcId);
  return { outcome: outcome.ok ? { ok: true, result: outcome.result } : { ok: false, error: outcome.error }, ...(frame !== undefined ? { frame } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Lockfile

export type LockOutcome = { ok: true; lock: ToolLock; notes: string[] } | { ok: false; error: string };

const LISTS = [
  { method: 'tools/list', key: 'tools', capability: 'tools', what: 'tools' },
  { method: 'resources/templates/list', key: 'resourceTemplates', capability: 'resources', what: 'resource templates' },
  { method: 'prompts/list', key: 'prompts', capability: 'prompts', what: 'prompts' },
] as const;

/**
 * The server's surface, every page of each list. A list the server's capabilities do not offer is
 * empty; a list that fails or stops early fails the whole lock (a partial surface would read as
 * removals).
 */
export async function buildLock(session: Session, timeoutMs = 30_000): Promise<LockOutcome> {
  const info = session.snapshot();
  const capabilities = info.capabilities ?? {};
  const items: Record<string, unknown[]> = { tools: [], resourceTemplates: [], prompts: [] };
  for (const list of LISTS) {
    if (capabilities[list.capability] === undefined) continue;
    let page = 0;
    const paged = await fetchAllPages((cursor) => session.request(`lock-${list.key}-${++page}`, list.method, cursor === undefined ? undefined : { cursor }, { timeoutMs }), list.key);
    const why = paged.error ?? paged.note;
    if (why !== undefined) return { ok: false, error: `Loupe could not list the server's ${list.what} (${list.method}, page ${paged.pages}): ${why}. The lock was not written or checked.` };
    items[list.key] = paged.items;
  }
  const { lock, notes } = lockFromLists({ tools: items.tools, resourceTemplates: items.resourceTemplates, prompts: items.prompts, serverName: info.serverInfo?.name });
  return { ok: true, lock, notes };
}

export type LockRun =
  | { kind: 'written'; file: string; lock: ToolLock; notes: string[]; replaced: boolean }
  | { kind: 'checked'; file: string; diff: LockDiff; surface: SurfaceDiff; notes: string[] }
  | { kind: 'failed'; error: string; exitCode: 1 | 2 };

/**
 * `--lock FILE`: writes the lock when FILE does not exist (or `update`), else checks the live
 * surface against it. A file that cannot be read or is not a lock is a usage error (2); a server
 * that cannot list its surface is 1.
 */
export async function runLock(session: Session, file: string, options: { update?: boolean; timeoutMs?: number } = {}): Promise<LockRun> {
  let old: ToolLock | undefined;
  if (existsSync(file) && !options.update) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      return { kind: 'failed', error: `Loupe could not read the lock file ${file}: ${(error as Error).message}.`, exitCode: 2 };
    }
    const parsed = parseLock(text);
    if (!parsed.ok) return { kind: 'failed', error: `${file}: ${parsed.error}`, exitCode: 2 };
    old = parsed.lock;
  }
  const built = await buildLock(session, options.timeoutMs);
  if (!built.ok) return { kind: 'failed', error: built.error, exitCode: 1 };
  if (old) return { kind: 'checked', file, diff: diffLock(old, built.lock), surface: diffSurfaces(old, built.lock), notes: built.notes };
  const replaced = existsSync(file);
  try {
    // Written beside and renamed, so that an interrupted write never leaves half a lock file.
    writeFileSync(`${file}.tmp`, lockText(built.lock));
    renameSync(`${file}.tmp`, file);
  } catch (error) {
    return { kind: 'failed', error: `Loupe could not write the lock file ${file}: ${(error as Error).message}.`, exitCode: 2 };
  }
  return { kind: 'written', file, lock: built.lock, notes: built.notes, replaced };
}

/** What `--lock` prints. */
export function lockRunText(run: LockRun): string {
  if (run.kind === 'failed') return `${run.error}\n`;
  const notes = run.notes.map((n) => `Note: ${n}\n`).join('');
  // The page's words for what changed after a restart (lib/surface/diff.ts), with each change's severity.
  if (run.kind === 'checked') {
    const again = lockExitCode(run.diff) === 0 ? '' : 'If the change is intended, delete the lock file and run --lock again to write the new surface.\n';
    return `Lock ${run.file}:\n${formatSurfaceDiff(run.surface, 'The tool surface').replace('is unchanged:', 'is as locked:')}${again}${notes}`;
  }
  const { tools, resourceTemplates, prompts } = run.lock;
  return `${run.replaced ? 'Updated' : 'Wrote'} ${run.file}: ${tools.length} tools, ${resourceTemplates.length} resource templates, ${prompts.length} prompts. Commit it; the next --lock checks against it.\n${notes}`;
}

export function lockRunExitCode(run: LockRun): 0 | 1 | 2 {
  if (run.kind === 'failed') return run.exitCode;
  return run.kind === 'checked' ? lockExitCode(run.diff) : 0;
}
