import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from './workspace-model.ts';

describe('WorkspaceModel inputs', () => {
  it('declares, masked, an input a server refers to that no file declared (a registry entry’s secret argument), and asks for it masked', () => {
    const model = new WorkspaceModel({});
    model.add('s1', { config: { kind: 'stdio', command: 'npx', args: ['-y', 'pkg', '--key=${input:loupe-key}'], env: {} } });
    expect(model.view('s1', ['loupe-key'])).toBeDefined();
    const asked = model.toWorkspace().inputs;
    expect(asked).toEqual([{ id: 'loupe-key', type: 'promptString', description: 'loupe-key', password: true }]);
    model.provideInputs({ 'loupe-key': 'sk-secret' });
    // The value stays in the proxy: the file declares the input, never its value.
    expect(JSON.stringify(model.toWorkspace())).not.toContain('sk-secret');
  });
});

describe('WorkspaceModel saved queries (issue 26)', () => {
  it('keeps the file’s queries, replaces them from the page, shows them in the state and saves them', () => {
    const model = new WorkspaceModel({});
    model.load({ flavour: 'mcpServers', servers: [], inputs: [], notes: [], queries: [{ name: 'errors', query: 'status:error' }] }, undefined, undefined);
    expect(model.state().savedQueries).toEqual([{ name: 'errors', query: 'status:error' }]);
    model.setSavedQueries([{ name: 'slow', query: 'duration:>1s' }]);
    expect(model.state().savedQueries).toEqual([{ name: 'slow', query: 'duration:>1s' }]);
    expect(model.toWorkspace().queries).toEqual([{ name: 'slow', query: 'duration:>1s' }]);
    model.setSavedQueries([]);
    expect(model.state().savedQueries).toBeUndefined();
    expect(model.toWorkspace().queries).toBeUndefined();
  });
});
