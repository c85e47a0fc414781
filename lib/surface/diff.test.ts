import { describe, expect, it } from 'vitest';
import { diffSurfaces, formatSurfaceDiff, summarizeSurfaceDiff, type SurfaceLists } from './diff.ts';

const echo = {
  name: 'echo',
  description: 'Echoes',
  inputSchema: { type: 'object', properties: { message: { type: 'string' }, mode: { type: 'string', enum: ['plain', 'loud'] } }, required: ['message'] },
  annotations: { readOnlyHint: true },
};
const add = { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, outputSchema: { type: 'object', properties: { sum: { type: 'number' } } } };
const before: SurfaceLists = {
  tools: [echo, add],
  resourceTemplates: [{ name: 'note', uriTemplate: 'note://{id}' }],
  prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'tone' }] }],
  resources: [{ uri: 'file:///a.txt', name: 'a' }],
};

describe('diffSurfaces', () => {
  it('finds nothing between equal surfaces, whatever the order of lists and keys', () => {
    const shuffled = { ...before, tools: [add, { ...echo, annotations: { readOnlyHint: true }, description: 'Echoes' }] };
    const diff = diffSurfaces(before, shuffled);
    expect(diff.changes).toEqual([]);
    expect(summarizeSurfaceDiff(diff)).toBe('nothing added, removed or changed');
  });

  it('grades what a client that worked before can now trip on', () => {
    const after: SurfaceLists = {
      tools: [
        {
          ...echo,
          description: 'Echoes back',
          inputSchema: { type: 'object', properties: { message: { type: 'string' }, mode: { type: 'string', enum: ['plain', 'whisper'] }, prefix: { type: 'string' } }, required: ['message', 'prefix'] },
          annotations: { readOnlyHint: false, destructiveHint: true },
        },
        { ...add, outputSchema: { type: 'object', properties: { total: { type: 'number' } } } },
        { name: 'fresh', inputSchema: { type: 'object' } },
      ],
      resourceTemplates: [{ name: 'note', uriTemplate: 'note://{folder}/{id}' }],
      prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'tone', required: true }] }],
      resources: [],
    };
    const diff = diffSurfaces(before, after);
    const byName = Object.fromEntries(diff.changes.map((c) => [`${c.kind} ${c.name}`, c]));
    expect(byName['tool fresh']).toMatchObject({ change: 'added', severity: 'info' });
    expect(byName['tool echo'].severity).toBe('breaking');
    expect(byName['tool echo'].details.map((d) => `${d.severity}: ${d.says}`)).toEqual([
      'breaking: required input property "prefix" added',
      'breaking: input property "mode" no longer accepts "loud"',
      'info: input property "mode" now accepts "whisper"',
      'info: description changed',
      'warning: annotations.readOnlyHint changed',
      'warning: annotations.destructiveHint changed',
    ]);
    expect(byName['tool add'].details.map((d) => `${d.severity}: ${d.says}`)).toEqual(['breaking: output property "sum" removed', 'info: output property "total" added']);
    expect(byName['resourceTemplate note']).toMatchObject({ severity: 'breaking', details: [{ says: 'URI template changed', old: 'note://{id}', new: 'note://{folder}/{id}' }] });
    expect(byName['prompt greet']).toMatchObject({ severity: 'breaking', details: [{ says: 'argument "tone" is now required' }] });
    expect(byName['resource file:///a.txt']).toMatchObject({ change: 'removed', severity: 'warning' });
    expect(summarizeSurfaceDiff(diff)).toBe('1 added, 1 removed, 4 changed (4 breaking)');
  });

  it('calls a removed optional input a warning, a removed required one breaking, a type change breaking', () => {
    const after: SurfaceLists = { ...before, tools: [{ ...echo, inputSchema: { type: 'object', properties: { message: { type: 'number' } }, required: ['message'] } }, add] };
    const [change] = diffSurfaces(before, after).changes;
    expect(change.details.map((d) => `${d.severity}: ${d.says}`)).toEqual(['warning: input property "mode" removed', 'breaking: input property "message" changed type']);
    const gone: SurfaceLists = { ...before, tools: [{ ...echo, inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: ['plain', 'loud'] } } } }, add] };
    expect(diffSurfaces(before, gone).changes[0].details[0]).toMatchObject({ severity: 'breaking', says: 'required input property "message" removed' });
  });

  it('writes the diff as text with the same words', () => {
    const after: SurfaceLists = { ...before, tools: [echo] };
    expect(formatSurfaceDiff(diffSurfaces(before, after), 'The tool surface')).toBe('The tool surface changed: 0 added, 1 removed, 0 changed (1 breaking).\n- tool add  [breaking]\n');
    expect(formatSurfaceDiff(diffSurfaces(before, before))).toBe('The surface is unchanged: nothing added, removed or changed.\n');
  });
});
