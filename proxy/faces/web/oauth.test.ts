/**
 * The hub's OAuth messages (hub-oauth.ts) with stand-in sockets and the OAuth fixture as a real
 * process: a guided flow is started, continued through Loupe's own callback registry and stopped
 * from a tab, every tab hears each change, its steps are `auth` rows of the session's trace, and
 * what cannot be done is an error to the tab that asked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { GuidedFlow } from '../../../lib/wire/oauth.ts';
import { Hub } from './hub.ts';
import { asWs, FakeSocket } from '../../testing/socket.ts';
import { dispatchOAuth, guidedFlows, type OAuthMessage } from './oauth.ts';


const flowsIn = (tab: FakeSocket): GuidedFlow[] => tab.sent.flatMap((m) => (m.type === 'oauth-guided-state' ? [m.flow] : []));
const errorsIn = (tab: FakeSocket): string[] => tab.sent.flatMap((m) => (m.type === 'error' ? [m.error.message] : []));

const children: ChildProcess[] = [];

function startFixture(): Promise<string> {
  const child = spawn(process.execPath, ['e2e/fixtures/oauth-server.mjs', '--variant', 'good'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening: (\S+)/.exec((out += chunk));
      if (match) resolve(match[1]);
    });
  });
}

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGTERM'))))));
});

/** What a browser does with the authorization URL: the fixture approves at once (auto=1) and redirects to Loupe's callback route. */
async function approve(authorizationUrl: string, hub: Hub): Promise<number> {
  const url = new URL(authorizationUrl);
  url.searchParams.set('auto', '1');
  const response = await fetch(url, { redirect: 'manual' });
  return hub.engine.callbacks.receive(new URL(response.headers.get('location')!).searchParams).status;
}

describe('dispatchOAuth: oauth-guided', () => {
  it('runs the flow step by step from a tab, tells every tab, and traces each step', async () => {
    const mcpUrl = await startFixture();
    const hub = new Hub();
    const [tab, other] = [new FakeSocket(), new FakeSocket()];
    hub.attach(asWs(tab));
    hub.attach(asWs(other));
    const session = hub.createSession({ kind: 'http', url: mcpUrl, transport: 'auto', headers: {} });
    const send = (action: 'start' | 'continue' | 'stop') => dispatchOAuth(hub, asWs(tab), { type: 'oauth-guided', session: session.id, action });
    await send('start');
    // Start runs the first step: the request without a token.
    expect(flowsIn(other).at(-1)!.steps[0].status).toBe('passed');
    for (let i = 1; i < 6; i++) await send('continue');
    const waiting = send('continue');
    const authorizationUrl = flowsIn(tab).at(-1)!.steps[5].authorizationUrl!;
    expect(await approve(authorizationUrl, hub)).toBe(200);
    await waiting;
    await send('continue');
    await send('continue');
    const last = flowsIn(other).at(-1)!;
    expect(last).toMatchObject({ session: session.id, done: true, next: 9 });
    expect(last.steps.every((s) => s.status === 'passed')).toBe(true);
    expect(flowsIn(tab)).toEqual(flowsIn(other));
    expect(guidedFlows(hub)).toEqual([last]);
    const auth = session.trace.all().flatMap((e) => (e.kind === 'auth' ? [[e.step, e.status]] : []));
    expect(auth).toEqual(last.steps.map((s) => [s.id, 'passed']));
    expect(errorsIn(tab)).toEqual([]);
    await hub.shutdown();
  });

  it('stops a flow that waits for the callback, and drops the flow of a removed server', async () => {
    const mcpUrl = await startFixture();
    const hub = new Hub();
    const tab = new FakeSocket();
    hub.attach(asWs(tab));
    const session = hub.createSession({ kind: 'http', url: mcpUrl, transport: 'auto', headers: {} });
    const send = (action: 'start' | 'continue' | 'stop') => dispatchOAuth(hub, asWs(tab), { type: 'oauth-guided', session: session.id, action });
    await send('start');
    for (let i = 1; i < 6; i++) await send('continue');
    const waiting = send('continue');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.engine.callbacks.pending).toBe(1);
    await send('stop');
    await waiting;
    expect(hub.engine.callbacks.pending).toBe(0);
    expect(flowsIn(tab).at(-1)!.steps[6]).toMatchObject({ status: 'failed', verdict: 'Stopped before it finished.' });
    await hub.removeSession(session.id);
    expect(guidedFlows(hub)).toEqual([]);
    await hub.shutdown();
  });

  it('answers what cannot be done with an error to the asking tab', async () => {
    const hub = new Hub();
    const tab = new FakeSocket();
    hub.attach(asWs(tab));
    const stdio = hub.createSession({ kind: 'stdio', command: 'x', args: [], env: {} });
    const remote = hub.createSession({ kind: 'http', url: 'http://127.0.0.1:9/mcp', transport: 'auto', headers: {} });
    const messages: OAuthMessage[] = [
      { type: 'oauth-guided', session: stdio.id, action: 'start' },
      { type: 'oauth-guided', session: remote.id, action: 'continue' },
      { type: 'oauth-guided', session: 'nope', action: 'start' },
    ];
    for (const message of messages) await dispatchOAuth(hub, asWs(tab), message);
    expect(errorsIn(tab)).toEqual([expect.stringContaining('for remote servers'), expect.stringContaining('press Start guided flow first'), 'No session nope.']);
    await hub.shutdown();
  });
});
