import { describe, expect, it } from 'vitest';
import type { AppViewState, ClientMessage } from '../../lib/wire/wire.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';
import { AppsStore, callKey, slotKey, type ViewCall } from './apps-store.ts';

const ORIGIN = 'http://127.0.0.1:6280';
const KEY = slotKey('s1', 'counter');

class Host extends MessageHostFixture {
  last<T extends ClientMessage['type']>(type: T): Extract<ClientMessage, { type: T }> {
    const found = [...this.sent].reverse().find((m) => m.type === type);
    if (!found) throw new Error(`no ${type} sent`);
    return found as Extract<ClientMessage, { type: T }>;
  }

  ofType(type: ClientMessage['type']): ClientMessage[] {
    return this.sent.filter((m) => m.type === type);
  }
}

const call = (callId = 'c1', input: Record<string, unknown> = { start: 1 }): ViewCall => ({ session: 's1', tool: 'counter', callId, input, result: { content: [{ type: 'text', text: 'Count is 1' }] }, fromResponse: true });

const viewState = (view: string, patch: Partial<AppViewState> = {}): AppViewState => ({
  view,
  session: 's1',
  tool: 'counter',
  uri: 'ui://apps/counter',
  status: 'loading',
  sandboxUrl: `http://127.0.0.1:7000/sandbox/${view}?t=x`,
  sandboxOrigin: 'http://127.0.0.1:7000',
  allow: '',
  csp: "default-src 'none'",
  cspProblems: [],
  displayMode: 'inline',
  viewDisplayModes: ['inline', 'fullscreen', 'pip'],
  hostContext: {},
  asks: [],
  ...patch,
});

function opened(host: Host, store: AppsStore, view = 'v1'): void {
  host.deliver({ type: 'app-opened', requestId: host.last('app-open').requestId, state: viewState(view) });
  expect(store.getSnapshot().slots[KEY].state?.view).toBe(view);
}

