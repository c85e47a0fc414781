import { describe, expect, it } from 'vitest';
import type { Rule } from '../model/rules.ts';
import { RuleBook, describeRule } from './rules.ts';

const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const result = (id: number | string, value: unknown = { content: [] }) => JSON.stringify({ jsonrpc: '2.0', id, result: value });
const note = (method: string) => JSON.stringify({ jsonrpc: '2.0', method, params: {} });
const rule = (action: Rule['action'], match: Rule['match'] = {}, extra: Partial<Rule> = {}): Rule => ({ id: 'r1', name: 'test rule', match, action, ...extra });
const book = (rules: Rule[], server?: string, now?: () => number) => new RuleBook(rules, { server, now });

describe('RuleBook matching', () => {
  it('is inactive without enabled rules for this server, and passes everything', () => {
    expect(book([]).active).toBe(false);
    expect(book([rule({ type: 'drop' }, {}, { enabled: false })]).active).toBe(false);
    expect(book([rule({ type: 'drop' }, {}, { server: 'other' })], 'mine').active).toBe(false);
    expect(book([rule({ type: 'drop' }, {}, { server: 'mine' })], 'mine').active).toBe(true);
    expect(book([rule({ type: 'drop' }, {}, { enabled: false })]).decide('to-server', call(1, 'echo'))).toEqual({ kind: 'pass' });
  });

  it('matches by direction', () => {
    const b = book([rule({ type: 'drop' }, { direction: 'to-client' })]);
    expect(b.decide('to-server', note('notifications/initialized')).kind).toBe('pass');
    expect(b.decide('to-client', note('notifications/message')).kind).toBe('drop');
  });

  it('matches by kind', () => {
    const b = book([rule({ type: 'drop' }, { kind: 'notification' })]);
    expect(b.decide('to-server', call(1, 'echo')).kind).toBe('pass');
    expect(b.decide('to-client', result(1)).kind).toBe('pass');
    expect(b.decide('to-client', note('notifications/message')).kind).toBe('drop');
    const responses = book([rule({ type: 'drop' }, { kind: 'response' })]);
    expect(responses.decide('to-client', JSON.stringify({ jsonrpc: '2.0', id: 3, error: { code: 1, message: 'x' } })).kind).toBe('drop');
    expect(responses.decide('to-client', 'not json').kind).toBe('pass');
  });

  it('matches the method with * as a wildcard, a response by its request', () => {
    const b = book([rule({ type: 'drop' }, { method: 'tools/*' })]);
    expect(b.decide('to-server', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/list' })).kind).toBe('pass');
    expect(b.decide('to-client', result(1)).kind).toBe('pass');
    expect(b.decide('to-server', call(2, 'echo')).kind).toBe('drop');
    expect(b.decide('to-client', result(2)).kind).toBe('drop');
    // A response with the same id going the same way as the request is not its answer.
    expect(b.decide('to-server', result(2)).kind).toBe('pass');
    const dotted = book([rule({ type: 'drop' }, { method: 'a.b*' })]);
    expect(dotted.decide('to-server', note('a.bcd')).kind).toBe('drop');
    expect(dotted.decide('to-server', note('axbcd')).kind).toBe('pass');
  });

  it('matches a server request and the response the client sends back', () => {
    const b = book([rule({ type: 'drop' }, { method: 'sampling/createMessage', kind: 'response' })]);
    expect(b.decide('to-client', JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: {} })).kind).toBe('pass');
    expect(b.decide('to-server', result(0)).kind).toBe('drop');
  });

  it('matches the name: the tool, the prompt, the resource URI; a response by its request', () => {
    const b = book([rule({ type: 'drop' }, { name: 'ec*' })]);
    expect(b.decide('to-server', call(1, 'add')).kind).toBe('pass');
    expect(b.decide('to-server', call(2, 'echo')).kind).toBe('drop');
    expect(b.decide('to-client', result(2)).kind).toBe('drop');
    expect(b.decide('to-client', result(1)).kind).toBe('pass');
    expect(b.decide('to-server', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'echo_prompt' } })).kind).toBe('drop');
    const uri = book([rule({ type: 'drop' }, { name: 'file:///secret/*' })]);
    expect(uri.decide('to-server', JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'file:///secret/a' } })).kind).toBe('drop');
    expect(uri.decide('to-server', JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'file:///open/a' } })).kind).toBe('pass');
  });

  it('matches a substring of the exact text', () => {
    const b = book([rule({ type: 'drop' }, { text: '"message":"secret' })]);
    expect(b.decide('to-server', call(1, 'echo', { message: 'hello' })).kind).toBe('pass');
    expect(b.decide('to-server', call(2, 'echo', { message: 'secret stuff' })).kind).toBe('drop');
    expect(b.decide('to-client', 'plain words with "message":"secret').kind).toBe('drop');
  });

  it('matches an argument of tools/call at a dotted path as text (JSON for non-strings)', () => {
    const b = book([rule({ type: 'drop' }, { argument: { path: 'options.path', pattern: '^/etc/' } })]);
    expect(b.decide('to-server', call(1, 'read', { options: { path: '/home/me' } })).kind).toBe('pass');
    expect(b.decide('to-server', call(2, 'read', { options: { path: '/etc/passwd' } })).kind).toBe('drop');
    expect(b.decide('to-server', call(3, 'read', {})).kind).toBe('pass');
    expect(b.decide('to-server', JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 'x', arguments: { options: { path: '/etc/x' } } } })).kind).toBe('pass');
    const numbers = book([rule({ type: 'drop' }, { argument: { path: 'count', pattern: '^[0-9]{3,}$' } })]);
    expect(numbers.decide('to-server', call(1, 'add', { count: 12 })).kind).toBe('pass');
    expect(numbers.decide('to-server', call(2, 'add', { count: 1234 })).kind).toBe('drop');
    const objects = book([rule({ type: 'drop' }, { argument: { path: 'list', pattern: '"rm"' } })]);
    expect(objects.decide('to-server', call(1, 'run', { list: ['ls', 'rm'] })).kind).toBe('drop');
  });

  it('matches a response by its request’s argument', () => {
    const b = book([rule({ type: 'drop' }, { kind: 'response', argument: { path: 'path', pattern: 'secret' } })]);
    expect(b.decide('to-server', call(1, 'read', { path: '/secret' })).kind).toBe('pass');
    expect(b.decide('to-server', call(2, 'read', { path: '/open' })).kind).toBe('pass');
    expect(b.decide('to-client', result(2)).kind).toBe('pass');
    expect(b.decide('to-client', result(1)).kind).toBe('drop');
  });

  it('answers at once when a peer names a tool to stall the name glob (400 characters)', () => {
    const b = book([rule({ type: 'drop' }, { name: '*a*a*a*b' })]);
    const started = performance.now();
    expect(b.decide('to-server', call(1, 'a'.repeat(400))).kind).toBe('pass');
    expect(b.decide('to-server', call(2, `${'a'.repeat(400)}b`)).kind).toBe('drop');
    // A hang detector, far above the microseconds it takes: the RegExp it replaced took seconds.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('never runs a pattern that could stall the proxy, and cannot be slipped past by padding an argument', () => {
    const nested = book([rule({ type: 'drop' }, { argument: { path: 'a', pattern: '(a+)+$' } })]);
    const started = performance.now();
    expect(nested.decide('to-server', call(1, 'x', { a: `${'a'.repeat(28)}!` })).kind).toBe('pass');
    expect(performance.now() - started).toBeLessThan(1_000);
    const tail = book([rule({ type: 'drop' }, { argument: { path: 'a', pattern: 'rm' } })]);
    expect(tail.decide('to-server', call(2, 'x', { a: `${' '.repeat(4094)}rm` })).kind).toBe('drop');
    expect(tail.decide('to-server', call(3, 'x', { a: `${' '.repeat(4093)}ls` })).kind).toBe('pass');
    // Too long to test at a bounded cost: the gate holds (a deny rule cannot be padded past).
    const gate = book([rule({ type: 'deny' }, { argument: { path: 'a', pattern: '\\brm\\b' } })]);
    expect(gate.decide('to-server', call(4, 'x', { a: `${' '.repeat(5000)}rm -rf /` })).kind).toBe('answer');
  });

  it('never throws on a bad regular expression: the rule does not match', () => {
    const b = book([rule({ type: 'drop' }, { argument: { path: 'a', pattern: '([' } })]);
    expect(b.decide('to-server', call(1, 'x', { a: '([' })).kind).toBe('pass');
  });

  it('never throws on text that is not JSON', () => {
    const b = book([rule({ type: 'drop' }, { method: '*' }), rule({ type: 'deny' }), rule({ type: 'error' })]);
    for (const raw of ['', 'x', '[]', 'null', '{"id":{}}', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}']) {
      expect(() => b.decide('to-server', raw)).not.toThrow();
    }
  });

  it('lets the first matching rule decide', () => {
    const b = book([rule({ type: 'delay', ms: 5 }, { name: 'echo' }, { id: 'a' }), rule({ type: 'drop' }, {}, { id: 'b' })]);
    expect(b.decide('to-server', call(1, 'echo'))).toMatchObject({ kind: 'delay', ms: 5, rule: { id: 'a' } });
    expect(b.decide('to-server', call(2, 'add'))).toMatchObject({ kind: 'drop', rule: { id: 'b' } });
  });

  it('scopes rules by server', () => {
    const rules = [rule({ type: 'drop' }, {}, { server: 'everything' })];
    expect(book(rules, 'everything').decide('to-server', call(1, 'echo')).kind).toBe('drop');
    expect(book(rules, 'memory').decide('to-server', call(1, 'echo')).kind).toBe('pass');
  });

  it('names a rule without a name by what it does', () => {
    expect(describeRule({ id: 'r', match: { method: 'tools/call', name: 'write_file' }, action: { type: 'deny' } })).toBe('deny tools/call “write_file”');
    expect(describeRule({ id: 'r', match: {}, action: { type: 'drop' } })).toBe('drop every frame');
  });
});

