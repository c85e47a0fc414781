/**
 * The suite's `test`: Playwright's, plus
 * - `launch(target?)`: start Loupe; every instance is stopped after the test, and must exit 0
 *   having stopped its children (docs/contract.md, "Command line");
 * - `shared(target?)`: the spec file's Loupe for that target in this worker (see SharedPool);
 * - `loupe`: a `LoupePage` on the test's page, which fails the test if any dialog opens
 *   (server-supplied strings must never run as code);
 * - `servers`: HTTP servers to point Loupe at, stopped after the test.
 */
import { test as base, expect } from '@playwright/test';
import { LoupePage } from '../pages/loupe-page.ts';
import { launchLoupe, type LaunchOptions, type Loupe } from './loupe.ts';
import { startEverything, startHtmlEndpoint, type RunningServer } from './servers.ts';

export interface Servers {
  everything: (mode?: 'streamableHttp' | 'sse') => Promise<RunningServer>;
  htmlEndpoint: () => Promise<RunningServer>;
}

interface Fixtures {
  launch: (target?: string[], opts?: LaunchOptions) => Promise<Loupe>;
  shared: (target?: string[]) => Promise<Loupe>;
  loupe: LoupePage;
  servers: Servers;
}

interface WorkerFixtures {
  sharedPool: SharedPool;
}

/**
 * One Loupe per spec file and target in each worker (issue 22: a spec that does not test Loupe's
 * lifecycle need not pay for a start and a stop each test). Each test still gets a fresh page and
 * browser context; what the proxy keeps (the trace, the session) goes on from test to test, so only
 * specs whose tests do not depend on it use `shared`. A file's Loupes stop when the worker moves to
 * another file, and must stop as `launch`'s do: exit 0, nothing left behind.
 */
class SharedPool {
  private file?: string;
  private readonly running = new Map<string, Promise<Loupe>>();

  async get(file: string, target: string[]): Promise<Loupe> {
    if (file !== this.file) {
      await this.stopAll(`the Loupes of ${this.file}`);
      this.file = file;
    }
    const key = JSON.stringify(target);
    let loupe = this.running.get(key);
    if (!loupe) this.running.set(key, (loupe = launchLoupe(target)));
    return loupe;
  }

  async stopAll(what: string): Promise<void> {
    const started = await Promise.allSettled([...this.running.values()]);
    this.running.clear();
    const problems: string[] = [];
    for (const result of started) {
      if (result.status !== 'fulfilled') continue;
      const loupe = result.value;
      const stop = await loupe.stop();
      if (stop.forced) problems.push(`Loupe did not exit within 10 s of SIGTERM\n${loupe.output()}`);
      else if (stop.code !== 0) problems.push(`Loupe should exit 0 on SIGTERM (it exited ${stop.code})\n${loupe.output()}`);
      if (stop.leaked.length > 0) problems.push(`every process Loupe started should be gone once it has exited: ${stop.leaked.join(', ')}`);
    }
    if (problems.length > 0) throw new Error(`${what}: ${problems.join('\n')}`);
  }
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  sharedPool: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
    async ({}, use) => {
      const pool = new SharedPool();
      await use(pool);
      await pool.stopAll('the shared Loupes at the end of the worker');
    },
    { scope: 'worker' },
  ],

  shared: async ({ sharedPool }, use, testInfo) => {
    await use((target = []) => sharedPool.get(testInfo.file, target));
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
  launch: async ({}, use, testInfo) => {
    const started: Loupe[] = [];
    await use(async (target = [], opts = {}) => {
      const loupe = await launchLoupe(target, opts);
      started.push(loupe);
      return loupe;
    });
    // Stop them all before judging any, so that one failure does not leak processes.
    const stops = await Promise.all(started.map((loupe) => loupe.stop()));
    for (const [i, loupe] of started.entries()) {
      await testInfo.attach(`loupe-${i + 1}-output.txt`, { body: loupe.output(), contentType: 'text/plain' });
    }
    for (const [i, stop] of stops.entries()) {
      const output = started[i].output();
      expect(stop.forced, `Loupe did not exit within 10 s of SIGTERM\n${output}`).toBe(false);
      expect(stop.code, `Loupe should exit 0 on SIGTERM\n${output}`).toBe(0);
      expect(stop.leaked, 'every process Loupe started should be gone once it has exited').toEqual([]);
    }
  },

  loupe: async ({ page }, use) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
    await use(new LoupePage(page));
    expect(dialogs, 'no dialog may ever open: server-supplied text must render as text').toEqual([]);
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
  servers: async ({}, use, testInfo) => {
    const running: RunningServer[] = [];
    const track = async (start: Promise<RunningServer>) => {
      const server = await start;
      running.push(server);
      return server;
    };
    await use({
      everything: (mode = 'streamableHttp') => track(startEverything(mode)),
      htmlEndpoint: () => track(startHtmlEndpoint()),
    });
    for (const [i, server] of running.entries()) {
      await server.stop();
      await testInfo.attach(`server-${i + 1}-output.txt`, { body: server.proc.output(), contentType: 'text/plain' });
    }
  },
});

export { expect };
