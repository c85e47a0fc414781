import { describe, expect, it } from 'vitest';
import { advance, createLoop, loopSteps, totalUsage, type LoopEffect, type LoopEvent, type LoopOptions, type LoopState } from './loop.ts';
import { buildToolset, type ModelReply, type ToolCall } from './types.ts';

const echoTool = { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }, annotations: { readOnlyHint: true } };
const writeTool = { name: 'write', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };

function loop(options: Partial<LoopOptions> = {}, servers = [{ name: 'everything', tools: [echoTool, writeTool] }]): LoopState {
  return createLoop({ tools: buildToolset(servers).tools, system: 'Be brief.', options });
}

const call = (id: string, name: string, args: Record<string, unknown> | string): ToolCall =>
  typeof args === 'string' ? { id, name, argumentsText: args, arguments: {}, argumentsError: 'the arguments are not valid JSON' } : { id, name, arguments: args, argumentsText: JSON.stringify(args) };

const reply = (calls: ToolCall[], text = ''): ModelReply => ({
  message: { role: 'assistant', parts: [...(text ? [{ type: 'text' as const, text }] : []), ...calls.map((c) => ({ type: 'tool_call' as const, call: c }))] },
  stopReason: calls.length ? 'tool_use' : 'end',
  usage: { inputTokens: 10, outputTokens: 5 },
});

