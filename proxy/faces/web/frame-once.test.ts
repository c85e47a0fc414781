/**
 * Issue 23, "a frame crosses to the page once": a tab that asked for it (`/ws?frames=seq`) gets a
 * tool's result once, inside the trace frame, and a `response` that refers to that frame by its
 * seq, after it; a tab that did not ask (a script's client) still gets the result inline. A result
 * in which a secret of the session was masked is never referred to: the frame's text is not what
 * the server sent. Real stdio server (e2e/fixtures/hard-schemas.mjs), stand-in sockets.
 */
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../lib/wire/wire.ts';
import { Hub } from './hub.ts';
import { asWs, FakeSocket } from '../../testing/socket.ts';

const FIXTURE = join(resolve(import.meta.dirname, '../../..'), 'e2e', 'fixtures', 'hard-schemas.mjs');
const hubs: Hub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.shutdown()));
});

async function connected(): Promise<{ hub: Hub; session: string; joining: FakeSocket; plain: FakeSocket }> {
  const hub = new Hub();
  hubs.push(hub);
  const joining = new FakeSocket();
  const plain = new FakeSocket();
  hub.attach(asWs(joining), true);
  hub.attach(asWs(plain));
  const s = hub.createSession({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: {} });
  await hub.start(s);
  return { hub, session: s.id, joining, plain };
}

const bigText = (id: string, session: string) => ({ type: 'request', id, session, method: 'tools/call', params: { name: 'big_text', arguments: { megabytes: 0.25 } } });

/** Index of the `events` message holding frame `seq`, and of the response `id`, in what the tab got. */
function positions(tab: FakeSocket, id: string, seq: number): { frameAt: number; responseAt: number } {
  const frameAt = tab.sent.findIndex((m) => m.type === 'events' && m.events.some((e) => e.seq === seq));
  const responseAt = tab.sent.findIndex((m) => m.type === 'response' && m.id === id);
  return { frameAt, responseAt };
}

async function responseTo(tab: FakeSocket, id: string): Promise<Extract<ServerMessage, { type: 'response' }>> {
  for (let i = 0; i < 500; i++) {
    const found = tab.of('response').find((m) => m.id === id);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no response ${id}`);
}

describe('a result crosses to the page once', () => {
  it('a joining tab gets the frame, then a response naming its seq and no result, in one message; another tab gets the result inline', async () => {
    const { session, joining, plain } = await connected();
    joining.receive(bigText('a', session));
    plain.receive(bigText('b', session));
    const referred = await responseTo(joining, 'a');
    const inline = await responseTo(plain, 'b');

    expect(referred.ok && referred.frameSeq).toEqual(expect.any(Number));
    expect(referred.ok && referred.result).toBeUndefined();
    const seq = referred.ok ? referred.frameSeq! : -1;
    // The response rides in the `events` message that carries its frame (one socket write, one
    // message for the page), after the events; the result is in neither (its text came apart).
    const carrier = joining.carriedIn[joining.sent.indexOf(referred)];
    expect(carrier.startsWith('{"type":"events"')).toBe(true);
    expect(carrier).toContain(`"seq":${seq}`);
    expect(carrier.indexOf(`"seq":${seq}`)).toBeLessThan(carrier.indexOf('"response":'));
    expect(carrier.length).toBeLessThan(10_000);
    const { frameAt, responseAt } = positions(joining, 'a', seq);
    expect(frameAt).toBeGreaterThanOrEqual(0);
    expect(frameAt).toBeLessThan(responseAt);
    const frame = joining.of('events').flatMap((m) => m.events).find((e) => e.seq === seq);
    expect(frame?.kind === 'frame' && frame.dir === 'in' && frame.rpc === 'response' && frame.raw).toContain('BEGIN>');

    expect(inline.ok && inline.frameSeq).toBeFalsy();
    expect(JSON.stringify(inline.ok && inline.result)).toContain('BEGIN>');
  }, 90_000);

  it('a long frame goes to a joining tab as a binary message of its own, not escaped into the events message', async () => {
    const { session, joining, plain } = await connected();
    joining.receive(bigText('d', session));
    const referred = await responseTo(joining, 'd');
    const seq = referred.ok ? referred.frameSeq! : -1;
    expect(joining.apart).toHaveLength(1);
    expect(joining.apart[0]).toContain('BEGIN>');
    const eventsText = joining.texts.find((t) => t.includes('"events"') && t.includes(`"seq":${seq}`))!;
    expect(eventsText.length).toBeLessThan(10_000);
    // Put back in its place: the frame in the events message is the whole text.
    const frame = joining.of('events').flatMap((m) => m.events).find((e) => e.seq === seq);
    expect(frame?.kind === 'frame' && frame.raw).toBe(joining.apart[0]);
    // A tab that does not join frames gets it inline, escaped in its events message, as before.
    expect(plain.apart).toHaveLength(0);
    expect(plain.texts.some((t) => t.includes('"events"') && t.includes('BEGIN>'))).toBe(true);
  }, 90_000);

  it('a result with a secret of the session masked in its frame goes inline, as the server sent it', async () => {
    const { hub, session, joining } = await connected();
    // The fixture's text repeats this word: as a secret value, the recorder masks it in every frame.
    hub.engine.session(session)!.trace.secretValues = ['abcdefghijklmnopqrstuvwxyz'];
    joining.receive(bigText('c', session));
    const response = await responseTo(joining, 'c');
    expect(response.ok && response.frameSeq).toBeFalsy();
    expect(JSON.stringify(response.ok && response.result)).toContain('abcdefghijklmnopqrstuvwxyz');
  }, 90_000);
});
