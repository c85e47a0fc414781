/**
 * The hub on its own, with stand-in sockets: what a tab receives when it attaches, and that a page
 * message the hub cannot serialise an answer for becomes an error, not an exception.
 */
import { describe, expect, it } from 'vitest';
import { type ServerMessage } from '../../../lib/wire/wire.ts';
import { Hub } from './hub.ts';
import { asWs, FakeSocket } from '../../testing/socket.ts';


const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
const seqsIn = (messages: ServerMessage[]) =>
  messages.flatMap((m) => (m.type === 'events' ? m.events : m.type === 'snapshot' ? m.events : [])).map((e) => e.seq);

describe('Hub.attach', () => {
  it('delivers events queued while a tab attaches once: in its snapshot, not again as events', async () => {
    const hub = new Hub();
    const first = new FakeSocket();
    hub.attach(asWs(first));
    const session = hub.createSession({ kind: 'stdio', command: 'x', args: [], env: {} });
    session.trace.record({ kind: 'transport', level: 'info', message: 'queued before the second tab' });
    const second = new FakeSocket();
    hub.attach(asWs(second));
    await tick();
    expect(seqsIn(second.sent)).toEqual([1]);
    expect(second.sent[0].type).toBe('snapshot');
    // The tab that was there already gets them as events, once.
    expect(seqsIn(first.sent)).toEqual([1]);
  });
});

describe('Hub messages from the page', () => {
  it('answers a send-raw whose text is not a JSON object, and one for no session, with errors', async () => {
    const hub = new Hub();
    const tab = new FakeSocket();
    hub.attach(asWs(tab));
    tab.receive(JSON.stringify({ type: 'send-raw', session: 's9', id: 'a', text: '{}' }));
    tab.receive('['.repeat(20_000) + ']'.repeat(20_000));
    tab.receive(JSON.stringify({ type: 'send-raw', session: 's9', id: 'b' }));
    await tick();
    const errors = tab.sent.filter((m) => m.type === 'error').map((m) => (m.type === 'error' ? m.error.code : ''));
    expect(errors).toEqual(['NO_SESSION', 'BAD_MESSAGE', 'NO_SESSION']);
  });

  it('reads subscribe and request without the schemas, loads them for the first envelope of another type, and keeps the order sent', async () => {
    const hub = new Hub();
    const tab = new FakeSocket();
    hub.attach(asWs(tab));
    tab.receive(JSON.stringify({ type: 'subscribe', sessions: ['s1'] }));
    tab.receive(JSON.stringify({ type: 'request', session: 's7', id: 'r1', method: 'ping' }));
    await tick();
    expect(hub.schemasLoaded).toBe(false);
    // The disconnect needs the schemas; the request after it (read at once) still waits its turn.
    tab.receive(JSON.stringify({ type: 'disconnect', session: 's8' }));
    tab.receive(JSON.stringify({ type: 'request', session: 's9', id: 'r2', method: 'ping' }));
    await tick();
    expect(hub.schemasLoaded).toBe(true);
    const errors = tab.sent.flatMap((m) => (m.type === 'error' ? [m.error.message] : []));
    expect(errors).toEqual(['No session s7.', 'No session s8.', 'No session s9.']);
  });
});
