// Loupe starts processes on this machine, so nobody but the user's own tab may drive it
// (docs/architecture.md, "Security is part of the design"; the official inspector's CVE-2025-49596).
// Every refused request also tries to start a process; the process tree must not change.
import { join } from 'node:path';
import { expect, test } from './support/test.ts';
import type { Loupe } from './support/loupe.ts';
import { descendants, pollUntil } from './support/processes.ts';
import { FIXTURES } from './support/servers.ts';
import { httpGet, tryWebSocket } from './support/wire-client.ts';

/** What an attacker would send once in: start a process of their choosing. */
const ATTACK = { type: 'connect', config: { kind: 'stdio', command: process.execPath, args: [join(FIXTURES, 'noisy-stdout.mjs')], env: {} } };

type Launch = (target?: string[]) => Promise<Loupe>;

/** What a legitimate tab is told first: the sessions and their status. */
async function snapshotOf(app: Loupe): Promise<{ sessions: Array<{ status: string }> }> {
  const attempt = await tryWebSocket(app.wsUrl, { Origin: app.origin });
  expect(attempt.opened, JSON.stringify(attempt)).toBe(true);
  return attempt.first as { sessions: Array<{ status: string }> };
}

/** Loupe with its primary server connected (its process tree settled), so that any later change to that tree is ours. */
async function settledLoupe(launch: Launch): Promise<{ app: Loupe; before: number[] }> {
  const app = await launch(['node', 'e2e/fixtures/noisy-stdout.mjs']);
  expect(await pollUntil(async () => (await snapshotOf(app)).sessions[0]?.status === 'connected', 10_000), 'the primary server connects').toBe(true);
  return { app, before: descendants(app.pid).sort() };
}

/**
 * A legitimate tab's snapshot comes after Loupe has handled every request made before it (one
 * event loop, and a spawn is synchronous): a process a refused request had started would be there.
 */
async function expectNoNewProcess(app: Loupe, before: number[]): Promise<void> {
  await snapshotOf(app);
  expect(descendants(app.pid).sort(), 'no process may be started by a refused request').toEqual(before);
}

test.describe('who may talk to Loupe', () => {
  test('control: its own page origin with the token gets a snapshot, and can start a server', async ({ launch }) => {
    const { app, before } = await settledLoupe(launch);
    const attempt = await tryWebSocket(app.wsUrl, { Origin: app.origin }, ATTACK);
    expect(attempt.opened, JSON.stringify(attempt)).toBe(true);
    expect(attempt.first).toMatchObject({ type: 'snapshot' });
    // The check the other tests rely on can see a new process.
    expect(await pollUntil(() => descendants(app.pid).length > before.length, 10_000), 'a connect from a legitimate socket starts a server').toBe(true);
  });

  test('a WebSocket without a token is refused', async ({ launch }) => {
    const { app, before } = await settledLoupe(launch);
    const attempt = await tryWebSocket(`ws://127.0.0.1:${app.port}/ws`, { Origin: app.origin }, ATTACK);
    expect(attempt.opened, JSON.stringify(attempt)).toBe(false);
    expect([401, 403]).toContain(attempt.status);
    await expectNoNewProcess(app, before);
  });

  test('a WebSocket with a wrong token is refused', async ({ launch }) => {
    const { app, before } = await settledLoupe(launch);
    const sameLength = app.token.slice(0, -1) + (app.token.endsWith('A') ? 'B' : 'A');
    for (const token of ['wrong', sameLength, '', `${app.token}x`]) {
      const attempt = await tryWebSocket(`ws://127.0.0.1:${app.port}/ws?token=${encodeURIComponent(token)}`, { Origin: app.origin }, ATTACK);
      expect(attempt.opened, `token ${JSON.stringify(token)}: ${JSON.stringify(attempt)}`).toBe(false);
      expect([401, 403], `token ${JSON.stringify(token)}`).toContain(attempt.status);
    }
    await expectNoNewProcess(app, before);
  });

  test('a WebSocket from a foreign Origin is refused, even with the token', async ({ launch }) => {
    const { app, before } = await settledLoupe(launch);
    for (const origin of ['http://evil.example', 'null', `http://evil.example:${app.port}`, `https://127.0.0.1:${app.port}`]) {
      const attempt = await tryWebSocket(app.wsUrl, { Origin: origin }, ATTACK);
      expect(attempt.opened, `Origin ${origin}: ${JSON.stringify(attempt)}`).toBe(false);
      expect(attempt.status, `Origin ${origin}`).toBe(403);
    }
    await expectNoNewProcess(app, before);
  });

  test('a foreign Host is refused, over HTTP and on the WebSocket (DNS rebinding)', async ({ launch }) => {
    const { app, before } = await settledLoupe(launch);
    // Control: the page itself is served to a loopback Host.
    expect((await httpGet(app.port, '/', { Host: `127.0.0.1:${app.port}` })).status).toBe(200);

    for (const host of ['evil.example', `evil.example:${app.port}`]) {
      for (const path of ['/', `/?token=${app.token}`]) {
        const res = await httpGet(app.port, path, { Host: host });
        expect(res.status, `GET ${path} with Host ${host}`).toBe(403);
      }
      const attempt = await tryWebSocket(app.wsUrl, { Host: host, Origin: `http://${host}` }, ATTACK);
      expect(attempt.opened, `WebSocket with Host ${host}: ${JSON.stringify(attempt)}`).toBe(false);
      expect(attempt.status, `WebSocket with Host ${host}`).toBe(403);
    }
    await expectNoNewProcess(app, before);
  });
});
