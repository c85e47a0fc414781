/**
 * The suite's `test`: Playwright's, plus
 * - `launch(target?)`: start Loupe; every instance is stopped after the test, and must exit 0
 *   having stopped its children (docs/contract.md, "Command line");
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
  loupe: LoupePage;
  servers: Servers;
}

export const test = base.extend<Fixtures>({
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
