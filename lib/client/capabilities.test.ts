import { describe, expect, it } from 'vitest';
import { DEFAULT_CHOICE, declaredCapabilities, declaredList, readChoice, setChoice } from './capabilities.ts';

describe('client capability choice', () => {
  it('defaults to everything on', () => {
    expect(Object.values(DEFAULT_CHOICE).every((v) => v === true)).toBe(true);
    expect(declaredList(DEFAULT_CHOICE)).toEqual(['sampling', 'sampling.tools', 'elicitation.form', 'elicitation.url', 'roots', 'roots.listChanged', 'tasks', 'extensions.io.modelcontextprotocol/ui']);
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

describe('declaredCapabilities', () => {
  it('declares everything by default, tasks for the requests that are on', () => {
    expect(declaredCapabilities(DEFAULT_CHOICE)).toEqual({
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
      // MCP Apps (issue 24): the extension, with the one MIME type Loupe renders.
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
  });
  it('leaves out what is off', () => {
    const none = Object.fromEntries(Object.keys(DEFAULT_CHOICE).map((k) => [k, false])) as typeof DEFAULT_CHOICE;
    expect(declaredCapabilities(none)).toEqual({});
    expect(declaredCapabilities({ ...none, sampling: true, tasks: true })).toEqual({ sampling: {}, tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } } });
  });
});
