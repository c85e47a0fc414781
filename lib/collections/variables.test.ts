import { describe, expect, it } from 'vitest';
import { fillCall, variablesOf } from './variables.ts';
import type { CollectionCall } from './schema.ts';

const call: CollectionCall = {
  name: 'add them',
  kind: 'tool',
  target: '{{tool}}',
  arguments: { a: '{{a}}', b: '{{ b }}', label: 'sum of {{a}} and {{b}} at {{where}}', nested: [{ deep: '{{obj}}' }], '{{key}}': 'keys stay' },
};

describe('fillCall', () => {
  it('puts a whole-string variable in with its type, and a variable inside text as its text', () => {
    const filled = fillCall(call, { tool: 'get-sum', a: 2, b: 3, where: 'home', obj: { x: [1] }, key: 'no' });
    expect(filled).toEqual({
      ok: true,
      call: { target: 'get-sum', arguments: { a: 2, b: 3, label: 'sum of 2 and 3 at home', nested: [{ deep: { x: [1] } }], '{{key}}': 'keys stay' } },
    });
  });

  it('writes a non-string value into text as JSON, and a non-string target as its text', () => {
    const filled = fillCall({ name: 'x', kind: 'request', target: '{{m}}', params: { q: 'id={{o}}', n: null } }, { m: 7, o: { a: 'b' } });
    expect(filled).toEqual({ ok: true, call: { target: '7', params: { q: 'id={"a":"b"}', n: null } } });
  });

  it('names each missing variable and the call, and says where values come from', () => {
    const filled = fillCall(call, { tool: 'get-sum', a: 1, obj: null });
    expect(filled.ok).toBe(false);
    if (filled.ok) return;
    expect(filled.missing).toEqual(['b', 'where']);
    expect(filled.error).toBe(`The call "add them" uses {{b}}, {{where}}, which no variable gives (any of them): set them in the collection's "variables", an earlier call's "extract", or with --var NAME=VALUE.`);
    const one = fillCall({ name: 'read', kind: 'resource', target: 'note://{{id}}' }, {}, { id: 'the call "create" extracts it with $.structuredContent.id, which found nothing' });
    expect(one.ok === false && one.error).toBe(`The call "read" uses {{id}}, which no variable gives: set it in the collection's "variables", an earlier call's "extract", or with --var NAME=VALUE. {{id}}: the call "create" extracts it with $.structuredContent.id, which found nothing.`);
  });

  it('keeps a "__proto__" key a key, and leaves text without braces alone', () => {
    const filled = fillCall({ name: 'p', kind: 'tool', target: 't', arguments: JSON.parse('{"__proto__": "{{v}}", "plain": "a {b} {{ }}"}') as Record<string, unknown> }, { v: 1 });
    expect(filled.ok && Object.hasOwn(filled.call.arguments!, '__proto__')).toBe(true);
    expect(filled.ok && filled.call.arguments!.plain).toBe('a {b} {{ }}');
  });

  it('a variable whose value is null is given (an extract may find null)', () => {
    expect(fillCall({ name: 'n', kind: 'tool', target: 't', arguments: { v: '{{v}}' } }, { v: null })).toEqual({ ok: true, call: { target: 't', arguments: { v: null } } });
  });
});

describe('variablesOf', () => {
  it('lists the names a call uses, once each, in order', () => {
    expect(variablesOf(call)).toEqual(['tool', 'a', 'b', 'where', 'obj']);
  });
});
