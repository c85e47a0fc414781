import { describe, expect, it } from 'vitest';
import { parseWorkspace, serializeWorkspace, type Workspace } from './workspace.ts';

function ws(text: string): Workspace {
  const result = parseWorkspace(text);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const COLLECTIONS = [
  {
    name: 'basics',
    server: 'everything',
    variables: { who: 'Ada' },
    calls: [
      { name: 'echo', kind: 'tool', target: 'echo', arguments: { message: 'hi {{who}}' }, assert: [{ isError: false }, { path: '$.content[0].text', equals: 'Echo: hi Ada' }], extract: { said: '$.content[0].text' } },
      { name: 'ping', kind: 'request', target: 'ping', params: {}, timeoutMs: 500 },
    ],
  },
];
const FILE = {
  mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
  'x-mcp-loupe': { version: 1, collections: COLLECTIONS },
};

describe('test collections in the workspace file (issue 27)', () => {
  it('are read from x-mcp-loupe.collections and written back there, unchanged', () => {
    const read = ws(JSON.stringify(FILE));
    expect(read.collections).toEqual(COLLECTIONS);
    expect(read.notes).toEqual([]);
    const text = serializeWorkspace(read);
    expect(JSON.parse(text)['x-mcp-loupe']).toEqual({ version: 1, collections: COLLECTIONS });
    expect(serializeWorkspace(ws(text))).toBe(text);
  });

  it('a bad list is a note naming where, and no collection is loaded; the servers still open', () => {
    const bad = { ...FILE, 'x-mcp-loupe': { version: 1, collections: [{ name: 'c', calls: [{ name: 'x', kind: 'tool', target: 't', assert: [{ path: 'content', equals: 1 }] }] }] } };
    const read = ws(JSON.stringify(bad));
    expect(read.collections).toBeUndefined();
    expect(read.servers).toHaveLength(1);
    expect(read.notes.join('\n')).toContain('"x-mcp-loupe.collections" is not valid (x-mcp-loupe.collections[0].calls[0].assert[0].path: The path "content" is not valid');
    expect(read.notes.join('\n')).toContain('no collection is loaded.');
  });

  it('keeps them beside queries and per-server extras; none: no key written', () => {
    const both = { ...FILE, 'x-mcp-loupe': { version: 1, queries: [{ name: 'errors', query: 'status:error' }], collections: COLLECTIONS } };
    const text = serializeWorkspace(ws(JSON.stringify(both)));
    expect(Object.keys(JSON.parse(text)['x-mcp-loupe'])).toEqual(['version', 'queries', 'collections']);
    const read = ws(JSON.stringify({ mcpServers: FILE.mcpServers }));
    expect(JSON.parse(serializeWorkspace({ ...read, collections: [] }))['x-mcp-loupe']).toBeUndefined();
  });
});
