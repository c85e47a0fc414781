import { describe, expect, it } from 'vitest';
import { readRules, readRulesFile } from './file.ts';

describe('readRulesFile', () => {
  it('reads {"rules": […]} and a bare list, with JSONC comments, and gives missing ids', () => {
    const text = `// rules for the test suite
{ "rules": [
  { "id": "r2", "match": { "method": "tools/call" }, "action": { "type": "delay", "ms": 10 } },
  { "match": {}, "action": { "type": "drop" } }, /* no id */
  { "match": {}, "action": { "type": "kill", "after": 2 } }
] }`;
    const read = readRulesFile(text);
    expect(read).toEqual({
      ok: true,
      rules: [
        { id: 'r2', match: { method: 'tools/call' }, action: { type: 'delay', ms: 10 } },
        { id: 'r1', match: {}, action: { type: 'drop' } },
        { id: 'r3', match: {}, action: { type: 'kill', after: 2 } },
      ],
    });
    expect(readRulesFile('[{"match":{},"action":{"type":"pause"}}]')).toEqual({ ok: true, rules: [{ id: 'r1', match: {}, action: { type: 'pause' } }] });
  });

  it('names the rule and the field of what is wrong', () => {
    const error = (text: string) => {
      const read = readRulesFile(text);
      return read.ok ? '' : read.error;
    };
    expect(error('{"rules": 3}')).toBe('The rules file must be a list of rules, or an object with a "rules" list (see docs/rules.md).');
    expect(error('[{')).toMatch(/^The rules file is not JSON: Invalid JSON/);
    expect(error('[{"match":{},"action":{"type":"drop"}}, 5]')).toBe('Rule 2 is not an object with "match" and "action".');
    expect(error('[{"match":{},"action":{"type":"nope"}}]')).toBe('Rule 1 (id "r1"): "action.type" must be one of pause, delay, drop, replace-result, error, corrupt, truncate, close, kill, slow, deny (it is "nope").');
    expect(error('[{"name":"slow","match":{},"action":{"type":"delay","ms":"x"}}]')).toMatch(/^Rule 1 \(“slow”\): "action\.ms": .*number/);
    expect(error('[{"match":{"foo":1},"action":{"type":"drop"}}]')).toBe('Rule 1 (id "r1"): "match" has "foo", which Loupe does not know.');
    expect(error('[{"action":{"type":"drop"}}]')).toMatch(/^Rule 1 \(id "r1"\): "match": /);
    expect(error('{"rules":[{"match":{"argument":{"path":"a","pattern":"(["}},"action":{"type":"deny"}}]}')).toMatch(/^Rule 1 \(id "r1"\): "match.argument.pattern" is not a valid regular expression: .+/);
    expect(error('{"rules":[{"name":"gate","match":{"argument":{"path":"a","pattern":"(a+)+$"}},"action":{"type":"deny"}}]}')).toBe(
      'Rule 1 (“gate”): "match.argument.pattern" could stall the proxy: it repeats (a+) with +, a part that itself repeats, so on a crafted argument it backtracks exponentially. Write it without repeating such a part (for example a+ instead of (a+)+).',
    );
    expect(error('[{"match":{"argument":{"path":"a","pattern":".*a.*a.*b"}},"action":{"type":"drop"}}]')).toMatch(/^Rule 1 \(id "r1"\): "match.argument.pattern" could stall the proxy: with 3 open-ended repeats .*an argument longer than 4096 characters always matches/);
    expect(error('[{"id":"a","match":{},"action":{"type":"drop"}},{"id":"a","match":{},"action":{"type":"drop"}}]')).toBe('Rule 2: the id "a" is used by an earlier rule too; give each rule its own id.');
  });

  it('readRules checks data already parsed', () => {
    expect(readRules('x')).toEqual({ ok: false, error: '"rules" must be a list of rules.' });
    expect(readRules([{ id: 'x', enabled: false, server: 'everything', match: { direction: 'to-client' }, action: { type: 'corrupt' } }])).toMatchObject({ ok: true });
  });
});
