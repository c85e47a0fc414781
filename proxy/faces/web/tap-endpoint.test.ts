/**
 * Loupe's side of a tap (tap-endpoint.ts), spoken to by hand over `/tap?token=…`: a hello opens a
 * relay session, events keep the tap's times and links, rules come on connect, a bad message is a
 * warning in the session (never a crash), the page's Disconnect detaches the tap, and the server's
 * exit ends the session in words.
 */
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoupeToTap } from '../../../lib/wire/tap.ts';
import type { FrameEvent, InterventionEvent, TraceEvent } from '../../../lib/wire/wire.ts';
import { LoupeHarness } from '../../testing/harness.ts';

const harness = new LoupeHarness();
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await harness.closeAll();
});

async function tapSocket(port: number, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/tap?token=${token}`);
  sockets.push(ws);
  const received: LoupeToTap[] = [];
  ws.on('message', (data) => received.push(JSON.parse(String(data)) as LoupeToTap));
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, received, closed, send: (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)) };
}

const hello = { type: 'hello', protocol: 1, command: 'node', args: ['server.js'], pid: 4242, version: 'test' };
const base = { session: 's-tap', ts: 0 };
const initialize = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"Claude","version":"0.9"}}}';

async function until<T>(check: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('acceptTap', () => {
  it('opens a relay session named by the host, keeps the tap’s times and links, and sends the rules', async () => {
    const rules = [{ id: 'r1', match: { method: 'tools/call' }, action: { type: 'delay' as const, ms: 5 } }];
    const { loupe, client: page } = await harness.start({ rules: { rules, source: 'rules.json' } });
    const tap = await tapSocket(loupe.port, loupe.token);
    tap.send(hello);
    const welcome = await until(() => tap.received.find((m) => m.type === 'welcome'));
    expect(welcome).toMatchObject({ protocol: 1 });
    expect(await until(() => tap.received.find((m) => m.type === 'rules'))).toMatchObject({ rules });
    const events: TraceEvent[] = [
      { ...base, seq: 1, ts: 1_700_000_000_123.5, kind: 'frame', dir: 'out', raw: initialize, size: initialize.length, rpc: 'request', method: 'initialize', id: 0 },
      { ...base, seq: 2, ts: 1_700_000_000_200, kind: 'intervention', dir: 'out', by: 'rule', action: 'delayed', message: 'Delayed 5 ms by rule “r1”', original: initialize, of: 1 },
    ];
    tap.send({ type: 'events', events });
    const session = await until(() => [...page.sessions.values()].find((s) => s.relay?.client?.name === 'Claude'));
    expect(session).toMatchObject({ name: 'Claude 0.9', status: 'connected', relay: { kind: 'tap', pid: 4242 } });
    const frame = await until(() => page.events.find((e): e is FrameEvent => e.session === session.id && e.kind === 'frame'));
    expect(frame.ts).toBe(1_700_000_000_123.5);
    const intervention = await until(() => page.events.find((e): e is InterventionEvent => e.session === session.id && e.kind === 'intervention'));
    expect(intervention.of).toBe(frame.seq);
    // A rule changed in the page reaches the tap.
    loupe.hub.engine.setRules([]);
    await until(() => tap.received.filter((m) => m.type === 'rules').length === 2 || undefined);
  });

  it('logs a message it does not understand as a warning in the session and goes on', async () => {
    const { loupe, client: page } = await harness.start({});
    const tap = await tapSocket(loupe.port, loupe.token);
    tap.send(hello);
    const { session: id } = (await until(() => tap.received.find((m) => m.type === 'welcome'))) as { session: string };
    tap.send('{not json');
    tap.send({ type: 'events', events: [{ kind: 'frame' }] });
    tap.send({ type: 'events', events: [{ ...base, seq: 1, kind: 'stderr', text: 'still here' }] });
    await until(() => page.events.some((e) => e.session === id && e.kind === 'stderr' && e.text === 'still here') || undefined);
    const warnings = page.events.filter((e) => e.session === id && e.kind === 'transport' && e.level === 'warn');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining('The tap sent a message Loupe does not understand') });
    expect(tap.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('closes a connection whose first message is not a hello, without a session', async () => {
    const { loupe, client: page } = await harness.start({});
    const tap = await tapSocket(loupe.port, loupe.token);
    tap.send({ type: 'events', events: [] });
    expect(await tap.closed).toBe(1008);
    expect(page.sessions.size).toBe(0);
  });

  it('tells the tap to detach when the page stops watching', async () => {
    const { loupe, client: page } = await harness.start({});
    const tap = await tapSocket(loupe.port, loupe.token);
    tap.send(hello);
    const welcome = (await until(() => tap.received.find((m) => m.type === 'welcome'))) as { session: string };
    await loupe.hub.engine.session(welcome.session)!.disconnect();
    expect(await tap.closed).toBe(1000);
    expect(tap.received.find((m) => m.type === 'detach')).toMatchObject({ message: expect.stringContaining('stopped watching') });
    await until(() => page.sessions.get(welcome.session)?.status === 'disconnected' || undefined);
  });

  it('ends the session with the server’s exit code in words', async () => {
    const { loupe, client: page } = await harness.start({});
    const tap = await tapSocket(loupe.port, loupe.token);
    tap.send(hello);
    const welcome = (await until(() => tap.received.find((m) => m.type === 'welcome'))) as { session: string };
    tap.send({ type: 'events', events: [{ ...base, seq: 1, kind: 'exit', code: 3, signal: null }] });
    await until(() => page.events.some((e) => e.session === welcome.session && e.kind === 'exit') || undefined);
    tap.ws.close(1000);
    const failed = await until(() => (page.sessions.get(welcome.session)?.status === 'failed' ? page.sessions.get(welcome.session) : undefined));
    expect(failed.error).toMatchObject({ code: 'EXITED', message: 'The server exited with code 3.' });
  });
});
