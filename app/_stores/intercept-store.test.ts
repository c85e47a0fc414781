/**
 * The Intercept tab's store (intercept-store.ts) against a stand-in tab store: the rules are the
 * proxy's (an edit sends the whole list; what shows is what the proxy sends back), held frames come
 * and go with `hold` / `hold-done`, a snapshot replaces both, typed text is kept per frame, and a
 * decision that comes too late is said in words.
 */
import { describe, expect, it } from 'vitest';
import type { HeldFrame, Rule } from '../../lib/model/rules.ts';
import { InterceptStore, proposedResponse } from './intercept-store.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';

const pause: Rule = { id: 'r1', name: 'pause echo', match: { method: 'tools/call', name: 'echo' }, action: { type: 'pause' } };
const gate: Rule = { id: 'r2', match: { method: 'tools/call' }, action: { type: 'deny' } };
const frame = (holdId: string, session = 's1'): HeldFrame => ({
  holdId,
  session,
  dir: 'to-server',
  raw: `{"jsonrpc":"2.0","id":"${holdId}-id","method":"tools/call","params":{"name":"echo"}}`,
  rule: { id: 'r1', name: 'pause echo', action: 'pause' },
  since: 1,
  timeoutMs: 120_000,
  method: 'tools/call',
  isRequest: true,
});

function setup(): { host: MessageHostFixture; store: InterceptStore } {
  const host = new MessageHostFixture();
  return { host, store: new InterceptStore(host) };
}

describe('InterceptStore rules', () => {
  it('sends the whole new list on every edit and shows what the proxy sends back', () => {
    const { host, store } = setup();
    host.deliver({ type: 'rules', rules: [pause], source: '/tmp/rules.json' });
    expect(store.getSnapshot()).toMatchObject({ rules: [pause], source: '/tmp/rules.json' });
    store.saveRule(gate);
    store.saveRule({ ...pause, name: 'renamed' });
    store.setEnabled('r1', false);
    store.deleteRule('r1');
    expect(host.sent).toEqual([
      { type: 'set-rules', rules: [pause, gate] },
      { type: 'set-rules', rules: [{ ...pause, name: 'renamed' }, gate] },
      { type: 'set-rules', rules: [{ ...pause, name: 'renamed', enabled: false }, gate] },
      { type: 'set-rules', rules: [gate] },
    ]);
    // Shown at once; the proxy's answer is what stays.
    expect(store.getSnapshot().rules).toEqual([gate]);
    host.deliver({ type: 'rules', rules: [{ ...pause, enabled: false }] });
    expect(store.getSnapshot().rules).toEqual([{ ...pause, enabled: false }]);
    store.setEnabled('r1', true);
    expect(host.sent.at(-1)).toEqual({ type: 'set-rules', rules: [pause] });
  });

  it('says so when the socket is down, and when the proxy refused the rules', () => {
    const { host, store } = setup();
    host.open = false;
    expect(store.saveRule(pause)).toBe(false);
    expect(store.getSnapshot().problem).toBe('Not connected to Loupe, so nothing was sent; try again once the page reconnects.');
    host.open = true;
    host.deliver({ type: 'rules', rules: [pause] });
    store.saveRule({ ...gate, id: 'r1' });
    expect(store.getSnapshot().rules).toEqual([{ ...gate, id: 'r1' }]);
    host.deliver({ type: 'error', error: { code: 'BAD_MESSAGE', message: 'The rules were not changed: Rule 2 has the id “r1” of an earlier rule; give each rule its own id.' } });
    expect(store.getSnapshot().problem).toMatch(/^The rules were not changed/);
    // Back to the list the proxy has.
    expect(store.getSnapshot().rules).toEqual([pause]);
    host.deliver({ type: 'rules', rules: [pause] });
    expect(store.getSnapshot().problem).toBeUndefined();
  });
});

describe('InterceptStore holds', () => {
  it('follows hold and hold-done, keeps typed text per frame, and a snapshot replaces everything', () => {
    const { host, store } = setup();
    host.deliver({ type: 'hold', frame: frame('h1') });
    host.deliver({ type: 'hold', frame: frame('h2', 's2') });
    host.deliver({ type: 'hold', frame: frame('h1') });
    expect(store.getSnapshot().holds.map((h) => h.holdId)).toEqual(['h1', 'h2']);
    store.editText('h1', 'edited');
    store.openResponse('h2', true);
    expect(store.getSnapshot().drafts).toEqual({ h1: { text: 'edited' }, h2: { response: proposedResponse(frame('h2')) } });
    host.deliver({ type: 'hold-done', holdId: 'h1', session: 's1', how: 'forwarded' });
    expect(store.getSnapshot().holds.map((h) => h.holdId)).toEqual(['h2']);
    expect(Object.keys(store.getSnapshot().drafts)).toEqual(['h2']);
    host.deliver({ type: 'snapshot', version: 1, sessions: [], events: [], stats: [], rules: [gate], holds: [frame('h3')] } as never);
    expect(store.getSnapshot()).toMatchObject({ rules: [gate], holds: [frame('h3')], drafts: {} });
  });

  it('proposes a JSON-RPC error for the held request’s own id', () => {
    expect(JSON.parse(proposedResponse(frame('h1')))).toEqual({ jsonrpc: '2.0', id: 'h1-id', error: { code: -32000, message: 'Refused by the person at Loupe’s Intercept tab.' } });
    expect(JSON.parse(proposedResponse({ raw: '{"id":7}' })).id).toBe(7);
    expect(JSON.parse(proposedResponse({ raw: 'not json' })).id).toBeNull();
  });

  it('sends decisions, and says in words when one came too late or ended otherwise', () => {
    const { host, store } = setup();
    host.deliver({ type: 'hold', frame: frame('h1') });
    host.deliver({ type: 'hold', frame: frame('h2', 's2') });
    store.release('h1', { action: 'forward-edited', raw: 'x' });
    store.releaseAll('s2');
    expect(host.sent).toEqual([
      { type: 'release-hold', holdId: 'h1', decision: { action: 'forward-edited', raw: 'x' } },
      { type: 'release-all', session: 's2' },
    ]);
    host.deliver({ type: 'error', error: { code: 'NOT_PENDING', message: 'That frame is no longer held: it was released from another tab, its timer forwarded it, or its session ended.', detail: { requestId: 'h1' } } });
    expect(store.getSnapshot().notice).toMatch(/^That frame is no longer held/);
    host.deliver({ type: 'hold-done', holdId: 'h2', session: 's2', how: 'timeout' });
    expect(store.getSnapshot().notice).toBe('The frame was forwarded as it was when its timer ran out.');
    // Another tab's NOT_PENDING (a server request, say) is not about our holds.
    const other = setup();
    other.host.deliver({ type: 'error', error: { code: 'NOT_PENDING', message: 'x', detail: { requestId: 'zz' } } });
    expect(other.store.getSnapshot().notice).toBeUndefined();
    host.open = false;
    store.releaseAll();
    expect(store.getSnapshot().notice).toBe('Not connected to Loupe, so nothing was sent; try again once the page reconnects.');
  });
});
