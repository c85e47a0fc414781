// Stopping Loupe stops everything it started; tabs coming and going start or leak nothing.
import { expect, test } from './support/test.ts';
import { commandOf, descendants, isAlive, pollUntil } from './support/processes.ts';

test.describe('shutdown', () => {
  test('SIGTERM stops the server process and exits 0', async ({ launch, loupe }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const children = descendants(app.pid);
    expect(children.length, 'the server runs').toBeGreaterThan(0);

    const stop = await app.stop('SIGTERM');
    expect(stop.forced, app.output()).toBe(false);
    expect(stop.code, app.output()).toBe(0);
    expect(stop.leaked).toEqual([]);
    expect(children.filter(isAlive)).toEqual([]);
  });

  test('SIGINT stops the bundled server and exits 0', async ({ launch, loupe }) => {
    const app = await launch();
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const children = descendants(app.pid);
    expect(children.length, 'the bundled server runs').toBeGreaterThan(0);

    const stop = await app.stop('SIGINT');
    expect(stop.code, app.output()).toBe(0);
    expect(stop.leaked).toEqual([]);
  });

  test('a server behind a launcher, both ignoring SIGTERM, is still stopped', async ({ launch, loupe }) => {
    const app = await launch(['node', 'e2e/fixtures/spawn-wrapper.mjs']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const tree = descendants(app.pid);
    expect(tree.length, `launcher and server: ${tree.map(commandOf).join(' | ')}`).toBeGreaterThanOrEqual(2);

    const started = Date.now();
    const stop = await app.stop('SIGTERM');
    expect(stop.forced, `Loupe hung on a stubborn child\n${app.output()}`).toBe(false);
    expect(stop.code, app.output()).toBe(0);
    expect(stop.leaked, 'the whole process group goes').toEqual([]);
    // A hang detector only (the escalation takes about 1.5 s): how fast is bench/'s.
    expect(Date.now() - started, 'SIGKILL escalation, not a hang').toBeLessThan(30_000);
  });

  test('opening, reloading and closing tabs starts no server and leaks none', async ({ launch, loupe, context }) => {
    const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
    await loupe.open(app.url);
    // Connected: the server's one process has started and answered initialize; the tree is settled.
    await loupe.waitForStatus('Connected');
    const before = descendants(app.pid).sort();

    await loupe.page.reload();
    await loupe.waitForStatus('Connected');
    for (let i = 0; i < 3; i++) {
      const tab = await context.newPage();
      await tab.goto(app.url);
      await expect(tab.getByRole('status').filter({ hasText: /\bConnected\b/ }).first()).toBeVisible();
      await tab.close();
    }
    await loupe.page.close();
    expect(await pollUntil(() => JSON.stringify(descendants(app.pid).sort()) === JSON.stringify(before), 3_000), 'same server processes as before').toBe(true);
  });
});
