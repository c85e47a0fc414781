import { describe, expect, it } from 'vitest';
import { assertionLabel, checkAssertion, textsOf } from './assertions.ts';
import type { Assertion, PortOutcome } from './types.ts';

const answer = (result: unknown, extra: Partial<PortOutcome> = {}): PortOutcome => ({ ok: true, result, durationMs: 12, notifications: [], ...extra });
const echo = answer({ content: [{ type: 'text', text: 'Echo: ho' }, { type: 'text', text: 'second' }], structuredContent: { sum: 5, ratio: 2.5, list: [1, 2, 'x'], none: null } });
const rpcError: PortOutcome = { ok: false, error: { code: -32602, message: 'Invalid params: message is required' }, durationMs: 3, notifications: [] };

async function check(a: Assertion, outcome = echo, outputSchema?: unknown) {
  return checkAssertion(a, { outcome, outputSchema });
}

describe('checkAssertion', () => {
  it('equals: deep equality, with the path, the expected and the actual value in the sentence', async () => {
    expect(await check({ path: '$.content[0].text', equals: 'Echo: ho' })).toMatchObject({ ok: true, label: '$.content[0].text equals "Echo: ho"' });
    expect(await check({ path: '$.content[0].text', equals: 'Echo: hi' })).toEqual({
      assertion: { path: '$.content[0].text', equals: 'Echo: hi' },
      ok: false,
      label: '$.content[0].text equals "Echo: hi"',
      path: '$.content[0].text',
      expected: 'Echo: hi',
      actual: 'Echo: ho',
      message: 'at $.content[0].text expected "Echo: hi", found "Echo: ho"',
    });
    expect(await check({ path: '$.structuredContent', equals: { list: [1, 2, 'x'], none: null, ratio: 2.5, sum: 5 } })).toMatchObject({ ok: true });
    expect(await check({ path: '$.structuredContent.list', equals: [1, 2] })).toMatchObject({ ok: false, message: 'at $.structuredContent.list expected [1,2], found [1,2,"x"]' });
    expect(await check({ path: '$.nope', equals: 1 })).toMatchObject({ ok: false, path: '$.nope', actual: undefined, message: 'at $.nope expected 1, found nothing' });
  });

  it('a path that selects several values holds only when each one does, and names the first that does not', async () => {
    expect(await check({ path: '$.content[*].type', equals: 'text' })).toMatchObject({ ok: true });
    expect(await check({ path: '$.content[*].text', matches: '^Echo' })).toMatchObject({ ok: false, path: '$.content[1].text', message: 'at $.content[1].text expected text matching /^Echo/, found "second"' });
  });

  it('matches: a regular expression on text (numbers and booleans as their text); long text is not tested, and says so', async () => {
    expect(await check({ path: '$.content[0].text', matches: '^Echo: h.$' })).toMatchObject({ ok: true, label: '$.content[0].text matches /^Echo: h.$/' });
    expect(await check({ path: '$.structuredContent.sum', matches: '^\\d+$' })).toMatchObject({ ok: true });
    expect(await check({ path: '$.structuredContent.list', matches: '1' })).toMatchObject({ ok: false, message: 'at $.structuredContent.list expected text matching /1/, found [1,2,"x"]' });
    expect(await check({ path: '$.missing', matches: 'x' })).toMatchObject({ ok: false, message: 'at $.missing expected text matching /x/, found nothing' });
    const long = answer({ content: [{ type: 'text', text: 'a'.repeat(5000) }] });
    expect(await check({ path: '$.content[0].text', matches: 'a' }, long)).toMatchObject({ ok: false, message: 'at $.content[0].text the text is 5000 characters long; a pattern is tested on text of at most 4096 (check long text with textContains or equals)' });
    expect(await check({ path: '$.content[0].text', matches: '(a+)+$' })).toMatchObject({ ok: false, message: expect.stringContaining('could stall') });
  });

  it('type: JSON types, integer apart from number', async () => {
    expect(await check({ path: '$.structuredContent.sum', type: 'integer' })).toMatchObject({ ok: true, label: '$.structuredContent.sum is an integer' });
    expect(await check({ path: '$.structuredContent.sum', type: 'number' })).toMatchObject({ ok: true });
    expect(await check({ path: '$.structuredContent.ratio', type: 'integer' })).toMatchObject({ ok: false, message: 'at $.structuredContent.ratio expected an integer, found a number (2.5)' });
    expect(await check({ path: '$.structuredContent.none', type: 'null' })).toMatchObject({ ok: true });
    expect(await check({ path: '$.structuredContent.list', type: 'object' })).toMatchObject({ ok: false, message: 'at $.structuredContent.list expected an object, found an array ([1,2,"x"])' });
    expect(await check({ path: '$.content', type: 'array' })).toMatchObject({ ok: true });
  });

  it('exists', async () => {
    expect(await check({ path: '$.structuredContent.none', exists: true })).toMatchObject({ ok: true, label: '$.structuredContent.none exists' });
    expect(await check({ path: '$.nextCursor', exists: false })).toMatchObject({ ok: true, label: '$.nextCursor is absent' });
    expect(await check({ path: '$.structuredContent.sum', exists: false })).toMatchObject({ ok: false, message: 'at $.structuredContent.sum expected nothing, found 5' });
    expect(await check({ path: '$..cursor', exists: true })).toMatchObject({ ok: false, message: 'at $..cursor expected a value, found nothing' });
  });

  it('isError: a tool result with isError, or a JSON-RPC error; $ of a JSON-RPC error is the error object', async () => {
    expect(await check({ isError: false })).toMatchObject({ ok: true, label: 'the result is not an error' });
    expect(await check({ isError: true })).toMatchObject({ ok: false, message: 'expected an error, found a result without isError' });
    const toolError = answer({ content: [{ type: 'text', text: 'no such city' }], isError: true });
    expect(await check({ isError: true }, toolError)).toMatchObject({ ok: true });
    expect(await check({ isError: false }, toolError)).toMatchObject({ ok: false, message: 'expected no error, found isError: true ("no such city")' });
    expect(await check({ isError: true }, rpcError)).toMatchObject({ ok: true });
    expect(await check({ isError: false }, rpcError)).toMatchObject({ ok: false, message: 'expected no error, found the JSON-RPC error -32602 "Invalid params: message is required"' });
    expect(await check({ path: '$.code', equals: -32602 }, rpcError)).toMatchObject({ ok: true });
  });

  it('no answer at all (Loupe could not make the call): every assertion fails and says why', async () => {
    const none: PortOutcome = { ok: false, error: { code: 'TIMEOUT', message: 'No answer within 100 ms.' }, durationMs: 100, notifications: [] };
    expect(await check({ isError: true }, none)).toMatchObject({ ok: false, message: 'no answer to check: No answer within 100 ms.' });
  });

  it('textContains: any text content of a tool, a resource or a prompt', async () => {
    expect(await check({ textContains: 'cond' })).toMatchObject({ ok: true, label: 'a text content contains "cond"' });
    expect(await check({ textContains: 'hi' })).toMatchObject({ ok: false, message: 'expected a text content containing "hi", found 2 texts, the first "Echo: ho"' });
    expect(await check({ textContains: 'x' }, answer({}))).toMatchObject({ ok: false, message: 'expected a text content containing "x", found no text content' });
    expect(textsOf({ contents: [{ uri: 'a', text: 'resource' }, { uri: 'b', blob: 'AA' }] })).toEqual(['resource']);
    expect(textsOf({ messages: [{ role: 'user', content: { type: 'text', text: 'one' } }, { role: 'user', content: [{ type: 'text', text: 'two' }] }] })).toEqual(['one', 'two']);
  });

  it('durationUnderMs, notification, refusedByRule', async () => {
    expect(await check({ durationUnderMs: 13 })).toMatchObject({ ok: true, label: 'answered in under 13 ms' });
    expect(await check({ durationUnderMs: 12 })).toMatchObject({ ok: false, expected: 12, actual: 12, message: 'took 12 ms, expected under 12 ms' });
    const progressed = answer({}, { notifications: [{ method: 'notifications/message' }, { method: 'notifications/progress', params: { progress: 1 } }] });
    expect(await check({ notification: 'notifications/progress' }, progressed)).toMatchObject({ ok: true, label: 'a notifications/progress notification came' });
    expect(await check({ notification: 'notifications/progress' })).toMatchObject({ ok: false, message: 'expected a notifications/progress notification while the call ran, found none' });
    expect(await check({ notification: 'notifications/resources/updated' }, progressed)).toMatchObject({ ok: false, message: 'expected a notifications/resources/updated notification while the call ran, found notifications/message, notifications/progress' });
    const refused = answer({ content: [{ type: 'text', text: 'refused' }], isError: true }, { refusedByRule: 'no deletes' });
    expect(await check({ refusedByRule: true }, refused)).toMatchObject({ ok: true, label: 'refused by a rule' });
    expect(await check({ refusedByRule: 'no deletes' }, refused)).toMatchObject({ ok: true, label: 'refused by the rule "no deletes"' });
    expect(await check({ refusedByRule: 'other' }, refused)).toMatchObject({ ok: false, message: 'expected a refusal by the rule "other", found the rule "no deletes" refused it' });
    expect(await check({ refusedByRule: true })).toMatchObject({ ok: false, message: 'expected a refusal by a rule, found no rule refused the call' });
  });
});