/** Feeds events in order; returns the final state and every effect, in order. */
function run(state: LoopState, events: LoopEvent[]): { state: LoopState; effects: LoopEffect[] } {
  const effects: LoopEffect[] = [];
  for (const event of events) {
    const next = advance(state, event);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const send = (text: string, at = 0): LoopEvent => ({ type: 'user-message', text, at });
const answer = (r: ModelReply, at = 0): LoopEvent => ({ type: 'model-reply', reply: r, at });
const ok = (callId: string, text: string, at = 0): LoopEvent => ({ type: 'tool-result', callId, result: { content: [{ type: 'text', text }], isError: false }, at });

describe('the loop, step by step', () => {
  it('asks the model, waits for approval, calls the tool, gives the result back, and finishes', () => {
    let s = loop();
    let t = advance(s, send('echo hi', 1000));
    expect(t.state.status).toBe('awaiting-model');
    expect(t.effects).toEqual([{ type: 'call-model', step: 1, request: { system: 'Be brief.', messages: [{ role: 'user', text: 'echo hi' }], tools: s.tools } }]);
    s = t.state;
    t = advance(s, answer(reply([call('c1', 'echo', { message: 'hi' })], 'Echoing.'), 1250));
    expect(t.state.status).toBe('awaiting-approval');
    expect(t.effects).toEqual([{ type: 'ask-approval', callIds: ['c1'] }]);
    t = advance(t.state, { type: 'approval', callId: 'c1', decision: 'approve', at: 1300 });
    expect(t.state.status).toBe('calling-tool');
    expect(t.effects).toEqual([{ type: 'call-tool', callId: 'c1', server: 'everything', tool: 'echo', arguments: { message: 'hi' } }]);
    t = advance(t.state, ok('c1', 'Echo: hi', 1400));
    expect(t.state.status).toBe('awaiting-model');
    expect(t.effects).toMatchObject([{ type: 'call-model', step: 2 }]);
    const request = (t.effects[0] as Extract<LoopEffect, { type: 'call-model' }>).request;
    expect(request.messages.at(-1)).toEqual({ role: 'tool', results: [{ callId: 'c1', content: [{ type: 'text', text: 'Echo: hi' }], isError: false }] });
    t = advance(t.state, answer(reply([], 'It said: Echo: hi'), 2000));
    expect(t.state.status).toBe('done');
    expect(t.effects).toEqual([{ type: 'finish', status: 'done', reason: undefined }]);

    const final = t.state;
    expect(final.turns.map((turn) => [turn.step, turn.latencyMs, turn.usage])).toEqual([
      [1, 250, { inputTokens: 10, outputTokens: 5 }],
      [2, 600, { inputTokens: 10, outputTokens: 5 }],
    ]);
    expect(final.turns[0].calls[0]).toMatchObject({ status: 'done', approvedBy: 'user', startedAt: 1300, finishedAt: 1400 });
    expect(totalUsage(final)).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(loopSteps(final).map((step) => (step.kind === 'think' ? `think ${step.text}` : step.kind === 'act' ? `act ${step.call.call.name}` : `observe ${step.text}`))).toEqual([
      'think Echoing.',
      'act echo',
      'observe Echo: hi',
      'think It said: Echo: hi',
    ]);
  });

  it('a denied call goes back as an explained refusal, and the model goes on', () => {
    const { state, effects } = run(loop(), [send('write'), answer(reply([call('c1', 'write', { path: '/x' })])), { type: 'approval', callId: 'c1', decision: 'deny', at: 0 }]);
    expect(state.status).toBe('awaiting-model');
    expect(effects.some((e) => e.type === 'call-tool')).toBe(false);
    expect(state.messages.at(-1)).toEqual({
      role: 'tool',
      results: [{ callId: 'c1', isError: true, content: [{ type: 'text', text: 'The user denied this call to "write", so it was not made. Do not repeat it unless the user asks; say what you wanted it for, or find another way.' }] }],
    });
    expect(state.turns[0].calls[0].status).toBe('denied');
  });

  it('a denial may carry its own words for the model (an eval refusing a forbidden tool)', () => {
    const why = 'The call to "write" was refused and not made: this eval forbids it.';
    const { state } = run(loop(), [send('write'), answer(reply([call('c1', 'write', { path: '/x' })])), { type: 'approval', callId: 'c1', decision: 'deny', why, at: 0 }]);
    expect(state.turns[0].calls[0]).toMatchObject({ status: 'denied', problem: why, result: { isError: true, content: [{ type: 'text', text: why }] } });
  });

  it('an unknown tool, arguments that are not JSON and arguments that fail the schema go back as errors the model can act on', () => {
    const calls = [call('u', 'nope', {}), call('j', 'echo', '{"message": '), call('s', 'echo', { message: 7 })];
    const { state, effects } = run(loop(), [send('go'), answer(reply(calls))]);
    expect(effects.filter((e) => e.type !== 'call-model')).toEqual([]);
    expect(state.status).toBe('awaiting-model');
    const texts = state.turns[0].calls.map((c) => [c.status, c.result?.content[0].text]);
    expect(texts).toEqual([
      ['rejected', 'There is no tool named "nope"; the call was not made. The tools you can call are: echo, write.'],
      ['rejected', 'The call to "echo" was not made: the arguments are not valid JSON. Send the arguments as one JSON object that matches the tool\'s input schema.'],
      ['rejected', 'The call to "echo" was not made: its arguments do not match the tool\'s input schema (/message must be string). Fix the arguments and call it again.'],
    ]);
    expect(state.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ callId: 'u', isError: true }, { callId: 'j', isError: true }, { callId: 's', isError: true }] });
  });

  it('parallel calls: rejected ones wait for the approved ones, and results go back in call order', () => {
    const calls = [call('a', 'echo', { message: '1' }), call('b', 'nope', {}), call('c', 'echo', { message: '2' })];
    let t = run(loop({ approveEvery: true }), [send('go'), answer(reply(calls))]);
    expect(t.effects.filter((e) => e.type === 'call-tool').map((e) => e.type === 'call-tool' && e.callId)).toEqual(['a', 'c']);
    t = run(t.state, [ok('c', 'two')]);
    expect(t.state.status).toBe('calling-tool');
    expect(t.effects).toEqual([]);
    t = run(t.state, [ok('a', 'one')]);
    expect(t.state.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ callId: 'a', content: [{ text: 'one' }] }, { callId: 'b', isError: true }, { callId: 'c', content: [{ text: 'two' }] }] });
    expect(t.state.turns[0].calls.map((c) => c.approvedBy)).toEqual(['every-call', undefined, 'every-call']);
  });

  it('"Always for this tool" approves the waiting calls of that tool, and later ones, but not other tools', () => {
    const calls = [call('a', 'write', { path: '1' }), call('b', 'write', { path: '2' }), call('c', 'echo', { message: 'x' })];
    let t = run(loop(), [send('go'), answer(reply(calls)), { type: 'approval', callId: 'a', decision: 'always', at: 0 }]);
    expect(t.state.turns[0].calls.map((c) => c.status)).toEqual(['approved', 'approved', 'awaiting-approval']);
    expect(t.effects.filter((e) => e.type === 'ask-approval')).toHaveLength(1);
    t = run(t.state, [{ type: 'approval', callId: 'c', decision: 'approve', at: 0 }, ok('a', '1'), ok('b', '2'), ok('c', '3'), answer(reply([call('d', 'write', { path: '3' })]))]);
    expect(t.state.status).toBe('calling-tool');
    expect(t.state.turns[1].calls[0]).toMatchObject({ status: 'running', approvedBy: 'always' });
  });

  it('auto-approves tools annotated read-only only when asked to', () => {
    const echoCall = reply([call('a', 'echo', { message: 'x' })]);
    expect(run(loop(), [send('go'), answer(echoCall)]).state.status).toBe('awaiting-approval');
    const auto = run(loop({ autoApproveReadOnly: true }), [send('go'), answer(echoCall)]);
    expect(auto.state.status).toBe('calling-tool');
    expect(auto.state.turns[0].calls[0].approvedBy).toBe('read-only');
    expect(run(loop({ autoApproveReadOnly: true }), [send('go'), answer(reply([call('a', 'write', {})]))]).state.status).toBe('awaiting-approval');
  });

  it('stops at the step limit and lets the user go on', () => {
    const events: LoopEvent[] = [send('loop')];
    for (let i = 1; i <= 3; i++) events.push(answer(reply([call(`c${i}`, 'echo', { message: 'x' })])), ok(`c${i}`, 'x'));
    const { state, effects } = run(loop({ maxSteps: 3, approveEvery: true }), events);
    expect(state.status).toBe('stopped');
    expect(state.reason).toBe('Stopped after 3 model calls (the step limit); send a message to let the model go on.');
    expect(effects.filter((e) => e.type === 'call-model')).toHaveLength(3);
    expect(effects.at(-1)).toEqual({ type: 'finish', status: 'stopped', reason: state.reason });
    const again = advance(state, send('go on'));
    expect(again.effects).toMatchObject([{ type: 'call-model', step: 1 }]);
  });

  it('Stop during a call cancels it and answers every open call, so the history stays valid', () => {
    const calls = [call('a', 'echo', { message: 'x' }), call('b', 'write', { path: 'y' })];
    let t = run(loop({ autoApproveReadOnly: true }), [send('go'), answer(reply(calls))]);
    expect(t.state.status).toBe('awaiting-approval');
    t = run(t.state, [{ type: 'approval', callId: 'b', decision: 'approve', at: 0 }]);
    expect(t.state.turns[0].calls.map((c) => c.status)).toEqual(['running', 'running']);
    t = run(t.state, [ok('a', 'x'), { type: 'stop', at: 5 }]);
    expect(t.effects).toEqual([
      { type: 'cancel-tool', callId: 'b', server: 'everything' },
      { type: 'finish', status: 'stopped', reason: 'Stopped by the user.' },
    ]);
    expect(t.state.status).toBe('stopped');
    expect(t.state.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ callId: 'a', isError: false }, { callId: 'b', isError: true }] });
    // A late result changes nothing.
    expect(advance(t.state, ok('b', 'late')).state).toBe(t.state);
  });

  it('Stop while the model thinks cancels the request; a model error fails the turn in its words', () => {
    const stopped = run(loop(), [send('go', 0), { type: 'stop', at: 40 }]);
    expect(stopped.effects.slice(1)).toEqual([{ type: 'cancel-model' }, { type: 'finish', status: 'stopped', reason: 'Stopped by the user.' }]);
    expect(stopped.state.turns[0]).toMatchObject({ error: 'Stopped before the model answered.', latencyMs: 40 });
    const failed = run(loop(), [send('go'), { type: 'model-error', message: 'The provider refused the API key.', at: 0 }]);
    expect(failed.state).toMatchObject({ status: 'failed', reason: 'The provider refused the API key.' });
    expect(loopSteps(failed.state)).toMatchObject([{ kind: 'think', error: 'The provider refused the API key.', pending: false }]);
  });

  it('a failing tool call goes back to the model as an error result', () => {
    const { state } = run(loop({ approveEvery: true }), [send('go'), answer(reply([call('a', 'echo', { message: 'x' })])), { type: 'tool-error', callId: 'a', message: 'the server exited', at: 0 }]);
    expect(state.turns[0].calls[0]).toMatchObject({ status: 'failed', problem: 'the server exited' });
    expect(state.messages.at(-1)).toEqual({ role: 'tool', results: [{ callId: 'a', isError: true, content: [{ type: 'text', text: 'Calling "echo" failed: the server exited' }] }] });
  });

  it('ignores a second Send while busy, and events that do not fit', () => {
    const busy = advance(loop(), send('one')).state;
    expect(advance(busy, send('two')).state).toBe(busy);
    expect(advance(busy, { type: 'approval', callId: 'x', decision: 'approve', at: 0 }).state).toBe(busy);
    expect(advance(loop(), send('   ')).effects).toEqual([]);
  });
});