describe('RuleBook actions', () => {
  it('pause holds', () => {
    expect(book([rule({ type: 'pause' })]).decide('to-server', call(1, 'echo'))).toEqual({ kind: 'hold', rule: { id: 'r1', name: 'test rule', action: 'pause' } });
  });

  it('delay and drop', () => {
    expect(book([rule({ type: 'delay', ms: 250 })]).decide('to-client', result(1))).toMatchObject({ kind: 'delay', ms: 250, what: 'delayed it 250 ms' });
    expect(book([rule({ type: 'drop' })]).decide('to-client', note('notifications/message'))).toMatchObject({ kind: 'drop', what: 'dropped it' });
  });

  it('replace-result: a response gets the result, a request is answered with it', () => {
    const b = book([rule({ type: 'replace-result', result: { content: [{ type: 'text', text: 'fake' }] } }, { name: 'echo' })]);
    expect(b.decide('to-server', JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'add' } })).kind).toBe('pass');
    const answered = b.decide('to-server', call(7, 'echo'));
    expect(answered).toMatchObject({ kind: 'answer' });
    expect(JSON.parse((answered as { raw: string }).raw)).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'fake' }] } });
    // The request was answered by the rule: a late response with its id is not taken for its answer.
    expect(b.decide('to-client', result(7)).kind).toBe('pass');
    const responses = book([rule({ type: 'replace-result', result: { n: 1 } }, { kind: 'response' })]);
    const replaced = responses.decide('to-client', result('x', { n: 0 }));
    expect(replaced).toMatchObject({ kind: 'rewrite', what: 'replaced the result' });
    expect(JSON.parse((replaced as { raw: string }).raw)).toEqual({ jsonrpc: '2.0', id: 'x', result: { n: 1 } });
    // A notification has nothing to replace: the rule lets it pass.
    expect(responses.decide('to-client', note('notifications/message')).kind).toBe('pass');
  });

  it('error: a request is answered with it (defaults), a response turned into it', () => {
    const b = book([rule({ type: 'error' })]);
    const answered = b.decide('to-server', call(1, 'echo'));
    expect(answered).toMatchObject({ kind: 'answer', what: 'answered it with error -32603 “Loupe\'s rule “test rule” answered with an error”' });
    expect(JSON.parse((answered as { raw: string }).raw)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Loupe\'s rule “test rule” answered with an error' } });
    const given = book([rule({ type: 'error', code: -32000, message: 'Busy', data: { retry: 3 } }, { kind: 'response' })]);
    const turned = given.decide('to-client', result(2));
    expect(turned).toMatchObject({ kind: 'rewrite', what: 'turned the response into error -32000 “Busy”' });
    expect(JSON.parse((turned as { raw: string }).raw)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'Busy', data: { retry: 3 } } });
  });

  it('corrupt gives the same text that is not JSON', () => {
    const b = book([rule({ type: 'corrupt' })]);
    const raw = result(1, { a: { b: 1 } });
    const first = b.decide('to-client', raw) as { kind: string; raw: string };
    expect(first.kind).toBe('rewrite');
    expect(() => JSON.parse(first.raw)).toThrow();
    expect(first.raw.startsWith(raw.slice(0, raw.lastIndexOf('}')))).toBe(true);
    expect((b.decide('to-client', raw) as { raw: string }).raw).toBe(first.raw);
    for (const odd of ['"}"', '5', '{}', '']) expect(() => JSON.parse((b.decide('to-client', odd) as { raw: string }).raw)).toThrow();
  });

  it('truncate keeps the first characters, half by default', () => {
    const raw = result(1, { text: 'abcdefghij' });
    expect(book([rule({ type: 'truncate', bytes: 10 })]).decide('to-client', raw)).toMatchObject({ kind: 'rewrite', raw: raw.slice(0, 10), what: `truncated it to 10 of ${raw.length} characters` });
    expect((book([rule({ type: 'truncate' })]).decide('to-client', raw) as { raw: string }).raw).toBe(raw.slice(0, Math.floor(raw.length / 2)));
  });

  it('close and kill fire on the Nth match only; the frames before pass to the next rule', () => {
    const b = book([rule({ type: 'close', after: 3 }, { method: 'tools/call' }), rule({ type: 'delay', ms: 1 }, {}, { id: 'later' })]);
    expect(b.decide('to-server', call(1, 'echo')).kind).toBe('delay');
    expect(b.decide('to-server', call(2, 'echo')).kind).toBe('delay');
    expect(b.decide('to-server', call(3, 'echo'))).toMatchObject({ kind: 'close', what: 'forwarded it, then closed the transport (matching frame 3)' });
    expect(b.decide('to-server', call(4, 'echo')).kind).toBe('delay');
    const kill = book([rule({ type: 'kill' })]);
    expect(kill.decide('to-client', note('notifications/message'))).toMatchObject({ kind: 'kill', what: 'forwarded it, then killed the server (matching frame 1)' });
  });

  it('slow spaces its frames: each at least ms after the previous one of the rule', () => {
    let clock = 1000;
    const b = book([rule({ type: 'slow', ms: 100 }, { kind: 'notification' })], undefined, () => clock);
    expect(b.decide('to-client', note('a'))).toMatchObject({ kind: 'delay', ms: 0 });
    expect(b.decide('to-client', note('b'))).toMatchObject({ kind: 'delay', ms: 100 });
    expect(b.decide('to-client', note('c'))).toMatchObject({ kind: 'delay', ms: 200 });
    clock += 50;
    expect(b.decide('to-client', note('d'))).toMatchObject({ kind: 'delay', ms: 250 });
    clock += 1000;
    expect(b.decide('to-client', note('e'))).toMatchObject({ kind: 'delay', ms: 0 });
  });

  it('deny answers a tools/call with an isError result in words, and lets anything else pass', () => {
    const b = book([rule({ type: 'deny' }, { name: 'echo' }, { name: 'no echo' })]);
    const denied = b.decide('to-server', call(9, 'echo')) as { kind: string; raw: string; what: string };
    expect(denied.kind).toBe('answer');
    expect(denied.what).toBe('refused the call to echo');
    expect(JSON.parse(denied.raw)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: { isError: true, content: [{ type: 'text', text: 'Loupe\'s permission gate “no echo” refused this call to echo. The user has not allowed it; do not retry it as is — ask the user or choose another way.' }] },
    });
    expect(b.decide('to-server', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'echo' } })).kind).toBe('pass');
    const gate = book([rule({ type: 'deny' }, { argument: { path: 'path', pattern: '^/etc' } }, { name: 'etc' })]);
    const text = JSON.parse((gate.decide('to-server', call(1, 'read', { path: '/etc/passwd' })) as { raw: string }).raw).result.content[0].text;
    expect(text).toBe('Loupe\'s permission gate “etc” refused this call to read because its argument path matches /^/etc/. The user has not allowed it; do not retry it as is — ask the user or choose another way.');
    const own = book([rule({ type: 'deny', message: 'Not today.' })]);
    expect(JSON.parse((own.decide('to-server', call(1, 'x')) as { raw: string }).raw).result.content[0].text).toBe('Not today.');
  });
});
