/**
 * Saved calls of one session (issue 9, item 6): the calls themselves live in the proxy's workspace
 * (`set-saved-calls`, so that the file keeps them and every tab sees them); this store runs them and
 * keeps each one's latest and previous outcome, to show side by side and mark what changed.
 * One store per session model, kept as long as the model (a switch of server keeps the results).
 */
import { stringifySafe } from '../../lib/json/safe-json.ts';
import type { SavedCall } from '../../lib/workspace/workspace.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionModel } from '../_session/model.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { ExternalStore } from './external-store.ts';

export interface CallRun {
  at: number;
  ok: boolean;
  /** The result (or the error) as stable, pretty JSON: what is compared and shown. */
  text: string;
  durationMs: number;
}

export interface CallResults {
  latest?: CallRun;
  previous?: CallRun;
  running: boolean;
}

export interface SavedCallsState {
  /** By call name. */
  results: Readonly<Record<string, CallResults>>;
  runningAll: boolean;
}

/** True when the call ran twice and the two outcomes differ. */
export function changed(results: CallResults | undefined): boolean {
  return results?.latest !== undefined && results.previous !== undefined && results.latest.text !== results.previous.text;
}

/** JSON with object keys sorted: two results that differ only in key order are the same result. */
export function stableText(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
  };
  try {
    return JSON.stringify(sort(value), null, 2) ?? 'undefined';
  } catch {
    // Too deep to sort: compare the text as it came.
    return stringifySafe(value) ?? String(value);
  }
}

/** The MCP request a saved call makes. */
export function requestOf(call: SavedCall): { method: string; params: Record<string, unknown> } {
  switch (call.kind) {
    case 'tool':
      return { method: 'tools/call', params: { name: call.target, arguments: call.arguments ?? {} } };
    case 'resource':
      return { method: 'resources/read', params: { uri: call.target } };
    case 'prompt':
      return { method: 'prompts/get', params: { name: call.target, arguments: call.arguments ?? {} } };
  }
}

function runOf(outcome: RequestOutcome): CallRun {
  const text = outcome.ok ? stableText(outcome.result) : `Error ${outcome.error.code}: ${outcome.error.message}`;
  return { at: Date.now(), ok: outcome.ok, text, durationMs: outcome.durationMs };
}

export class SavedCallsStore extends ExternalStore<SavedCallsState> {
  constructor(private readonly port: SessionPort) {
    super({ results: {}, runningAll: false });
  }

  async run(call: SavedCall): Promise<void> {
    this.patch(call.name, (r) => ({ ...r, running: true }));
    const { method, params } = requestOf(call);
    const outcome = await this.port.request(method, params);
    this.patch(call.name, (r) => ({ latest: runOf(outcome), previous: r.latest, running: false }));
  }

  /** One after another, in the list's order: a server's answers stay comparable run to run. */
  async runAll(calls: readonly SavedCall[]): Promise<void> {
    this.set({ ...this.state, runningAll: true });
    for (const call of calls) await this.run(call);
    this.set({ ...this.state, runningAll: false });
  }

  /** A renamed call keeps its results; a deleted one drops them. */
  rename(from: string, to: string): void {
    if (from === to || !this.state.results[from]) return;
    const { [from]: moved, ...rest } = this.state.results;
    this.set({ ...this.state, results: { ...rest, [to]: moved } });
  }

  forget(name: string): void {
    if (!this.state.results[name]) return;
    const { [name]: _gone, ...rest } = this.state.results;
    this.set({ ...this.state, results: rest });
  }

  private patch(name: string, change: (r: CallResults) => CallResults): void {
    const now = this.state.results[name] ?? { running: false };
    this.set({ ...this.state, results: { ...this.state.results, [name]: change(now) } });
  }
}

const stores = new WeakMap<SessionModel, SavedCallsStore>();

/** The saved-calls store of a session model (made on first use, gone with the model). */
export function savedCallsOf(model: SessionModel): SavedCallsStore {
  let store = stores.get(model);
  if (!store) {
    store = new SavedCallsStore(model.port);
    stores.set(model, store);
  }
  return store;
}
