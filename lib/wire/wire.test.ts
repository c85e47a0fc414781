import { describe, expect, it } from 'vitest';
import { ClientMessageSchema, parseClientMessage } from './wire.ts';
import { readClientText } from './quick-read.ts';

/** What zod makes of a message: the reference the hand-checked fast path must agree with. */
function byZod(value: unknown) {
  const parsed = ClientMessageSchema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false };
}

function byParser(value: unknown) {
  const parsed = parseClientMessage(JSON.stringify(value));
  return parsed.ok ? { ok: true, message: parsed.message } : { ok: false };
}

const base = { type: 'request', session: 's1', id: 'u1', method: 'tools/call' };

describe('parseClientMessage: the request fast path agrees with the schema', () => {
  const cases: [string, unknown][] = [
    ['minimal', base],
    ['with params', { ...base, params: { name: 'echo', arguments: { message: 'hi', deep: { a: [1, 2] } } } }],
    ['every option', { ...base, params: {}, timeoutMs: 5000, resetTimeoutOnProgress: false, maxTotalTimeoutMs: 90000 }],
    ['unknown keys are dropped', { ...base, extra: 1, another: { x: 1 } }],
    ['params an array', { ...base, params: [1, 2] }],
    ['params null', { ...base, params: null }],
    ['params a string', { ...base, params: 'x' }],
    ['id a number', { ...base, id: 7 }],
    ['no session', { type: 'request', id: 'u1', method: 'ping' }],
    ['method missing', { type: 'request', session: 's1', id: 'u1' }],
    ['timeout zero', { ...base, timeoutMs: 0 }],
    ['timeout negative', { ...base, timeoutMs: -5 }],
    ['timeout a string', { ...base, timeoutMs: '5' }],
    ['max total zero', { ...base, maxTotalTimeoutMs: 0 }],
    ['reset not boolean', { ...base, resetTimeoutOnProgress: 'yes' }],
  ];
  for (const [name, value] of cases) {
    it(name, () => {
      expect(byParser(value)).toEqual(byZod(value));
    });
  }

  it('a bad request still gets zod’s words for what is wrong', () => {
    const parsed = parseClientMessage(JSON.stringify({ ...base, timeoutMs: 'soon' }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/timeoutMs/);
  });
});

describe('parseClientMessage: the subscribe fast path agrees with the schema', () => {
  const cases: [string, unknown][] = [
    ['one session', { type: 'subscribe', sessions: ['s1'] }],
    ['all', { type: 'subscribe', sessions: ['*'] }],
    ['none', { type: 'subscribe', sessions: [] }],
    ['unknown keys are dropped', { type: 'subscribe', sessions: ['s1'], extra: true }],
    ['sessions missing', { type: 'subscribe' }],
    ['sessions a string', { type: 'subscribe', sessions: 's1' }],
    ['a number among them', { type: 'subscribe', sessions: ['s1', 2] }],
    ['null among them', { type: 'subscribe', sessions: [null] }],
  ];
  for (const [name, value] of cases) {
    it(name, () => {
      expect(byParser(value)).toEqual(byZod(value));
    });
  }
});

describe('readClientText: what needs no schema', () => {
  it('reads request and subscribe itself, hands every other type to the schemas parsed once, and says when the text is not JSON', () => {
    expect(readClientText(JSON.stringify(base)).ok).toBe(true);
    expect(readClientText(JSON.stringify({ type: 'subscribe', sessions: [] })).ok).toBe(true);
    expect(readClientText(JSON.stringify({ type: 'disconnect', session: 's1' }))).toEqual({ ok: 'schemas', data: { type: 'disconnect', session: 's1' } });
    // A malformed request is not read here: zod's words say what is wrong with it.
    expect(readClientText(JSON.stringify({ ...base, id: 7 })).ok).toBe('schemas');
    expect(readClientText('{')).toEqual({ ok: false, error: 'not JSON' });
  });
});
