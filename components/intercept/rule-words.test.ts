/** Rules and holds in words (rule-words.ts), as the Intercept tab says them. */
import { describe, expect, it } from 'vitest';
import { countdownWords, describeRule, ruleTitle } from './rule-words.ts';

describe('describeRule', () => {
  it('says what the rule matches and does', () => {
    expect(describeRule({ id: 'r1', match: { direction: 'to-server', kind: 'request', method: 'tools/call', name: 'echo' }, action: { type: 'pause' } })).toBe('Pause requests tools/call “echo” to the server.');
    expect(describeRule({ id: 'r1', match: { method: 'tools/call', argument: { path: 'path', pattern: '^/etc' } }, action: { type: 'deny' } })).toBe('Refuse frames tools/call whose argument “path” matches /^/etc/ (permission gate).');
    expect(describeRule({ id: 'r1', server: 'fs', match: { direction: 'to-client', text: 'secret' }, action: { type: 'delay', ms: 500 } })).toBe('Delay frames containing “secret” to the client of fs by 500 ms.');
    expect(describeRule({ id: 'r1', match: {}, action: { type: 'error', code: -32601, message: 'gone' } })).toBe('Answer frames with error -32601 “gone”.');
    expect(describeRule({ id: 'r1', match: {}, action: { type: 'kill', after: 3 } })).toBe('Forward frames, then kill the server after 3 of them.');
    expect(describeRule({ id: 'r1', match: { method: 'tools/*' }, action: { type: 'close' } })).toBe('Forward frames tools/*, then close the transport after the first.');
    expect(describeRule({ id: 'r1', match: {}, action: { type: 'truncate' } })).toBe('Truncate frames to half their length.');
  });

  it('names a rule by its name, else by its description', () => {
    expect(ruleTitle({ id: 'r1', name: 'gate', match: {}, action: { type: 'drop' } })).toBe('gate');
    expect(ruleTitle({ id: 'r1', match: {}, action: { type: 'drop' } })).toBe('Drop frames');
  });
});

describe('countdownWords', () => {
  it('counts down in minutes and seconds', () => {
    expect(countdownWords(102_000)).toBe('released in 1:42');
    expect(countdownWords(1)).toBe('released in 0:01');
    expect(countdownWords(-5)).toBe('released in 0:00');
  });
});
