import { describe, expect, it } from 'vitest';
import { callFromHistory, generousDuration, isVolatile, proposeAssertions, stableHead, uniqueName } from './propose.ts';
import { checkAssertion } from './assertions.ts';
import type { CollectionCall, PortOutcome } from './types.ts';

const answer = (result: unknown, durationMs = 42): PortOutcome => ({ ok: true, result, durationMs, notifications: [] });
const tool: CollectionCall = { name: 'weather', kind: 'tool', target: 'get-structured-content', arguments: { location: 'Chicago' } };

describe('proposeAssertions', () => {
  it('a tool answer: isError, its contents, its structuredContent leaves, outputSchema, a generous duration', () => {
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    const proposed = proposeAssertions(tool, answer({ content: [{ type: 'text', text: JSON.stringify(weather) }], structuredContent: weather }), { outputSchema: { type: 'object' } });
    expect(proposed).toEqual([
      { isError: false },
      { path: '$.content[0].type', equals: 'text' },
      { path: '$.content[0].text', equals: '{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}' },
      { path: '$.structuredContent.temperature', equals: 36 },
      { path: '$.structuredContent.conditions', equals: 'Light rain / drizzle' },
      { path: '$.structuredContent.humidity', equals: 82 },
      { outputSchema: true },
      { durationUnderMs: 1000 },
    ]);
  });

  it('leaves out what --verify ignores, _meta, and values that look volatile', () => {
    const result = {
      content: [{ type: 'text', text: 'Created at 2025-03-01T10:00:00Z' }],
      structuredContent: {
        id: 'stable-id',
        timestamp: 'yesterday',
        nested: { createdAt: 5, requestId: 'r1', when: '2025-03-01 10:00', uuid: '123e4567-e89b-12d3-a456-426614174000', epoch: 1735689600000, count: 3 },
      },
      _meta: { token: 'x' },
    };
    const proposed = proposeAssertions(tool, answer(result));
    expect(proposed).toEqual([
      { isError: false },
      { path: '$.content[0].type', equals: 'text' },
      { path: '$.structuredContent.id', equals: 'stable-id' },
      { path: '$.structuredContent.nested.count', equals: 3 },
      { durationUnderMs: 1000 },
    ]);
  });

  it('long text is pinned by its stable head; a long string elsewhere by its type', () => {
    const long = `The report for today is ready and it says a great many things, most of them long. ${'x'.repeat(300)}`;
    const proposed = proposeAssertions(tool, answer({ content: [{ type: 'text', text: long }], structuredContent: { body: long } }));
    expect(proposed).toContainEqual({ textContains: 'The report for today is ready and it says a great many things, most of them' });
    expect(proposed).toContainEqual({ path: '$.structuredContent.body', type: 'string' });
    expect(stableHead(`Session 123e4567-e89b-12d3-a456-426614174000 opened; ${'y'.repeat(300)}`)).toBeUndefined();
    expect(stableHead(`Your order has shipped and arrives 2025-03-02T10:00:00Z ${'z'.repeat(300)}`)).toBe('Your order has shipped and arrives');
  });

  it('an error answer: isError true, the JSON-RPC code; an answer never received: nothing', () => {
    const rpc: PortOutcome = { ok: false, error: { code: -32602, message: 'bad' }, durationMs: 5, notifications: [] };
    expect(proposeAssertions(tool, rpc)).toEqual([{ isError: true }, { path: '$.code', equals: -32602 }, { durationUnderMs: 1000 }]);
    const toolError = proposeAssertions(tool, answer({ content: [{ type: 'text', text: 'no such city' }], isError: true }), { outputSchema: {} });
    expect(toolError[0]).toEqual({ isError: true });
    expect(toolError).not.toContainEqual({ outputSchema: true });
    expect(proposeAssertions(tool, { ok: false, error: { code: 'TIMEOUT', message: 'late' }, durationMs: 60_000, notifications: [] })).toEqual([]);
  });

  it('resources, prompts and raw requests', () => {
    const resource: CollectionCall = { name: 'r', kind: 'resource', target: 'demo://resource/static/document/architecture.md' };
    expect(proposeAssertions(resource, answer({ contents: [{ uri: 'demo://x', mimeType: 'text/markdown', text: '# Title' }, { uri: 'demo://b', blob: 'AAAA' }] }))).toEqual([
      { isError: false },
      { path: '$.contents[0].uri', equals: 'demo://x' },
      { path: '$.contents[0].mimeType', equals: 'text/markdown' },
      { path: '$.contents[0].text', equals: '# Title' },
      { path: '$.contents[1].uri', equals: 'demo://b' },
      { path: '$.contents[1].blob', type: 'string' },
      { durationUnderMs: 1000 },
    ]);
    const prompt: CollectionCall = { name: 'p', kind: 'prompt', target: 'simple-prompt' };
    expect(proposeAssertions(prompt, answer({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }))).toEqual([
      { isError: false },
      { path: '$.messages[0].role', equals: 'user' },
      { path: '$.messages[0].content.type', equals: 'text' },
      { path: '$.messages[0].content.text', equals: 'hi' },
      { durationUnderMs: 1000 },
    ]);
    const ping: CollectionCall = { name: 'ping', kind: 'request', target: 'ping' };
    expect(proposeAssertions(ping, answer({}))).toEqual([{ isError: false }, { path: '$', equals: {} }, { durationUnderMs: 1000 }]);
  });

  it('what it proposes holds for the answer it came from', async () => {
    const outcome = answer({ content: [{ type: 'text', text: 'Echo: hi' }, { type: 'image', data: 'AA', mimeType: 'image/png' }], structuredContent: { a: [1, { b: null }], 'odd key': true, empty: [] } }, 300);
    for (const a of proposeAssertions(tool, outcome, { outputSchema: { type: 'object' } })) {
      const verdict = await checkAssertion(a, { outcome, outputSchema: { type: 'object' } });
      expect(verdict.ok, `${verdict.label}: ${verdict.message}`).toBe(true);
    }
  });

  it('caps the leaves of a large answer', () => {
    const big = { structuredContent: { items: Array.from({ length: 1000 }, (_, i) => ({ i })) } };
    expect(proposeAssertions(tool, answer(big)).filter((a) => 'path' in a).length).toBeLessThanOrEqual(20);
  });
});