describe('AppsStore', () => {
  it("opens a call's view naming the result's frame and the call's JSON-RPC id, once", () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    host.deliver({ type: 'response', id: 'c1', session: 's1', ok: true, durationMs: 3, rpcId: 7, frameSeq: 42, result: { content: [] } });
    expect(store.open(call())).toBe(true);
    const open = host.last('app-open');
    expect(open).toEqual({ type: 'app-open', requestId: open.requestId, session: 's1', tool: 'counter', arguments: { start: 1 }, resultSeq: 42, toolCallId: 7, hostOrigin: ORIGIN });
    expect(store.getSnapshot().slots[KEY]).toMatchObject({ pending: open.requestId, callId: 'c1' });
    store.open(call());
    expect(host.ofType('app-open')).toHaveLength(1);
    opened(host, store);
    expect(store.getSnapshot().slots[KEY].pending).toBeUndefined();
    store.dispose();
  });

  it("sends the result itself when the page has no frame for it (or the frame is a task's handle), and says so when the socket is down", () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    store.open(call('c9'));
    const open = host.last('app-open');
    expect(open.resultSeq).toBeUndefined();
    expect(open.result).toEqual(call().result);
    host.deliver({ type: 'response', id: 'c11', session: 's1', ok: true, durationMs: 3, rpcId: 8, frameSeq: 50 });
    store.open({ ...call('c11'), fromResponse: false });
    expect(host.last('app-open')).toMatchObject({ result: call().result });
    expect(host.last('app-open').resultSeq).toBeUndefined();
    host.open = false;
    expect(store.open(call('c10'))).toBe(false);
    expect(store.getSnapshot().slots[KEY].error).toMatch(/^Not connected to Loupe/);
    store.dispose();
  });

  it("keeps the proxy's refusal in words", () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    store.open(call());
    host.deliver({ type: 'app-opened', requestId: host.last('app-open').requestId, error: { code: 'VIEW', message: 'Could not read the view ui://apps/missing: Resource not found' } });
    expect(store.getSnapshot().slots[KEY]).toMatchObject({ pending: undefined, error: 'Could not read the view ui://apps/missing: Resource not found' });
    store.dispose();
  });

  it("a second run closes the tool's view and opens the new one; a late answer to an overtaken open is closed", () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    store.open(call('c1'));
    opened(host, store, 'v1');
    store.open(call('c2'));
    expect(host.last('app-close')).toEqual({ type: 'app-close', view: 'v1' });
    const second = host.last('app-open').requestId;
    store.open(call('c3'));
    host.deliver({ type: 'app-opened', requestId: second, state: viewState('v2') });
    expect(host.last('app-close')).toEqual({ type: 'app-close', view: 'v2' });
    // v1's closing state no longer belongs to the slot.
    host.deliver({ type: 'app-state', state: viewState('v1', { status: 'closed' }) });
    expect(store.getSnapshot().slots[KEY].state).toBeUndefined();
    opened(host, store, 'v3');
    expect(store.getSnapshot().slots[KEY].callId).toBe('c3');
    store.dispose();
  });

  it('follows app-state, sends context changes, replays, answers, tears down and mounts again with the context kept', () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    store.open(call());
    opened(host, store, 'v1');
    host.deliver({ type: 'app-state', state: viewState('v1', { status: 'initialized', asks: [{ kind: 'message', text: 'The view asked to send a user message: hi', at: 1 }] }) });
    expect(store.getSnapshot().slots[KEY].state?.asks).toHaveLength(1);
    store.setContext(KEY, { theme: 'dark' });
    expect(host.last('app-context')).toEqual({ type: 'app-context', view: 'v1', context: { theme: 'dark' } });
    store.replay(KEY, { start: 5 }, undefined);
    expect(host.last('app-replay')).toEqual({ type: 'app-replay', view: 'v1', input: { start: 5 } });
    host.deliver({ type: 'app-problem', view: 'v1', message: 'The view has not initialized yet.' });
    expect(store.getSnapshot().slots[KEY].problem).toBe('The view has not initialized yet.');
    store.answer(KEY, 'ask-1', true);
    expect(host.last('app-answer')).toEqual({ type: 'app-answer', view: 'v1', ask: 'ask-1', approve: true });
    store.tearDown(KEY);
    expect(host.last('app-close')).toEqual({ type: 'app-close', view: 'v1' });
    // A refusal names its view: one about a view this tab does not show (v9) touches no slot.
    host.deliver({ type: 'app-problem', view: 'v9', message: 'No view v9 is open in this tab.' });
    expect(store.getSnapshot().slots[KEY].problem).toBe('The view has not initialized yet.');
    host.deliver({ type: 'app-state', state: viewState('v1', { status: 'closed' }) });
    expect(store.getSnapshot().slots[KEY].state?.status).toBe('closed');
    store.mountAgain(KEY);
    expect(host.last('app-open')).toMatchObject({ session: 's1', tool: 'counter', context: { theme: 'dark' } });
    expect(store.getSnapshot().slots[KEY].state).toBeUndefined();
    store.dispose();
  });

  it("relays the frame's messages, and holds the proxy's until the frame attaches", () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    store.open(call());
    opened(host, store, 'v1');
    host.deliver({ type: 'app-frame', view: 'v1', text: '{"a":1}' });
    host.deliver({ type: 'app-frame', view: 'v9', text: '{"stranger":1}' });
    const posted: string[] = [];
    const detach = store.attach('v1', (text) => posted.push(text));
    host.deliver({ type: 'app-frame', view: 'v1', text: '{"b":2}' });
    expect(posted).toEqual(['{"a":1}', '{"b":2}']);
    detach();
    store.relay('v1', '{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}');
    expect(host.last('app-frame')).toEqual({ type: 'app-frame', view: 'v1', text: '{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}' });
    store.dispose();
  });

  it("keeps a Playground conversation's views one per call, beside the Tools tab's, until the conversation discards them", () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    store.open(call('t1'));
    opened(host, store, 'v1');
    host.deliver({ type: 'response', id: 'p1', session: 's1', ok: true, durationMs: 3, rpcId: 11, frameSeq: 60 });
    const first = callKey(0, 'p1');
    const second = callKey(0, 'p2');
    expect(store.open({ ...call('p1'), conversation: 0 })).toBe(true);
    expect(host.last('app-open')).toMatchObject({ tool: 'counter', resultSeq: 60, toolCallId: 11 });
    host.deliver({ type: 'app-opened', requestId: host.last('app-open').requestId, state: viewState('v2') });
    store.open({ ...call('p2'), conversation: 0 });
    host.deliver({ type: 'app-opened', requestId: host.last('app-open').requestId, state: viewState('v3') });
    // Another call of the same tool is a view of its own: none is closed, the Tools tab's is left alone.
    expect(host.ofType('app-close')).toEqual([]);
    const { slots, calls } = store.getSnapshot();
    expect(Object.keys(slots)).toEqual([KEY]);
    expect(slots[KEY].state?.view).toBe('v1');
    expect(calls[first]).toMatchObject({ conversation: 0, callId: 'p1', state: { view: 'v2' } });
    expect(calls[second]).toMatchObject({ conversation: 0, callId: 'p2', state: { view: 'v3' } });
    store.open({ ...call('p1'), conversation: 0 });
    expect(host.ofType('app-open')).toHaveLength(3);

    host.deliver({ type: 'app-state', state: viewState('v2', { status: 'initialized' }) });
    expect(store.getSnapshot().calls[first].state?.status).toBe('initialized');
    store.setContext(first, { theme: 'dark' });
    expect(host.last('app-context')).toEqual({ type: 'app-context', view: 'v2', context: { theme: 'dark' } });
    host.deliver({ type: 'app-problem', view: 'v2', message: 'Refused.' });
    expect(store.getSnapshot().calls[first].problem).toBe('Refused.');
    // Beside its own view only: the Tools tab's view of the same tool is not told.
    expect(store.getSnapshot().slots[KEY].problem).toBeUndefined();

    store.discard(first);
    expect(host.last('app-close')).toEqual({ type: 'app-close', view: 'v2' });
    expect(store.getSnapshot().calls[first]).toBeUndefined();
    expect(store.getSnapshot().slots[KEY].state?.view).toBe('v1');
    // A view discarded while it was being opened is closed once the proxy answers.
    store.open({ ...call('p4'), conversation: 1 });
    const late = host.last('app-open').requestId;
    store.discard(callKey(1, 'p4'));
    host.deliver({ type: 'app-opened', requestId: late, state: viewState('v4') });
    expect(host.last('app-close')).toEqual({ type: 'app-close', view: 'v4' });
    store.dispose();
  });

  it("keeps an approved download's files beside their ask; one file is saved as it arrives, several wait for their Save", () => {
    const host = new Host();
    const saved: string[] = [];
    const store = new AppsStore(host, () => ORIGIN, (file) => saved.push(file.name));
    store.open(call());
    opened(host, store, 'v1');
    host.deliver({ type: 'app-download', view: 'v1', ask: 'ask-1', files: [{ name: 'a.csv', mimeType: 'text/csv', text: 'a' }, { name: 'b.bin', mimeType: 'application/octet-stream', base64: 'AA==' }] });
    expect(saved).toEqual([]);
    expect(store.getSnapshot().slots[KEY].downloads?.['ask-1']?.map((f) => f.name)).toEqual(['a.csv', 'b.bin']);
    host.deliver({ type: 'app-download', view: 'v1', ask: 'ask-2', files: [{ name: 'one.txt', mimeType: 'text/plain', text: '1' }] });
    expect(saved).toEqual(['one.txt']);
    expect(Object.keys(store.getSnapshot().slots[KEY].downloads ?? {})).toEqual(['ask-1', 'ask-2']);
    // Only the newest five asks' files are kept (each may be large).
    for (let i = 3; i <= 6; i++) host.deliver({ type: 'app-download', view: 'v1', ask: `ask-${i}`, files: [{ name: `${i}.txt`, mimeType: 'text/plain', text: String(i) }] });
    expect(Object.keys(store.getSnapshot().slots[KEY].downloads ?? {})).toEqual(['ask-2', 'ask-3', 'ask-4', 'ask-5', 'ask-6']);
    saved.length = 0;
    // Files for a view this tab does not show are dropped.
    host.deliver({ type: 'app-download', view: 'v9', ask: 'ask-1', files: [{ name: 'x.txt', mimeType: 'text/plain', text: 'x' }] });
    expect(saved).toEqual([]);
    store.dispose();
  });

  it('sends an answer to an ask once, however often it is given', () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    const key = callKey(0, 'p1');
    store.open({ ...call('p1'), conversation: 0 });
    expect(store.answer(key, 'ask-1', true)).toBe(false);
    host.deliver({ type: 'app-opened', requestId: host.last('app-open').requestId, state: viewState('v1') });
    host.open = false;
    expect(store.answer(key, 'ask-1', true)).toBe(false);
    host.open = true;
    expect(store.answer(key, 'ask-1', true)).toBe(true);
    expect(store.answer(key, 'ask-1', false)).toBe(false);
    expect(store.answer(key, 'ask-2', false)).toBe(true);
    expect(host.ofType('app-answer')).toEqual([
      { type: 'app-answer', view: 'v1', ask: 'ask-1', approve: true },
      { type: 'app-answer', view: 'v1', ask: 'ask-2', approve: false },
    ]);
    store.dispose();
  });

  it('a new socket closes every view; a removed session takes its views', () => {
    const host = new Host();
    const store = new AppsStore(host, () => ORIGIN);
    store.open(call());
    opened(host, store, 'v1');
    store.open({ ...call('p1'), conversation: 1 });
    host.deliver({ type: 'snapshot', version: 1, sessions: [], events: [], stats: [] });
    expect(store.getSnapshot().slots[KEY]).toMatchObject({ state: { status: 'closed' }, error: expect.stringMatching(/dropped/) });
    expect(store.getSnapshot().calls[callKey(1, 'p1')]).toMatchObject({ pending: undefined, error: expect.stringMatching(/dropped/) });
    host.deliver({ type: 'session-removed', session: 's1' });
    expect(store.getSnapshot()).toEqual({ slots: {}, calls: {} });
    store.dispose();
  });
});
