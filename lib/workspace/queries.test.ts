import { describe, expect, it } from 'vitest';
import { parseWorkspace, serializeWorkspace, type Workspace } from './workspace.ts';

function ws(text: string): Workspace {
  const result = parseWorkspace(text);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const FILE = {
  mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
  'x-mcp-loupe': { version: 1, queries: [{ name: 'slow calls', query: 'method:tools/call duration:>500ms' }, { name: 'errors', query: 'status:error' }] },
};

describe('saved History queries in the workspace file (issue 26)', () => {
  it('are read from x-mcp-loupe.queries and written back there, in order', () => {
    const read = ws(JSON.stringify(FILE));
    expect(read.queries).toEqual(FILE['x-mcp-loupe'].queries);
    const text = serializeWorkspace(read);
    expect(JSON.parse(text)['x-mcp-loupe']).toEqual({ version: 1, queries: FILE['x-mcp-loupe'].queries });
    expect(serializeWorkspace(ws(text))).toBe(text);
  });
  it('a bad list is a note, and no query is loaded; the servers still open', () => {
    const read = ws(JSON.stringify({ ...FILE, 'x-mcp-loupe': { version: 1, queries: [{ name: '', query: 'x' }] } }));
    expect(read.queries).toBeUndefined();
    expect(read.servers).toHaveLength(1);
    expect(read.notes.join('\n')).toContain('"x-mcp-loupe.queries" is not a list of saved queries');
  });
  it('none: no key written', () => {
    const read = ws(JSON.stringify({ mcpServers: FILE.mcpServers }));
    expect(JSON.parse(serializeWorkspace({ ...read, queries: [] }))['x-mcp-loupe']).toBeUndefined();
  });
});
