/**
 * `mcp-loupe --eval FILE [--model WORD]… [--repeats N] [--junit FILE] <target>` (issue 27): the eval
 * file's cases, each run by each model (lib/evals/runner.ts, the Playground's loop) against the one
 * server of the session, two runs at a time; a table of case × model and every failed run's reasons
 * on stdout; exit 0 when every run passed, 1 when one did not, 2 for a usage problem (a bad file, no
 * model, a key that is not in the environment).
 *
 * The model calls are the Playground's own (proxy/playground/provider.ts) with the keys its key store
 * gives (proxy/playground/keys.ts): from the environment only, never from the command line, and a
 * provider's own variable only to that provider's API. Each exchange is a `provider` event in the
 * session's trace (so `--record` keeps it, the key masked); each tool call is the session's own
 * `tools/call`, so interception rules (`--rules`) apply to it as to any other.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fetchAllPages } from '../../../lib/client/paged-list.ts';
import type { EvalModel } from '../../../lib/evals/models.ts';
import { parseModelWord } from '../../../lib/evals/models.ts';
import { aggregate, evalJunit, formatEvalText } from '../../../lib/evals/report.ts';
import { planJobs, runEvals, type EvalDriver, type ToolOutcome } from '../../../lib/evals/runner.ts';
import { parseEvalFile, type EvalFile } from '../../../lib/evals/schema.ts';
import { buildToolset, type PlaygroundTool } from '../../../lib/playground/types.ts';
import type { HeadlessOptions } from '../../command-line/types.ts';
import { envNameFor, KeyStore } from '../../playground/keys.ts';
import { callModel } from '../../playground/provider.ts';
import type { Session } from '../../session/session.ts';
import { EXIT, type HeadlessIo } from './io.ts';

/** What --eval runs, read and checked before the server starts. */
export interface EvalPlan {
  file: EvalFile;
  models: EvalModel[];
  /** The key of each model (by label); undefined: an endpoint that takes none. */
  keys: Map<string, string | undefined>;
  repeats: number;
}

/** Each tool call's limit without --timeout. */
const TOOL_TIMEOUT_MS = 60_000;

/** The file, the models and their keys; the exit code (with its sentence said) when something is missing. */
export function readEvalPlan(h: HeadlessOptions, env: Readonly<Record<string, string | undefined>>, say: (line: string) => void): EvalPlan | number {
  const usage = (line: string) => {
    say(line);
    return EXIT.usage;
  };
  let text: string;
  try {
    text = readFileSync(h.eval!, 'utf8');
  } catch (error) {
    return usage(`cannot read the eval file ${h.eval}: ${(error as Error).message}`);
  }
  const read = parseEvalFile(text);
  if (!read.ok) return usage(`${h.eval}: ${read.error}`);
  if (read.file.cases.length === 0) return usage(`${h.eval} has no cases: add one under "cases".`);
  const words = h.models ?? read.file.models ?? [];
  if (words.length === 0) return usage(`no model to ask: give --model PROVIDER:MODEL, or list "models" in ${h.eval}.`);
  const models: EvalModel[] = [];
  const keys = new Map<string, string | undefined>();
  const store = new KeyStore(env);
  for (const word of words) {
    const parsed = parseModelWord(word);
    // Named as the user gave it: a --model word, or one of the file's models.
    if (!parsed.ok) return usage(`${h.models?.includes(word) ? '--model' : h.eval}: ${parsed.error}`);
    if (keys.has(parsed.model.label)) continue;
    const key = store.resolve(parsed.model.config);
    if (!key.ok) return usage(`${parsed.model.label}: ${key.error.message}`);
    const wanted = parsed.model.config.apiKeyRef === undefined ? envNameFor(parsed.model.config.kind, parsed.model.config.baseUrl) : undefined;
    if (key.key === undefined && wanted !== undefined) return usage(`${parsed.model.label}: ${wanted} is not set. Put the key in the environment (Loupe takes no key on the command line).`);
    models.push(parsed.model);
    keys.set(parsed.model.label, key.key);
  }
  return { file: read.file, models, keys, repeats: h.repeats ?? read.file.repeats ?? 1 };
}

/** The server's tools as the model sees them (one server: their own names). */
async function toolsOf(session: Session, say: (line: string) => void): Promise<PlaygroundTool[] | undefined> {
  const paged = await fetchAllPages(async (cursor) => session.request('eval-tools-list', 'tools/list', cursor === undefined ? undefined : { cursor }), 'tools');
  if (paged.error) {
    say(`listing the server's tools failed: ${paged.error}`);
    return undefined;
  }
  const info = session.snapshot();
  const { tools, notes } = buildToolset([{ name: info.serverInfo?.name ?? info.name, tools: paged.items }]);
  for (const note of notes) say(note);
  return tools;
}

function driverFor(session: Session, plan: EvalPlan, h: HeadlessOptions): EvalDriver {
  let calls = 0;
  return {
    now: () => performance.now(),
    async callModel(model, request) {
      const done = await callModel({ config: model.config, key: plan.keys.get(model.label), request, stream: false });
      session.trace.record(done.event);
      return done.outcome.ok ? { ok: true, reply: done.outcome.value } : { ok: false, error: done.outcome.error.message };
    },
    async callTool(target, args): Promise<ToolOutcome> {
      const outcome = await session.request(`eval-${++calls}`, 'tools/call', { name: target.tool, arguments: args }, { timeoutMs: h.timeoutMs ?? TOOL_TIMEOUT_MS });
      if (!outcome.ok) return { ok: false, error: `${outcome.error.message} (${String(outcome.error.code)})` };
      const result = (outcome.result ?? {}) as Record<string, unknown>;
      const content = Array.isArray(result.content) ? (result.content as unknown[]).filter((b): b is { type: string } => b !== null && typeof b === 'object' && typeof (b as { type?: unknown }).type === 'string') : [];
      return { ok: true, result: { content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}), isError: result.isError === true } };
    },
  };
}

/** Runs the plan against the session; the exit code. */
export async function runEvalMode(session: Session, plan: EvalPlan, h: HeadlessOptions, io: HeadlessIo, say: (line: string) => void): Promise<number> {
  const tools = await toolsOf(session, say);
  if (!tools) return EXIT.failed;
  const jobs = planJobs(plan.file.cases, plan.models, plan.repeats);
  say(`running ${jobs.length} eval run${jobs.length === 1 ? '' : 's'} (${plan.file.cases.length} cases × ${plan.models.length} models × ${plan.repeats}), two at a time…`);
  const records = await runEvals(jobs, tools, driverFor(session, plan, h), {
    onRecord: (r) => say(`${r.verdict.pass ? 'passed' : r.verdict.error !== undefined ? 'error ' : 'failed'} ${r.case} × ${r.model}, run ${r.repeat}`),
  });
  const report = aggregate(records, { cases: plan.file.cases, models: plan.models, prices: plan.file.prices, planned: jobs.length });
  io.stdout(formatEvalText(report));
  if (h.junit) writeFileSync(h.junit, evalJunit(report, new Date().toISOString()));
  return report.passed ? EXIT.ok : EXIT.failed;
}
