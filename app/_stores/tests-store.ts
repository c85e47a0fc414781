/**
 * The Tests tab's runs (issue 27): each collection's latest run, its verdicts as they come. The
 * collections themselves are the proxy's (`set-collections`, broadcast as `workspace`); runs are this
 * tab's own, like saved calls' results. One store per tab, since a collection is the workspace's,
 * not one server's: it runs on its server's session (`Collection.server`, else the server the tab
 * shows), which the tab follows while it runs so that the trace holds its frames.
 */
import { runCollection } from '../../lib/collections/run.ts';
import type { Collection } from '../../lib/collections/schema.ts';
import type { CallVerdict, CollectionVerdict } from '../../lib/collections/types.ts';
import type { SessionModel } from '../_session/model.ts';
import { ExternalStore } from './external-store.ts';
import { sessionCallPort } from './session-call-port.ts';

export interface CollectionRun {
  /** The session it ran on, and that server's name. */
  session: string;
  server: string;
  startedAt: number;
  running: boolean;
  /** `Run call NAME`: the calls asked for (absent: all). */
  only?: string[];
  /** Each call's verdict as it came. */
  calls: CallVerdict[];
  /** The whole, once the run ended. */
  verdict?: CollectionVerdict;
  /** Why it could not run at all. */
  error?: string;
}

export interface TestsState {
  /** By collection name. */
  runs: Readonly<Record<string, CollectionRun>>;
  runningAll: boolean;
}

/** Where a collection runs: a session's model and its name, or why it cannot run. */
export type RunTarget = { ok: true; model: SessionModel; server: string } | { ok: false; error: string };

/** What the store needs of the tab: following a session's trace while a run needs it. */
export interface TestsHost {
  follow(session: string): () => void;
}

export class TestsStore extends ExternalStore<TestsState> {
  private abort?: AbortController;

  constructor(private readonly host: TestsHost) {
    super({ runs: {}, runningAll: false });
  }

  /** Run one collection (or the calls `only` names) on `target`. */
  async run(collection: Collection, target: RunTarget, only?: string[]): Promise<CollectionRun> {
    const startedAt = Date.now();
    if (!target.ok) return this.put(collection.name, { session: '', server: '', startedAt, running: false, calls: [], error: target.error });
    const { model, server } = target;
    this.put(collection.name, { session: model.id, server, startedAt, running: true, calls: [], ...(only ? { only } : {}) });
    const abort = (this.abort ??= new AbortController());
    const release = this.host.follow(model.id);
    try {
      const verdict = await runCollection(collection, sessionCallPort(model), {
        only,
        signal: abort.signal,
        onCall: (call) => this.change(collection.name, (run) => ({ ...run, calls: [...run.calls, call] })),
      });
      return this.change(collection.name, (run) => ({ ...run, running: false, calls: verdict.calls, verdict }));
    } catch (error) {
      // The runner returns failures as verdicts; this is a fault of the page's, said as one.
      return this.change(collection.name, (run) => ({ ...run, running: false, error: `The run stopped: ${error instanceof Error ? error.message : String(error)}` }));
    } finally {
      release();
      if (!this.running()) this.abort = undefined;
    }
  }

  /** Every collection, one after another (a server's answers stay comparable run to run). */
  async runAll(collections: readonly Collection[], targetOf: (collection: Collection) => RunTarget): Promise<void> {
    this.set({ ...this.state, runningAll: true });
    try {
      for (const collection of collections) {
        if (this.abort?.signal.aborted) break;
        await this.run(collection, targetOf(collection));
      }
    } finally {
      this.set({ ...this.state, runningAll: false });
    }
  }

  /** Stop what runs: the call in flight ends as the runner says, the rest are skipped. */
  stop(): void {
    this.abort?.abort();
  }

  /** A renamed collection keeps its run; a deleted one drops it. */
  rename(from: string, to: string): void {
    const run = this.state.runs[from];
    if (from === to || !run) return;
    const { [from]: _moved, ...rest } = this.state.runs;
    this.set({ ...this.state, runs: { ...rest, [to]: run } });
  }

  forget(name: string): void {
    if (!this.state.runs[name]) return;
    const { [name]: _gone, ...rest } = this.state.runs;
    this.set({ ...this.state, runs: rest });
  }

  private running(): boolean {
    return this.state.runningAll || Object.values(this.state.runs).some((r) => r.running);
  }

  private put(name: string, run: CollectionRun): CollectionRun {
    this.set({ ...this.state, runs: { ...this.state.runs, [name]: run } });
    return run;
  }

  private change(name: string, change: (run: CollectionRun) => CollectionRun): CollectionRun {
    const now = this.state.runs[name];
    return now ? this.put(name, change(now)) : change({ session: '', server: '', startedAt: Date.now(), running: false, calls: [] });
  }
}

const stores = new WeakMap<object, TestsStore>();

/** The tab's tests store, keyed by its tab store (made on first use). */
export function testsOf(app: TestsHost): TestsStore {
  let store = stores.get(app);
  if (!store) {
    store = new TestsStore(app);
    stores.set(app, store);
  }
  return store;
}
