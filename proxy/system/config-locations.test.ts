/**
 * The hosts' MCP config files (issue 9): where each lives per OS, and what list-config-locations
 * sends for a HOME (a temp dir) holding some of them. They are only read, never written.
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../lib/wire/wire.ts';
import { knownLocations, listConfigLocations } from './config-locations.ts';
import { LoupeHarness } from '../testing/harness.ts';

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

describe('knownLocations', () => {
  it('macOS, Windows and Linux paths of Claude Desktop, Cursor, VS Code, Windsurf, Claude Code and Cline', () => {
    const mac = knownLocations({ home: '/Users/u', platform: 'darwin', env: {}, cwd: '/p' }).map((l) => `${l.app}: ${l.path}`);
    expect(mac).toEqual([
      'Claude Desktop: /Users/u/Library/Application Support/Claude/claude_desktop_config.json',
      'Cursor: /Users/u/.cursor/mcp.json',
      'Cursor: /p/.cursor/mcp.json',
      'VS Code: /Users/u/Library/Application Support/Code/User/mcp.json',
      'VS Code: /p/.vscode/mcp.json',
      'Windsurf: /Users/u/.codeium/windsurf/mcp_config.json',
      'Claude Code: /p/.mcp.json',
      'Claude Code: /Users/u/.claude.json',
      'Cline: /Users/u/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    ]);
    const win = knownLocations({ home: 'C:\\Users\\u', platform: 'win32', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, cwd: 'C:\\p' });
    expect(win[0].path).toBe('C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(win[3].path).toBe('C:\\Users\\u\\AppData\\Roaming\\Code\\User\\mcp.json');
    const linux = knownLocations({ home: '/home/u', platform: 'linux', env: {}, cwd: '/p' });
    expect(linux[0].path).toBe('/home/u/.config/Claude/claude_desktop_config.json');
    expect(linux[3].path).toBe('/home/u/.config/Code/User/mcp.json');
  });
});

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe('list-config-locations', () => {
  it('lists the files that exist with their server counts, only this project\'s part of ~/.claude.json, and changes none', async () => {
    const home = mkdtempSync(join(tmpdir(), 'loupe-home-'));
    const cwd = mkdtempSync(join(tmpdir(), 'loupe-proj-'));
    const files = {
      claude: join(home, '.config/Claude/claude_desktop_config.json'),
      cursor: join(home, '.cursor/mcp.json'),
      vscode: join(cwd, '.vscode/mcp.json'),
      claudeJson: join(home, '.claude.json'),
      windsurf: join(home, '.codeium/windsurf/mcp_config.json'),
    };
    put(files.claude, JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'b' } } }));
    put(files.cursor, '{ "mcpServers": { "c": { "url": "https://c.example/mcp" } }, }');
    put(files.vscode, JSON.stringify({ servers: { v: { type: 'stdio', command: 'v' } } }));
    put(files.claudeJson, JSON.stringify({ userID: 'private', history: ['secret prompt'], mcpServers: { u: { command: 'u' } }, projects: { [cwd]: { mcpServers: { p: { command: 'p' } } }, '/elsewhere': { mcpServers: { q: { command: 'q' } } } } }));
    put(files.windsurf, '{ not json');
    const before = Object.fromEntries(Object.values(files).map((f) => [f, [readFileSync(f, 'utf8'), statSync(f).mtimeMs]]));

    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const direct = await listConfigLocations({ home, platform: 'linux', env: {}, cwd });
      expect(direct.map((l) => [l.app, l.path, l.servers])).toEqual([
        ['Claude Desktop', files.claude, 2],
        ['Cursor', files.cursor, 1],
        ['VS Code', files.vscode, 1],
        ['Windsurf', files.windsurf, undefined],
        ['Claude Code', files.claudeJson, 2],
      ]);
      expect(direct[3].error).toBeTruthy();
      const claudeCode = direct[4].text!;
      expect(claudeCode).not.toContain('private');
      expect(claudeCode).not.toContain('"q"');

      const { client } = await harness.start({ cwd });
      client.send({ type: 'list-config-locations', requestId: 'L' });
      const answer = await client.until(() => client.messages.find((m): m is Extract<ServerMessage, { type: 'config-locations' }> => m.type === 'config-locations'));
      expect(answer.requestId).toBe('L');
      expect(answer.locations.map((l) => l.path)).toEqual(direct.map((l) => l.path));
    } finally {
      process.env.HOME = saved;
    }
    for (const [f, [text, mtime]] of Object.entries(before)) {
      expect(readFileSync(f, 'utf8')).toBe(text);
      expect(statSync(f).mtimeMs).toBe(mtime);
    }
  });
});
