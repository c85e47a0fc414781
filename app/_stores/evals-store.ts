/**
 * The Playground's Evals (issue 27): the cases being edited (lib/evals/draft.ts), the models ticked
 * to run, and the runs with their verdicts. A run is lib/evals/runner.ts driven from the page, as
 * the Playground drives its conversations (playground-run.ts): a model call is a `playground-call`
 * the proxy makes with its keys (not streamed: nobody watches an eval type), a tool call the page's
 * ordinary `tools/call` on the tool's session, so interception rules and gates apply to it too.
 *
 * The workspace keeps the cases (`set-evals`, `x-mcp-loupe.evals`): the page takes them from the
 * workspace state until the person edits here, and never overwrites an edit of theirs with another
 * tab's save. Keys stay in the proxy: a model's settings name a key only by reference, found by the
 * Playground's own rules (playground-store.ts `configOf`).
 */
import { draftOf, EMPTY_DRAFT, emptyCase, fileOf, type CaseDraft, type EvalDraft, type ToolDraft } from '../../lib/evals/draft.ts';
import { parseModelWord, type EvalModel } from '../../lib/evals/models.ts';
import { aggregate, type EvalReport } from '../../lib/evals/report.ts';
import { planJobs, runEvals, type EvalDriver, type ModelOutcome, type RunRecord, type ToolOutcome } from '../../lib/evals/runner.ts';
import { parseEvalFile, type EvalFile } from '../../lib/evals/schema.ts';
import type { PlaygroundKeys } from '../../lib/wire/playground.ts';
import type { ServerMessage } from '../../lib/wire/wire.ts';
import { newRequestId } from '../_wire/request-outcome.ts';
import { HostStore } from './host-store.ts';
import type { RunHost } from './playground-run.ts';
import { configOf, type SendContext } from './playground-store.ts';

export interface EvalsState {
  /** Which part of the Playground tab is shown: the chat or the evals. */
  view: 'chat' | 'evals';
  draft: EvalDraft;
  /** The person changed the cases here since they came from the workspace or a file. */
  edited: boolean;
  /** Model words offered but unticked (every other one offered runs: the Playground's models and the file's). */
  excluded: string[];
  running: boolean;
  planned: number;
  records: RunRecord[];
  report?: EvalReport;
  /** Why the last Run, Open, Export or Save did not go, in words. */
  problem?: string;
  /** What the last Open or Save did, in words. */
  note?: string;
}

const NOT_SENT = 'Not connected to Loupe, so the model was not asked.';
const DROPPED = 'The connection to Loupe dropped before the model answered.';

export class EvalsStore extends HostStore<EvalsState> {
  private stopping = false;
  private readonly pending = new Map<string, (outcome: ModelOutcome) => void>();

  constructor(private readonly host: RunHost) {
    super(host, { view: 'chat', draft: EMPTY_DRAFT, edited: false, excluded: [], running: false, planned: 0, records: [] });
  }

  show(view: EvalsState['view']): void {
    this.set({ ...this.state, view });
  }

  private edit(draft: EvalDraft): void {
    this.set({ ...this.state, draft, edited: true, problem: undefined, note: undefined });
  }

  addCase(): void {
    const { draft } = this.state;
    this.edit({ ...draft, cases: [...draft.cases, emptyCase(draft.cases.length + 1)] });
  }

  removeCase(i: number): void {
    this.edit({ ...this.state.draft, cases: this.state.draft.cases.filter((_, k) => k !== i) });
  }

  setCase(i: number, patch: Partial<CaseDraft>): void {
    this.edit({ ...this.state.draft, cases: this.state.draft.cases.map((c, k) => (k === i ? { ...c, ...patch } : c)) });
  }

  addTool(i: number): void {
    this.setCase(i, { tools: [...this.state.draft.cases[i].tools, { name: '', arguments: '' }] });
  }

