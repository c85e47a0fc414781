import { describe, expect, it } from 'vitest';
import { DEFAULT_CHOICE, declaredList, INVALID_PARAMS, METHOD_NOT_FOUND, readChoice, setChoice, undeclaredRequest } from './client-capabilities.ts';

describe('client capability choice', () => {
  it('defaults to everything on', () => {
    expect(Object.values(DEFAULT_CHOICE).every((v) => v === true)).toBe(true);
    expect(declaredList(DEFAULT_CHOICE)).toEqual(['sampling', 'sampling.tools', 'elicitation.form', 'elicitation.url', 'roots', 'roots.listChanged', 'tasks']);
  });

  it('reads partial or broken stored choices', () => {
    expect(readChoice({ sampling: false }).sampling).toBe(false);
    expect(readChoice({ sampling: false }).roots).toBe(true);
    expect(readChoice({ sampling: 'no' })).toEqual(DEFAULT_CHOICE);
    expect(readChoice(undefined)).toEqual(DEFAULT_CHOICE);
  });

  it('keeps dependents consistent with their parent', () => {
    const off = setChoice(DEFAULT_CHOICE, 'sampling', false);
    expect(off.samplingTools).toBe(false);
    expect(declaredList(off)).not.toContain('sampling.tools');
    const on = setChoice(off, 'samplingTools', true);
    expect(on.sampling).toBe(true);
    expect(setChoice(DEFAULT_CHOICE, 'roots', false).rootsListChanged).toBe(false);
  });
});

describe('undeclaredRequest', () => {
  const none = { sampling: false, samplingTools: false, elicitationForm: false, elicitationUrl: false, roots: false, rootsListChanged: false, tasks: false };

  it('allows what was declared', () => {
    expect(undeclaredRequest('sampling/createMessage', { messages: [], maxTokens: 1, tools: [] }, DEFAULT_CHOICE)).toBeUndefined();
    expect(undeclaredRequest('elicitation/create', { mode: 'url' }, DEFAULT_CHOICE)).toBeUndefined();
    expect(undeclaredRequest('roots/list', undefined, DEFAULT_CHOICE)).toBeUndefined();
    expect(undeclaredRequest('ping', undefined, none)).toBeUndefined();
  });

  it('flags a whole capability that was not declared with Method not found', () => {
    expect(undeclaredRequest('sampling/createMessage', {}, none)).toEqual({ reason: expect.stringContaining('sampling'), code: METHOD_NOT_FOUND });
    expect(undeclaredRequest('elicitation/create', {}, none)?.code).toBe(METHOD_NOT_FOUND);
    expect(undeclaredRequest('roots/list', {}, none)?.code).toBe(METHOD_NOT_FOUND);
    expect(undeclaredRequest('tasks/get', {}, none)?.code).toBe(METHOD_NOT_FOUND);
  });

  it('flags a sub-feature that was not declared with Invalid params', () => {
    const noTools = { ...DEFAULT_CHOICE, samplingTools: false };
    expect(undeclaredRequest('sampling/createMessage', { tools: [] }, noTools)).toEqual({ reason: expect.stringContaining('sampling.tools'), code: INVALID_PARAMS });
    expect(undeclaredRequest('sampling/createMessage', { toolChoice: { mode: 'auto' } }, noTools)?.code).toBe(INVALID_PARAMS);
    expect(undeclaredRequest('sampling/createMessage', {}, noTools)).toBeUndefined();
    expect(undeclaredRequest('elicitation/create', { mode: 'url' }, { ...DEFAULT_CHOICE, elicitationUrl: false })?.code).toBe(INVALID_PARAMS);
    expect(undeclaredRequest('elicitation/create', {}, { ...DEFAULT_CHOICE, elicitationForm: false })?.code).toBe(INVALID_PARAMS);
  });
});
