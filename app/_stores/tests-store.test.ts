import { afterEach, describe, expect, it } from 'vitest';
import type { Collection } from '../../lib/collections/schema.ts';
import { createSessionModel } from '../_session/model.ts';
import { PortFixture } from '../_wire/port-fixture.ts';
import { TestsStore } from './tests-store.ts';

const open: Array<() => void> = [];
afterEach(() => open.splice(0).forEach((dispose) => dispose()));

function setup() {
  const fixture = new PortFixture('s');
  fixture.connect({ capabilities: {} });
  const model = createSessionModel(fixture.port);
  open.push(() => model.dispose());
  const follows: string[] = [];
  const released: string[] = [];
  const store = new TestsStore({
    follow: (session) => {
      follows.push(session);
      return () => released.push(session);
    },
  });
  return { fixture, model, store, follows, released };
}

/** Wait until the fixture has an open request. */
async function requested(fixture: PortFixture): Promise<void> {
  for (let i = 0; i < 100 && fixture.requests.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
  if (fixture.requests.length === 0) throw new Error('no request was sent');
}

const SMOKE: Collection = {
  name: 'smoke',
  calls: [
    { name: 'echo', kind: 'tool', target: 'echo', arguments: { message: 'hi' }, assert: [{ path: '$.content[0].text', equals: 'Echo: hi' }, { notification: 'notifications/message' }] },
  ],
};

describe('TestsStore (issue 27)', () => {
  it('runs a collection through the session: the verdict, the notifications and frames read from the trace, the session followed while it runs', async () => {
    const { fixture, model, store, follows, released } = setup();
    const run = store.run(SMOKE, { ok: true, model, server: 'everything' });
    await requested(fixture);
    const request = fixture.requests.shift()!;
    expect([request.method, request.params]).toEqual(['tools/call', { name: 'echo', arguments: { message: 'hi' } }]);
    expect(store.getSnapshot().runs.smoke).toMatchObject({ running: true, server: 'everything', session: 's' });
    // The answer first, its frames just after (the proxy's order for a tab that is sent results inline).
    request.answer({ ok: true, result: { content: [{ type: 'text', text: 'Echo: ho' }] }, durationMs: 12, rpcId: 5 });
    fixture.frames(
      { dir: 'out', rpc: 'request', id: 5, method: 'tools/call', raw: '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}' },
      { dir: 'in', rpc: 'notification', method: 'notifications/message', raw: '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}' },
      { dir: 'in', rpc: 'response', id: 5, raw: '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"Echo: ho"}]}}' },
    );
    const done = await run;
    const call = done.calls[0];
    expect(call.status).toBe('failed');
    const failed = call.assertions.find((a) => !a.ok)!;
    expect([failed.path, failed.expected, failed.actual]).toEqual(['$.content[0].text', 'Echo: hi', 'Echo: ho']);
    expect(call.assertions.find((a) => 'notification' in a.assertion)?.ok).toBe(true);
    expect(call.outcome?.frames).toEqual({ session: 's', request: 100, response: 102 });
    expect(done.verdict?.counts).toMatchObject({ failed: 1, passed: 0 });
    expect([follows, released]).toEqual([['s'], ['s']]);
    expect(store.getSnapshot().runs.smoke.running).toBe(false);
  });

  it('says why a collection cannot run, and a stopped run cancels the call in flight', async () => {
    const { fixture, model, store } = setup();
    const refused = await store.run(SMOKE, { ok: false, error: 'no such server' });
    expect(refused).toMatchObject({ running: false, error: 'no such server' });
    const run = store.run(SMOKE, { ok: true, model, server: 'x' });
    await requested(fixture);
    store.stop();
    expect(fixture.cancels).toEqual([fixture.requests[0].id]);
    fixture.requests[0].answer({ ok: false, error: { code: 'CANCELLED', message: 'Cancelled' }, durationMs: 1 });
    expect((await run).calls[0].status).toBe('skipped');
    store.rename('smoke', 'daily');
    expect(Object.keys(store.getSnapshot().runs)).toEqual(['daily']);
    store.forget('daily');
    expect(store.getSnapshot().runs).toEqual({});
  });
});
