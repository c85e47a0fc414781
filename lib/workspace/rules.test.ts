import { describe, expect, it } from 'vitest';
import type { Rule } from '../model/rules.ts';
import { parseWorkspace, serializeWorkspace } from './workspace.ts';

const rules: Rule[] = [
  { id: 'gate', name: 'no writes', match: { method: 'tools/call', name: 'write_*' }, action: { type: 'deny' } },
  { id: 'r2', enabled: false, server: 'everything', match: { direction: 'to-client', kind: 'notification' }, action: { type: 'slow', ms: 200 } },
];

function parsed(text: string) {
  const read = parseWorkspace(text);
  if (!read.ok) throw new Error(read.error);
  return read.value;
}

describe('x-mcp-loupe.rules in a workspace file', () => {
  it('round-trips the interception rules beside the server blocks', () => {
    const w = parsed('{"mcpServers": {"everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}}}');
    expect(w.rules).toBeUndefined();
    const out = serializeWorkspace({ ...w, rules });
    expect(JSON.parse(out)['x-mcp-loupe']).toEqual({ version: 1, rules });
    const again = parsed(out);
    expect(again.rules).toEqual(rules);
    expect(again.notes).toEqual([]);
    expect(serializeWorkspace(again)).toBe(out);
  });

  it('writes no block for an empty list, and keeps server blocks with the rules', () => {
    const w = parsed('{"mcpServers": {"a": {"command": "x"}}, "x-mcp-loupe": {"version": 1, "servers": {"a": {"protocol": "auto"}}}}');
    expect(serializeWorkspace({ ...w, rules: [] })).toBe(serializeWorkspace(w));
    expect(JSON.parse(serializeWorkspace({ ...w, rules }))['x-mcp-loupe']).toEqual({ version: 1, servers: { a: { protocol: 'auto' } }, rules });
  });

  it('gives ids where the file has none; a bad list is a note and loads no rule', () => {
    const w = parsed('{"mcpServers": {"a": {"command": "x"}}, "x-mcp-loupe": {"version": 1, "rules": [{"match": {}, "action": {"type": "drop"}}]}}');
    expect(w.rules).toEqual([{ id: 'r1', match: {}, action: { type: 'drop' } }]);
    const bad = parsed('{"mcpServers": {"a": {"command": "x"}}, "x-mcp-loupe": {"version": 1, "rules": [{"match": {}, "action": {"type": "explode"}}]}}');
    expect(bad.rules).toBeUndefined();
    expect(bad.servers).toHaveLength(1);
    expect(bad.notes).toEqual(['"x-mcp-loupe.rules" is not valid (Rule 1 (id "r1"): "action.type" must be one of pause, delay, drop, replace-result, error, corrupt, truncate, close, kill, slow, deny (it is "explode").); no interception rule of the file is loaded.']);
  });
});
