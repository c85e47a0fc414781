import { describe, expect, it } from 'vitest';
import type { ModelReply, PlaygroundTool } from '../../lib/playground/types.ts';
import type { ClientMessage } from '../../lib/wire/wire.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';
import { EvalsStore } from './evals-store.ts';
import type { RunHost } from './playground-run.ts';
import type { SendContext } from './playground-store.ts';

/** The fixture host, with the session request path: the test answers each request. */
class Host extends MessageHostFixture implements RunHost {
  readonly requests: { session: string; method: string; params?: Record<string, unknown>; answer(outcome: RequestOutcome): void }[] = [];
  request(session: string, method: string, params?: Record<string, unknown>): Promise<RequestOutcome> {
    return new Promise((answer) => this.requests.push({ session, method, params, answer }));
  }
  cancel(): void {}
  all<T extends ClientMessage['type']>(type: T): Extract<ClientMessage, { type: T }>[] {
    return this.sent.filter((m) => m.type === type) as Extract<ClientMessage, { type: T }>[];
  }
}

const SUM: PlaygroundTool = { name: 'get-sum', server: 'everything', tool: 'get-sum', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, readOnly: true };
const CTX: SendContext = { tools: [SUM], sessions: { everything: 's1' }, record: 's1' };
const LOCAL = 'openai-compatible:http://127.0.0.1:9/v1#script-eval';
const callsSum = (a: number): ModelReply => ({ message: { role: 'assistant', parts: [{ type: 'tool_call', call: { id: `c${a}`, name: 'get-sum', arguments: { a, b: 3 }, argumentsText: JSON.stringify({ a, b: 3 }) } }] }, stopReason: 'tool_use', usage: { inputTokens: 10, outputTokens: 5 } });
const says = (text: string): ModelReply => ({ message: { role: 'assistant', parts: [{ type: 'text', text }] }, stopReason: 'end', usage: { inputTokens: 20, outputTokens: 7 } });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('EvalsStore', () => {
  it('takes the workspace’s evals until the person edits, and keeps an edit from another tab’s save', () => {
    const host = new Host();
    const store = new EvalsStore(host);
    const evals = { cases: [{ name: 'sum', prompt: 'add 2 and 3', expect: { answerContains: ['5'] } }] };
    host.deliver({ type: 'workspace', workspace: { flavour: 'mcpServers', savedCalls: {}, inputsNeeded: [], notes: [], evals } });
    expect(store.getSnapshot().draft.cases.map((c) => c.name)).toEqual(['sum']);
    store.setCase(0, { prompt: 'add 2 and 3, please' });
    host.deliver({ type: 'workspace', workspace: { flavour: 'mcpServers', savedCalls: {}, inputsNeeded: [], notes: [] } });
    expect(store.getSnapshot().draft.cases[0].prompt).toBe('add 2 and 3, please');
    expect(store.saveToWorkspace()).toBe(true);
    expect(host.all('set-evals').at(-1)?.evals).toEqual({ cases: [{ name: 'sum', prompt: 'add 2 and 3, please', expect: { answerContains: ['5'] } }] });
  });

  it('runs each case with each ticked model through playground-call and tools/call, and adds the verdicts up', async () => {
    const host = new Host();
    const store = new EvalsStore(host);
    store.addCase();
    store.setCase(0, { name: 'sum', prompt: 'add 2 and 3', tools: [{ name: 'get-sum', arguments: '{"a": 2}' }], answerContains: '5' });
    expect(store.addModel('gpt-4o')).toMatch(/does not start with a provider/);
    expect(store.runProblem(CTX, [])).toBe('Tick a model to run the cases with: set one up above, or add one under Models.');
    store.choose('anthropic:claude-x', false);
    expect(store.run(CTX, { env: [], memory: [{ apiKeyRef: 'memory:k1', provider: 'openai-compatible', origin: 'http://127.0.0.1:9' }] }, [LOCAL, 'anthropic:claude-x'])).toBe(true);

    // One model ticked: its call names the typed key by reference, records in the first server's session, and is not streamed.
    const first = host.all('playground-call')[0];
    expect(first).toMatchObject({ session: 's1', stream: false, config: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'script-eval', apiKeyRef: 'memory:k1' } });
    host.deliver({ type: 'playground-reply', requestId: first.requestId, reply: callsSum(4), latencyMs: 5 });
    await tick();
    expect(host.requests[0]).toMatchObject({ session: 's1', method: 'tools/call', params: { name: 'get-sum', arguments: { a: 4, b: 3 } } });
    host.requests[0].answer({ ok: true, result: { content: [{ type: 'text', text: 'The sum of 4 and 3 is 7.' }] }, durationMs: 1 });
    await tick();
    host.deliver({ type: 'playground-reply', requestId: host.all('playground-call')[1].requestId, reply: says('It is 7.'), latencyMs: 5 });
    await tick();
    const state = store.getSnapshot();
    expect(state.running).toBe(false);
    expect(state.records.map((r) => [r.model, r.verdict.reasons])).toEqual([[LOCAL, ['"get-sum" called with arguments.a = 4, expected 2', 'answer lacks "5"']]]);
    expect(state.report?.cells).toMatchObject([{ case: 'sum', model: LOCAL, runs: 1, passes: 0, inputTokens: 30, outputTokens: 12 }]);
  });

  it('a bad case is a sentence and nothing runs; an opened file’s cases replace the draft', () => {
    const host = new Host();
    const store = new EvalsStore(host);
    store.addCase();
    store.setCase(0, { prompt: 'go', tools: [{ name: 'echo', arguments: '{"message": ' }] });
    expect(store.run(CTX, { env: [] }, [LOCAL])).toBe(false);
    expect(store.getSnapshot().problem).toMatch(/^Case 1, expected tool 1: the arguments are not JSON/);
    expect(host.all('playground-call')).toHaveLength(0);
    expect(store.open('bad.json', '{ "cases": 1 }')).toBe(false);
    expect(store.getSnapshot().problem).toMatch(/^bad\.json: The eval file is not valid: cases:/);
    expect(store.open('good.jsonc', '// ok\n{ "cases": [{ "name": "a", "prompt": "b", "expect": {} }], "models": ["openai:gpt-x"] }')).toBe(true);
    expect(store.getSnapshot()).toMatchObject({ note: 'Opened good.jsonc: 1 case.', draft: { models: ['openai:gpt-x'] } });
    expect(store.exportText()).toBe('{\n  "cases": [\n    {\n      "name": "a",\n      "prompt": "b",\n      "expect": {}\n    }\n  ],\n  "models": [\n    "openai:gpt-x"\n  ]\n}\n');
  });
});