  setTool(i: number, j: number, patch: Partial<ToolDraft>): void {
    this.setCase(i, { tools: this.state.draft.cases[i].tools.map((t, k) => (k === j ? { ...t, ...patch } : t)) });
  }

  removeTool(i: number, j: number): void {
    this.setCase(i, { tools: this.state.draft.cases[i].tools.filter((_, k) => k !== j) });
  }

  setRepeats(repeats: number): void {
    if (Number.isInteger(repeats) && repeats >= 1 && repeats <= 100) this.edit({ ...this.state.draft, repeats });
  }

  /** A model word for the file's list (ticked to run); why not, in words. */
  addModel(word: string): string | undefined {
    const read = parseModelWord(word.trim());
    if (!read.ok) return read.error;
    const { draft } = this.state;
    if (!draft.models.includes(word.trim())) this.edit({ ...draft, models: [...draft.models, word.trim()] });
    this.choose(word.trim(), true);
    return undefined;
  }

  removeModel(word: string): void {
    this.edit({ ...this.state.draft, models: this.state.draft.models.filter((m) => m !== word) });
  }

  choose(word: string, on: boolean): void {
    const excluded = this.state.excluded.filter((m) => m !== word);
    this.set({ ...this.state, excluded: on ? excluded : [...excluded, word] });
  }

  /** The offered words that run. */
  chosen(offered: readonly string[]): string[] {
    return offered.filter((word) => !this.state.excluded.includes(word));
  }

  /** An eval file the person opened; its models are ticked. */
  open(name: string, text: string): boolean {
    const read = parseEvalFile(text);
    if (!read.ok) {
      this.set({ ...this.state, problem: `${name}: ${read.error}`, note: undefined });
      return false;
    }
    this.set({ ...this.state, draft: draftOf(read.file), edited: true, excluded: [], problem: undefined, note: `Opened ${name}: ${read.file.cases.length} case${read.file.cases.length === 1 ? '' : 's'}.` });
    return true;
  }

  /** The cases as an eval file's text, or undefined (the problem said) when they are not one yet. */
  exportText(): string | undefined {
    const built = fileOf(this.state.draft);
    if (!built.ok) {
      this.set({ ...this.state, problem: built.error, note: undefined });
      return undefined;
    }
    return `${JSON.stringify(built.file, null, 2)}\n`;
  }

  /** The cases into the workspace (`x-mcp-loupe.evals`): Save workspace writes them to the file. */
  saveToWorkspace(): boolean {
    const built = fileOf(this.state.draft);
    if (!built.ok) {
      this.set({ ...this.state, problem: built.error, note: undefined });
      return false;
    }
    if (!this.host.send({ type: 'set-evals', evals: built.file })) {
      this.set({ ...this.state, problem: 'Not connected to Loupe, so the evals were not kept: try again once connected.' });
      return false;
    }
    this.set({ ...this.state, edited: false, problem: undefined, note: 'Kept in the workspace: Save workspace writes them to its file (x-mcp-loupe.evals).' });
    return true;
  }

  /** Why Run evals cannot go now, in words; undefined when it can. */
  runProblem(ctx: SendContext | undefined, offered: readonly string[]): string | undefined {
    if (this.state.running) return 'Evals are running.';
    if (!ctx) return 'Connect a server first: the model calls its tools.';
    if (this.state.draft.cases.length === 0) return 'Add a case first.';
    if (this.chosen(offered).length === 0) return 'Tick a model to run the cases with: set one up above, or add one under Models.';
    return undefined;
  }