describe('the small rules', () => {
  it('generousDuration: ten times, at least a second, rounded up', () => {
    expect([5, 99, 120, 312, 1234, 40_000].map(generousDuration)).toEqual([1000, 1000, 1500, 3500, 15_000, 400_000]);
  });
  it('isVolatile', () => {
    expect(isVolatile(['serverInfo', 'version'], '1.0')).toBe(true);
    expect(isVolatile(['tool', 'version'], '1.0')).toBe(false);
    expect(isVolatile(['a', 'sessionId'], 'x')).toBe(true);
    expect(isVolatile(['a'], '2025-01-01T00:00:00.000Z')).toBe(true);
    expect(isVolatile(['a'], 42)).toBe(false);
  });
  it('uniqueName', () => {
    expect(uniqueName('echo', ['add'])).toBe('echo');
    expect(uniqueName('echo', ['echo', 'echo 2'])).toBe('echo 3');
  });
});

describe('callFromHistory', () => {
  it('turns a request the page saw into a call, without the per-run progress token', () => {
    expect(callFromHistory('tools/call', { name: 'echo', arguments: { message: 'hi' }, _meta: { progressToken: 3 } })).toEqual({ name: 'echo', kind: 'tool', target: 'echo', arguments: { message: 'hi' } });
    expect(callFromHistory('resources/read', { uri: 'note://1' })).toEqual({ name: 'read note://1', kind: 'resource', target: 'note://1' });
    expect(callFromHistory('prompts/get', { name: 'greet', arguments: { who: 'Ada' } }, 'my prompt')).toEqual({ name: 'my prompt', kind: 'prompt', target: 'greet', arguments: { who: 'Ada' } });
    expect(callFromHistory('ping', undefined)).toEqual({ name: 'ping', kind: 'request', target: 'ping' });
    expect(callFromHistory('logging/setLevel', { level: 'debug', _meta: { progressToken: 1, other: 2 } })).toEqual({ name: 'logging/setLevel', kind: 'request', target: 'logging/setLevel', params: { level: 'debug', _meta: { other: 2 } } });
  });
});