describe('buildToolset', () => {
  it('keeps names for one server, namespaces them for several, and maps back to server and tool', () => {
    expect(buildToolset([{ name: 'a', tools: [echoTool] }]).tools.map((t) => t.name)).toEqual(['echo']);
    const { tools, notes } = buildToolset([
      { name: 'my server', tools: [echoTool] },
      { name: 'b', tools: [echoTool, { name: 'x.y', inputSchema: { type: 'object' } }] },
    ]);
    expect(tools.map((t) => [t.name, t.server, t.tool, t.readOnly])).toEqual([
      ['my_server__echo', 'my server', 'echo', true],
      ['b__echo', 'b', 'echo', true],
      ['b__x_y', 'b', 'x.y', false],
    ]);
    expect(notes).toEqual(['"my server__echo" is shown to the model as "my_server__echo".', '"b__x.y" is shown to the model as "b__x_y".']);
  });

  it('leaves out the tools that are for a server’s views only (MCP Apps visibility without "model"), and says so', () => {
    const appOnly = { name: 'counter_add', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } };
    const both = { name: 'counter', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://apps/counter', visibility: ['model', 'app'] } } };
    const { tools, notes } = buildToolset([{ name: 'apps', tools: [appOnly, both, echoTool] }]);
    expect(tools.map((t) => t.name)).toEqual(['counter', 'echo']);
    expect(notes).toEqual(['apps: 1 tool is for the server\'s views only (MCP Apps visibility without "model"), not offered to the model.']);
  });
});
