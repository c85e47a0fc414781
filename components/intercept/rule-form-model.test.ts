/** The rule form's model (rule-form-model.ts): a draft to a rule and back, and each field's problem in words. */
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../lib/model/rules.ts';
import { checkDraft, draftOf, EMPTY_DRAFT, freshRuleId, type RuleDraft } from './rule-form-model.ts';

const draft = (patch: Partial<RuleDraft>): RuleDraft => ({ ...EMPTY_DRAFT, ...patch });

describe('checkDraft', () => {
  it('makes the rule the form describes, leaving out what is empty', () => {
    expect(checkDraft(draft({ direction: 'to-server', method: ' tools/call ', toolName: 'echo', name: 'pause echo' }), 'r1')).toEqual({
      ok: true,
      rule: { id: 'r1', name: 'pause echo', match: { direction: 'to-server', method: 'tools/call', name: 'echo' }, action: { type: 'pause' } },
    });
    expect(checkDraft(draft({ action: 'deny', argPath: 'path', argPattern: '^/etc', enabled: false, server: 'fs' }), 'r2')).toEqual({
      ok: true,
      rule: { id: 'r2', enabled: false, server: 'fs', match: { method: 'tools/call', argument: { path: 'path', pattern: '^/etc' } }, action: { type: 'deny' } },
    });
  });

  it('says what is wrong next to each field', () => {
    const bad = checkDraft(draft({ action: 'delay', ms: 'soon', argPattern: '(' }), 'r1');
    expect(bad).toMatchObject({ ok: false, errors: { ms: 'The milliseconds is a whole number from 0 to 600000.', argPath: expect.stringMatching(/^Give the argument’s path/), argPattern: expect.stringMatching(/^This pattern is not a valid regular expression/) } });
    expect(checkDraft(draft({ action: 'slow', ms: '' }), 'r1')).toMatchObject({ ok: false, errors: { ms: 'Give the milliseconds.' } });
    expect(checkDraft(draft({ action: 'replace-result', result: '[1]' }), 'r1')).toMatchObject({ ok: false, errors: { result: expect.stringMatching(/JSON object/) } });
    expect(checkDraft(draft({ action: 'replace-result', result: '{' }), 'r1')).toMatchObject({ ok: false, errors: { result: expect.stringMatching(/^The result is not JSON/) } });
    expect(checkDraft(draft({ action: 'error', code: '1.5' }), 'r1')).toMatchObject({ ok: false, errors: { code: expect.stringMatching(/whole number/) } });
    expect(checkDraft(draft({ action: 'close', after: '0' }), 'r1')).toMatchObject({ ok: false, errors: { after: 'N is a whole number from 1 to 1000000.' } });
    expect(checkDraft(draft({ action: 'deny', method: 'prompts/get' }), 'r1')).toMatchObject({ ok: false, errors: { method: expect.stringMatching(/permission gate guards tool calls/) } });
    expect(checkDraft(draft({ argPath: 'path' }), 'r1')).toMatchObject({ ok: false, errors: { argPattern: expect.stringMatching(/^Give the pattern/) } });
    // A pattern the proxy would refuse (it could stall it) is said beside the field, not saved to never match.
    expect(checkDraft(draft({ argPath: 'path', argPattern: '(a+)+$' }), 'r1')).toMatchObject({ ok: false, errors: { argPattern: expect.stringMatching(/^This pattern could stall the proxy: .*\(a\+\)/) } });
  });

  it('turns every action back into the same rule', () => {
    const rules: Rule[] = [
      { id: 'a', match: { kind: 'response' }, action: { type: 'delay', ms: 250 } },
      { id: 'b', match: { text: ' x ' }, action: { type: 'replace-result', result: { content: [] } } },
      { id: 'c', match: { direction: 'to-client' }, action: { type: 'error', code: -32601, message: 'no' } },
      { id: 'd', match: {}, action: { type: 'truncate', bytes: 10 } },
      { id: 'e', match: {}, action: { type: 'kill', after: 3 } },
      { id: 'f', match: { method: 'tools/call' }, action: { type: 'deny', message: 'not here' } },
      { id: 'g', match: {}, action: { type: 'corrupt' } },
    ];
    for (const rule of rules) expect(checkDraft(draftOf(rule), rule.id)).toEqual({ ok: true, rule });
  });
});

describe('freshRuleId', () => {
  it('gives an id no rule has', () => {
    expect(freshRuleId([])).toBe('r1');
    expect(freshRuleId([{ id: 'r2', match: {}, action: { type: 'drop' } }])).toBe('r3');
    expect(freshRuleId([{ id: 'r1', match: {}, action: { type: 'drop' } }, { id: 'r3', match: {}, action: { type: 'drop' } }])).toBe('r4');
  });
});