  /**
   * Runs every case with every ticked model of those offered, `repeats` times; false when it cannot
   * go (the problem says why).
   */
  run(ctx: SendContext | undefined, keys: PlaygroundKeys, offered: readonly string[]): boolean {
    const fail = (problem: string) => {
      this.set({ ...this.state, problem, note: undefined });
      return false;
    };
    const cannot = this.runProblem(ctx, offered);
    if (cannot !== undefined || ctx === undefined) return fail(cannot ?? '');
    const built = fileOf(this.state.draft);
    if (!built.ok) return fail(built.error);
    const models = this.modelsOf(this.chosen(offered), keys);
    if (typeof models === 'string') return fail(models);
    const jobs = planJobs(built.file.cases, models, built.file.repeats ?? 1);
    // The table fills in as runs end; the last one says whether every planned run ran and passed.
    const report = (records: RunRecord[]) => aggregate(records, { cases: built.file.cases, models, prices: built.file.prices, planned: jobs.length });
    this.stopping = false;
    this.set({ ...this.state, running: true, planned: jobs.length, records: [], report: undefined, problem: undefined, note: undefined });
    void runEvals(jobs, ctx.tools, this.driver(ctx), {
      onRecord: (record) => {
        const records = [...this.state.records, record];
        this.set({ ...this.state, records, report: report(records) });
      },
      stopped: () => this.stopping,
    }).then(() => this.set({ ...this.state, running: false, report: report(this.state.records) }));
    return true;
  }

  stop(): void {
    this.stopping = true;
    for (const requestId of this.pending.keys()) this.host.send({ type: 'playground-cancel', requestId });
  }

  /** The ticked words as models whose key the proxy can find (by reference); or why one cannot be read. */
  private modelsOf(words: readonly string[], keys: PlaygroundKeys): EvalModel[] | string {
    const models: EvalModel[] = [];
    for (const word of words) {
      const read = parseModelWord(word);
      if (!read.ok) return read.error;
      const { config } = read.model;
      models.push({ label: read.model.label, config: config.apiKeyRef !== undefined ? config : configOf({ kind: config.kind, baseUrl: config.baseUrl, model: config.model }, keys) });
    }
    return models;
  }

  private driver(ctx: SendContext): EvalDriver {
    return {
      now: () => Date.now(),
      callModel: (model, request) =>
        new Promise<ModelOutcome>((resolve) => {
          const requestId = newRequestId();
          this.pending.set(requestId, resolve);
          if (this.host.send({ type: 'playground-call', requestId, session: ctx.record, config: model.config, request, stream: false })) return;
          this.pending.delete(requestId);
          resolve({ ok: false, error: NOT_SENT });
        }),
      callTool: async (target, args): Promise<ToolOutcome> => {
        const session = ctx.sessions[target.server];
        if (session === undefined) return { ok: false, error: `the server ${JSON.stringify(target.server)} is not connected to Loupe any more.` };
        const outcome = await this.host.request(session, 'tools/call', { name: target.tool, arguments: args });
        if (!outcome.ok) return { ok: false, error: `${outcome.error.message} (${String(outcome.error.code)})` };
        const result = (outcome.result ?? {}) as Record<string, unknown>;
        const content = Array.isArray(result.content) ? (result.content as { type: string }[]).filter((b) => b !== null && typeof b === 'object' && typeof b.type === 'string') : [];
        return { ok: true, result: { content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}), isError: result.isError === true } };
      },
    };
  }

  /** The workspace's evals, taken while the person has not edited here. */
  private adopt(evals: EvalFile | undefined): void {
    if (this.state.edited) return;
    this.set({ ...this.state, draft: evals ? draftOf(evals) : EMPTY_DRAFT });
  }

  protected receive(message: ServerMessage): void {
    if (message.type === 'snapshot') {
      // A new socket: the old one's model calls will never be answered.
      for (const resolve of this.pending.values()) resolve({ ok: false, error: DROPPED });
      this.pending.clear();
      this.adopt(message.workspace?.evals);
    } else if (message.type === 'workspace') this.adopt(message.workspace.evals);
    else if (message.type === 'playground-reply') {
      const resolve = this.pending.get(message.requestId);
      if (!resolve) return;
      this.pending.delete(message.requestId);
      resolve(message.reply ? { ok: true, reply: message.reply } : { ok: false, error: message.error?.message ?? 'The model gave no answer.' });
    }
  }
}
