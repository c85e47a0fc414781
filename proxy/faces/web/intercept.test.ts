/**
 * The hub's interception messages (hub-intercept.ts) with stand-in sockets: a page's rules go to
 * the engine and to every tab, rules that cannot work are refused with the reason, a held frame
 * reaches every tab and its snapshot, a person's decision is what the hold's waiter gets, and a
 * decision on a hold that is gone is a plain error to the tab that made it.
 */
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../../lib/model/rules.ts';
import type { HoldOutcome } from '../../pipeline/hold-broker.ts';
import { Hub } from './hub.ts';
import { asWs, FakeSocket } from '../../testing/socket.ts';
import { rulesProblem } from './intercept.ts';


const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

const pauseEcho: Rule = { id: 'r1', name: 'pause echo', match: { direction: 'to-server', method: 'tools/call', name: 'echo' }, action: { type: 'pause' } };
const gate: Rule = { id: 'r2', match: { method: 'tools/call', argument: { path: 'path', pattern: '^/etc' } }, action: { type: 'deny' } };
const ECHO = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}';

function setup(): { hub: Hub; a: FakeSocket; b: FakeSocket } {
  const hub = new Hub();
  const a = new FakeSocket();
  const b = new FakeSocket();
  hub.attach(asWs(a));
  hub.attach(asWs(b));
  return { hub, a, b };
}

function holdEcho(hub: Hub, session = 's1'): Promise<HoldOutcome> {
  return hub.engine.holds.hold({ session, dir: 'to-server', raw: ECHO, rule: { id: 'r1', name: 'pause echo', action: 'pause' }, method: 'tools/call', isRequest: true });
}

describe('set-rules', () => {
  it('puts the rules in force and tells every tab', async () => {
    const { hub, a, b } = setup();
    a.receive({ type: 'set-rules', rules: [pauseEcho, gate] });
    await tick();
    expect(hub.engine.rules).toEqual([pauseEcho, gate]);
    expect(hub.model.rules).toEqual([pauseEcho, gate]);
    for (const tab of [a, b]) expect(tab.of('rules').at(-1)?.rules).toEqual([pauseEcho, gate]);
    const late = new FakeSocket();
    hub.attach(asWs(late));
    expect(late.of('snapshot')[0].rules).toEqual([pauseEcho, gate]);
  });

  it('refuses rules whose ids repeat or whose pattern is no regular expression, and keeps those in force', async () => {
    const { hub, a, b } = setup();
    a.receive({ type: 'set-rules', rules: [pauseEcho] });
    await tick();
    a.receive({ type: 'set-rules', rules: [pauseEcho, { ...gate, id: 'r1' }] });
    a.receive({ type: 'set-rules', rules: [{ ...gate, match: { method: 'tools/call', argument: { path: 'path', pattern: '(' } } }] });
    a.receive({ type: 'set-rules', rules: [{ ...gate, match: { method: 'tools/call', argument: { path: 'path', pattern: '(a+)+$' } } }] });
    await tick();
    expect(hub.engine.rules).toEqual([pauseEcho]);
    const errors = a.of('error').map((m) => m.error.message);
    expect(errors[0]).toMatch(/^The rules were not changed: Rule 2 has the id “r1” of an earlier rule/);
    expect(errors[1]).toMatch(/Rule 1: its argument pattern is not a valid regular expression/);
    expect(errors[2]).toMatch(/Rule 1: its argument pattern could stall the proxy: /);
    expect(b.of('error')).toEqual([]);
    expect(b.of('rules')).toHaveLength(1);
  });

  it('refuses a rule the format does not allow as a message it could not read', async () => {
    const { hub, a } = setup();
    a.receive({ type: 'set-rules', rules: [{ id: 'x', match: {}, action: { type: 'delay' } }] });
    await tick();
    expect(a.of('error')[0].error.code).toBe('BAD_MESSAGE');
    expect(hub.engine.rules).toEqual([]);
  });

  it('rulesProblem passes a good list', () => {
    expect(rulesProblem([pauseEcho, gate])).toBeUndefined();
  });
});

describe('holds', () => {
  it('shows a held frame to every tab and in a new snapshot, and ends it with the person’s edit', async () => {
    const { hub, a, b } = setup();
    const outcome = holdEcho(hub);
    await tick();
    const [held] = a.of('hold');
    expect(held.frame).toMatchObject({ session: 's1', dir: 'to-server', raw: ECHO, method: 'tools/call', isRequest: true, rule: { name: 'pause echo' } });
    expect(b.of('hold')).toHaveLength(1);
    const late = new FakeSocket();
    hub.attach(asWs(late));
    expect(late.of('snapshot')[0].holds?.map((h) => h.holdId)).toEqual([held.frame.holdId]);

    const edited = ECHO.replace('"hi"', '"edited"');
    b.receive({ type: 'release-hold', holdId: held.frame.holdId, decision: { action: 'forward-edited', raw: edited } });
    expect(await outcome).toMatchObject({ decision: { action: 'forward-edited', raw: edited }, how: 'edited' });
    await tick();
    for (const tab of [a, b, late]) expect(tab.of('hold-done')).toEqual([{ type: 'hold-done', holdId: held.frame.holdId, session: 's1', how: 'edited' }]);
    expect(hub.engine.holds.list()).toEqual([]);
  });

  it('answers a decision on a hold that is gone with a plain error to that tab only', async () => {
    const { hub, a, b } = setup();
    const outcome = holdEcho(hub);
    await tick();
    const holdId = a.of('hold')[0].frame.holdId;
    a.receive({ type: 'release-hold', holdId, decision: { action: 'drop' } });
    b.receive({ type: 'release-hold', holdId, decision: { action: 'forward' } });
    expect((await outcome).how).toBe('dropped');
    await tick();
    expect(a.of('error')).toEqual([]);
    expect(b.of('error')[0].error).toEqual({
      code: 'NOT_PENDING',
      message: 'That frame is no longer held: it was released from another tab, its timer forwarded it, or its session ended.',
      detail: { requestId: holdId },
    });
  });

  it('answers a request with the person’s response', async () => {
    const { hub, a } = setup();
    const outcome = holdEcho(hub);
    await tick();
    const answer = '{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"no"}}';
    a.receive({ type: 'release-hold', holdId: a.of('hold')[0].frame.holdId, decision: { action: 'respond', raw: answer } });
    expect(await outcome).toMatchObject({ decision: { action: 'respond', raw: answer }, how: 'responded' });
  });

  it('release-all forwards the frames of one session, or of every session', async () => {
    const { hub, a } = setup();
    const first = holdEcho(hub, 's1');
    const second = holdEcho(hub, 's2');
    const third = holdEcho(hub, 's2');
    await tick();
    a.receive({ type: 'release-all', session: 's2' });
    await tick();
    expect(hub.engine.holds.list().map((h) => h.session)).toEqual(['s1']);
    expect((await second).decision).toEqual({ action: 'forward' });
    expect((await third).how).toBe('forwarded');
    a.receive({ type: 'release-all' });
    expect((await first).how).toBe('forwarded');
    await tick();
    expect(a.of('hold-done').map((m) => m.session)).toEqual(['s2', 's2', 's1']);
  });
});
