import { describe, expect, it } from 'vitest';
import { parseWorkspace, serializeWorkspace, type Workspace } from './workspace.ts';

function ws(text: string): Workspace {
  const result = parseWorkspace(text);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const EVALS = {
  cases: [{ name: 'echo', prompt: 'Say hi with echo', expect: { tools: [{ name: 'echo', arguments: { message: { contains: 'hi' } } }], forbid: ['wipe'], answerContains: ['hi'] } }],
  models: ['anthropic:claude-sonnet-4-5'],
  repeats: 2,
};
const FILE = {
  mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
  'x-mcp-loupe': { version: 1, evals: EVALS },
};

describe('model evals in the workspace file (issue 27)', () => {
  it('are read from x-mcp-loupe.evals and written back there, unchanged', () => {
    const read = ws(JSON.stringify(FILE));
    expect(read.evals).toEqual(EVALS);
    expect(read.notes).toEqual([]);
    const text = serializeWorkspace(read);
    expect(JSON.parse(text)['x-mcp-loupe']).toEqual({ version: 1, evals: EVALS });
    expect(serializeWorkspace(ws(text))).toBe(text);
  });

  it('a bad one is a note naming where, and no eval is loaded; the servers still open', () => {
    const read = ws(JSON.stringify({ ...FILE, 'x-mcp-loupe': { version: 1, evals: { cases: [{ name: 'x', prompt: 'p', expect: { answerMatches: '(' } }] } } }));
    expect(read.evals).toBeUndefined();
    expect(read.servers).toHaveLength(1);
    expect(read.notes.join('\n')).toContain('"x-mcp-loupe.evals" is not valid (The eval file is not valid: cases[0].expect.answerMatches: "(" is not a regular expression');
  });

  it('none (or no case): no key written', () => {
    const read = ws(JSON.stringify({ mcpServers: FILE.mcpServers }));
    expect(JSON.parse(serializeWorkspace({ ...read, evals: { cases: [] } }))['x-mcp-loupe']).toBeUndefined();
  });
});