describe('outputSchema', () => {
  const schema = { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' }, readings: { type: 'array', items: { type: 'number' } } }, required: ['temperature', 'conditions'] };
  const weather = (structuredContent: unknown) => answer({ content: [], structuredContent });

  it('validates structuredContent against the tool’s outputSchema', async () => {
    expect(await check({ outputSchema: true }, weather({ temperature: 33, conditions: 'Cloudy' }), schema)).toMatchObject({ ok: true, label: "structuredContent matches the tool's outputSchema" });
  });

  it('names where it breaks the schema', async () => {
    const verdict = await check({ outputSchema: true }, weather({ temperature: 'hot', conditions: 'Cloudy', readings: [1, 'x'] }), schema);
    expect(verdict).toMatchObject({ ok: false, path: '$.structuredContent.temperature', actual: 'hot', message: "at $.structuredContent.temperature structuredContent breaks the tool's outputSchema: must be number (and 1 more)" });
    const missing = await check({ outputSchema: true }, weather({ temperature: 1 }), schema);
    expect(missing).toMatchObject({ ok: false, path: '$.structuredContent.conditions', message: "at $.structuredContent.conditions structuredContent breaks the tool's outputSchema: is required" });
    const inList = await check({ outputSchema: true }, weather({ temperature: 1, conditions: 'x', readings: [1, 'x'] }), schema);
    expect(inList).toMatchObject({ path: '$.structuredContent.readings[1]', actual: 'x' });
  });

  it('says when there is no schema, no structuredContent, or a schema that cannot be used', async () => {
    expect(await check({ outputSchema: true }, weather({}), undefined)).toMatchObject({ ok: false, message: 'the tool declares no outputSchema to validate against' });
    expect(await check({ outputSchema: true }, answer({ content: [] }), schema)).toMatchObject({ ok: false, message: "the result has no structuredContent to validate against the tool's outputSchema" });
    expect(await check({ outputSchema: true }, weather({}), { type: 'string' })).toMatchObject({ ok: false, message: expect.stringMatching(/^the tool's outputSchema cannot be used: outputSchema.type is "string"/) });
  });
});

describe('assertionLabel', () => {
  it('reads as a line of a report', () => {
    expect(assertionLabel({ path: '$.a', type: 'null' })).toBe('$.a is null');
    expect(assertionLabel({ isError: true })).toBe('the result is an error');
  });
});
