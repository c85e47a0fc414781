import { describe, expect, it } from 'vitest';
import { PortFixture } from '../_wire/port-fixture.ts';
import { changed, requestOf, SavedCallsStore, stableText } from './saved-calls-store.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('saved calls', () => {
  it('each kind makes its MCP request', () => {
    expect(requestOf({ name: 'a', kind: 'tool', target: 'echo', arguments: { message: 'x' } })).toEqual({ method: 'tools/call', params: { name: 'echo', arguments: { message: 'x' } } });
    expect(requestOf({ name: 'b', kind: 'resource', target: 'demo://1' })).toEqual({ method: 'resources/read', params: { uri: 'demo://1' } });
    expect(requestOf({ name: 'c', kind: 'prompt', target: 'p' })).toEqual({ method: 'prompts/get', params: { name: 'p', arguments: {} } });
  });

  it('key order does not make a result differ', () => {
    expect(stableText({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(stableText({ a: [{ c: 3, d: 2 }], b: 1 }));
    expect(stableText({ a: 1 })).not.toBe(stableText({ a: 2 }));
  });

  it('run all runs in order, keeps the previous outcome, and marks only what changed', async () => {
    const fixture = new PortFixture();
    fixture.connect();
    const store = new SavedCallsStore(fixture.port);
    const calls = [
      { name: 'graph', kind: 'tool' as const, target: 'read_graph', arguments: {} },
      { name: 'echo', kind: 'tool' as const, target: 'echo', arguments: { message: 'hi' } },
    ];
    const runAll = async (graph: unknown) => {
      const done = store.runAll(calls);
      await tick();
      expect(store.getSnapshot().runningAll).toBe(true);
      fixture.answer('tools/call', graph);
      await tick();
      fixture.answer('tools/call', { content: [{ type: 'text', text: 'Echo: hi' }] });
      await done;
    };
    await runAll({ entities: [] });
    expect(changed(store.getSnapshot().results.graph)).toBe(false);
    await runAll({ entities: [{ name: 'Loupe' }] });
    const { results, runningAll } = store.getSnapshot();
    expect(runningAll).toBe(false);
    expect(changed(results.graph)).toBe(true);
    expect(results.graph.previous?.text).toContain('"entities": []');
    expect(results.graph.latest?.text).toContain('Loupe');
    expect(changed(results.echo)).toBe(false);
    expect(results.echo.previous).toBeDefined();
  });

  it('an error is an outcome to compare; a renamed call keeps its results, a deleted one drops them', async () => {
    const fixture = new PortFixture();
    fixture.connect();
    const store = new SavedCallsStore(fixture.port);
    const call = { name: 'r', kind: 'resource' as const, target: 'demo://gone' };
    const run = store.run(call);
    await tick();
    fixture.requests.shift()?.answer({ ok: false, error: { code: -32002, message: 'Resource not found' }, durationMs: 1 });
    await run;
    expect(store.getSnapshot().results.r.latest).toMatchObject({ ok: false, text: 'Error -32002: Resource not found' });
    store.rename('r', 's');
    expect(store.getSnapshot().results.s.latest?.ok).toBe(false);
    store.forget('s');
    expect(store.getSnapshot().results).toEqual({});
  });
});
