import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, readToken, socketUrl, WireClient } from './wire-client.ts';

class FakeSocket {
  static OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen?: () => void;
  onmessage?: (e: { data: unknown }) => void;
  onclose?: () => void;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  FakeSocket.made = [];
});

describe('WireClient', () => {
  it('puts a long frame text that came as a binary message back into the events message that names it', () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const onMessage = vi.fn();
    const client = new WireClient({ url: 'ws://x/ws?token=t', onMessage, onInvalid: () => undefined, onSocket: () => undefined, onClose: () => undefined, createSocket: (url) => new FakeSocket(url) as unknown as WebSocket });
    client.start();
    const socket = FakeSocket.made[0];
    socket.open();
    const raw = '{"jsonrpc":"2.0","id":1,"result":{"text":"héllo ✓"}}';
    const frame = { kind: 'frame', session: 's1', seq: 4, ts: 1, dir: 'in', size: 56, rpc: 'response', id: 1 };
    socket.onmessage?.({ data: new TextEncoder().encode(raw).buffer });
    socket.onmessage?.({ data: JSON.stringify({ type: 'events', events: [{ ...frame, seq: 3, raw: '{}' }, { ...frame, raw: '', rawApart: true }] }) });
    expect(onMessage).toHaveBeenCalledWith({ type: 'events', events: [{ ...frame, seq: 3, raw: '{}' }, { ...frame, raw }] });
    client.stop();
  });

  it('validates messages, reports invalid ones and reconnects with backoff', () => {
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    const onMessage = vi.fn();
    const onInvalid = vi.fn();
    const phases: string[] = [];
    const client = new WireClient({
      url: 'ws://x/ws?token=t',
      onMessage,
      onInvalid,
      onSocket: (s) => phases.push(s.phase),
      onClose: () => undefined,
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    client.start();
    const first = FakeSocket.made[0];
    expect(client.send({ type: 'disconnect', session: 's' })).toBe(false);
    first.open();
    expect(client.send({ type: 'disconnect', session: 's' })).toBe(true);
    first.onmessage?.({ data: JSON.stringify({ type: 'session-removed', session: 's' }) });
    first.onmessage?.({ data: '{"type":"mystery"}' });
    expect(onMessage).toHaveBeenCalledWith({ type: 'session-removed', session: 's' });
    expect(onInvalid).toHaveBeenCalledTimes(1);
    first.close();
    expect(phases).toEqual(['connecting', 'open', 'waiting']);
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.made).toHaveLength(2);
    client.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it('backs off up to a ceiling', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 6, 20].map((n) => backoffDelay(n, mid))).toEqual([250, 500, 1000, 8000, 8000]);
  });
});

describe('token', () => {
  const storage = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) } as Storage;
  };
  it('reads the token from the URL and remembers it for reloads without it', () => {
    const store = storage();
    expect(readToken({ search: '?token=abc' } as Location, store)).toBe('abc');
    expect(readToken({ search: '' } as Location, store)).toBe('abc');
    expect(readToken({ search: '' } as Location, storage())).toBeUndefined();
  });
  it('builds the socket URL on the page origin', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:6280' } as Location, 'a b')).toBe('ws://127.0.0.1:6280/ws?token=a%20b&frames=seq');
  });
});
