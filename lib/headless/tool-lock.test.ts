import { describe, expect, it } from 'vitest';
import { diffLock, lockExitCode, lockFromLists, lockText, parseLock, type ToolLock } from './tool-lock.ts';

const echo = { name: 'echo', description: 'Says back', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }, annotations: { readOnlyHint: true }, icons: [{ src: 'x' }], _meta: { a: 1 } };
const add = { name: 'add', inputSchema: { properties: { a: { type: 'number' } }, type: 'object' }, outputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' } };
const lists = {
  tools: [echo, add],
  resourceTemplates: [{ name: 'note', uriTemplate: 'note://{id}', mimeType: 'text/plain', description: 'A note', title: 'ignored' }],
  prompts: [{ name: 'greet', description: 'Hello', arguments: [{ name: 'name', required: true }] }],
  serverName: 'srv',
};

const lockOf = (l: Parameters<typeof lockFromLists>[0]): ToolLock => lockFromLists(l).lock;

describe('lockFromLists and lockText', () => {
  it('keeps the surface fields only, sorted by name, in one key order', () => {
    const { lock, notes } = lockFromLists(lists);
    expect(notes).toEqual([]);
    expect(lock.tools.map((t) => t.name)).toEqual(['add', 'echo']);
    expect(Object.keys(lock.tools[1])).toEqual(['name', 'description', 'inputSchema', 'annotations']);
    expect(Object.keys(lock.tools[0].inputSchema as object)).toEqual(['properties', 'type']);
    expect(lock.resourceTemplates).toEqual([{ name: 'note', uriTemplate: 'note://{id}', mimeType: 'text/plain', description: 'A note' }]);
    expect(lock.prompts).toEqual([lists.prompts[0]]);
  });

  it('writes the same text for the same surface listed in another order', () => {
    const reordered = { ...lists, tools: [{ ...add, inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }, echo].reverse() };
    const text = lockText(lockOf(lists));
    expect(lockText(lockOf(reordered))).toBe(text);
    expect(text.startsWith('{\n  "format": "mcp-loupe-lock",\n  "version": 1,\n  "server": {\n    "name": "srv"\n  },\n  "tools": [')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('says what it left out', () => {
    const { lock, notes } = lockFromLists({ tools: [echo, { ...echo, description: 'dup' }, { description: 'no name' }, 'junk'], resourceTemplates: [], prompts: [] });
    expect(lock.tools).toHaveLength(1);
    expect(lock.tools[0].description).toBe('Says back');
    expect(notes).toEqual(['The tool "echo" is listed twice; the lock keeps the first.', 'A tool without a name was left out of the lock.', 'A tool without a name was left out of the lock.']);
  });
});

describe('parseLock', () => {
  it('reads back what lockText wrote', () => {
    const lock = lockOf(lists);
    expect(parseLock(lockText(lock))).toEqual({ ok: true, lock });
  });

  it('reads a hand-edited file as Loupe would have written it', () => {
    const lock = lockOf(lists);
    const edited = { ...lock, tools: [...lock.tools].reverse(), extra: true };
    const parsed = parseLock(JSON.stringify(edited));
    expect(parsed.ok && lockText(parsed.lock)).toBe(lockText(lock));
  });

  it.each([
    ['{"format":', 'is not JSON'],
    ['[]', 'not a Loupe lock file'],
    ['{"format":"mcp-loupe-trace","version":1}', 'not a Loupe lock file'],
    ['{"format":"mcp-loupe-lock","version":1,"tools":[{"description":"x"}],"resourceTemplates":[],"prompts":[]}', 'damaged at tools.0.name'],
    ['{"format":"mcp-loupe-lock","version":1,"tools":[]}', 'damaged at resourceTemplates'],
    ['{"format":"mcp-loupe-lock","version":9,"tools":[],"resourceTemplates":[],"prompts":[]}', 'version 9, newer'],
  ])('refuses %s in one plain sentence', (text, what) => {
    const parsed = parseLock(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toContain(what);
      expect(parsed.error).toMatch(/run --lock again/i);
    }
  });
});

describe('diffLock', () => {
  it('finds nothing when nothing changed', () => {
    const diff = diffLock(lockOf(lists), lockOf(lists));
    expect(diff).toEqual({ added: [], removed: [], changed: [] });
    expect(lockExitCode(diff)).toBe(0);
  });

  it('lists added, removed and changed entries with each changed path', () => {
    const changed = {
      ...lists,
      tools: [{ ...echo, inputSchema: { ...echo.inputSchema, properties: { message: { type: 'number' } }, required: ['message', 'loud'] } }, { name: 'fresh', inputSchema: { type: 'object' } }],
      prompts: [{ name: 'greet', description: 'Hello', arguments: [{ name: 'name', required: false }] }],
      resourceTemplates: [],
    };
    const diff = diffLock(lockOf(lists), lockOf(changed));
    expect(diff.added).toEqual([{ kind: 'tool', name: 'fresh' }]);
    expect(diff.removed).toEqual([
      { kind: 'tool', name: 'add' },
      { kind: 'resourceTemplate', name: 'note' },
    ]);
    expect(diff.changed).toEqual([
      {
        kind: 'tool',
        name: 'echo',
        paths: [
          { path: '$.inputSchema.properties.message.type', old: 'string', new: 'number' },
          { path: '$.inputSchema.required[1]', old: undefined, new: 'loud' },
        ],
      },
      { kind: 'prompt', name: 'greet', paths: [{ path: '$.arguments[0].required', old: true, new: false }] },
    ]);
    expect(lockExitCode(diff)).toBe(1);
  });

  it('does not count a change of the server name or the order of keys', () => {
    const renamed = { ...lists, serverName: 'other', tools: [{ ...add, inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }, echo] };
    expect(lockExitCode(diffLock(lockOf(lists), lockOf(renamed)))).toBe(0);
  });
});
