/**
 * Collections in the proxy's workspace (issue 27), over the wire as the page drives it: the file's
 * `x-mcp-loupe.collections` in the snapshot, `set-collections` broadcast to every tab, a bad list
 * refused with the reader's sentence (nothing changed), and the list written back by a save.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Collection } from '../../../lib/collections/schema.ts';
import type { ServerMessage } from '../../../lib/wire/wire.ts';
import { parseWorkspace } from '../../../lib/workspace/workspace.ts';
import type { WireTestClient } from '../../testing/client.ts';
import { LoupeHarness } from '../../testing/harness.ts';

const FIXTURE = fileURLToPath(new URL('../../../e2e/fixtures/workspace-server.mjs', import.meta.url));
const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

const SMOKE: Collection = { name: 'smoke', calls: [{ name: 'who', kind: 'tool', target: 'whoami', assert: [{ isError: false }] }] };

async function open(collections: Collection[]) {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-collections-'));
  const path = join(dir, 'mcp.json');
  writeFileSync(path, `${JSON.stringify({ mcpServers: { a: { command: process.execPath, args: [FIXTURE, 'a'] } }, 'x-mcp-loupe': { collections } }, null, 2)}\n`);
  const parsed = parseWorkspace(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return { ...(await harness.start({ workspace: { path, text: readFileSync(path, 'utf8'), workspace: parsed.value }, cwd: dir })), path };
}

const lastOf = <T extends ServerMessage['type']>(client: WireTestClient, type: T, test: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true) =>
  client.until(() => client.messages.findLast((m): m is Extract<ServerMessage, { type: T }> => m.type === type && test(m as Extract<ServerMessage, { type: T }>)), 10_000, type);

describe('set-collections (issue 27)', () => {
  it('gives every tab the file’s collections, replaces them from one tab for all, refuses a bad list in words, and saves them', async () => {
    const { client, loupe, path } = await open([SMOKE]);
    const snapshot = await lastOf(client, 'snapshot');
    expect(snapshot.workspace?.collections).toEqual([SMOKE]);
    const other = await harness.open(loupe);

    const next: Collection[] = [SMOKE, { name: 'more', server: 'a', variables: { who: 'me' }, calls: [{ name: 'echo', kind: 'request', target: 'ping' }] }];
    client.send({ type: 'set-collections', collections: next });
    const seen = await lastOf(other, 'workspace', (m) => m.workspace.collections?.length === 2);
    expect(seen.workspace.collections).toEqual(next);

    // A bad assertion: the sentence names where, and nothing changes.
    client.send({ type: 'set-collections', collections: [{ name: 'bad', calls: [{ name: 'x', kind: 'tool', target: 't', assert: [{ path: 'content', equals: 1 }] }] }] });
    const error = await lastOf(client, 'error');
    expect(error.error.message).toMatch(/^The collections were not saved: collections\[0\]\.calls\[0\]\.assert\[0\]\.path/);
    const before = other.messages.filter((m) => m.type === 'workspace').length;
    client.send({ type: 'set-collections', collections: [{ name: 'twice', calls: [] }, { name: 'twice', calls: [] }] });
    expect((await lastOf(client, 'error', (m) => m.error.message.includes('twice'))).error.message).toMatch(/used twice/);
    expect(other.messages.filter((m) => m.type === 'workspace').length).toBe(before);

    client.send({ type: 'save-workspace', requestId: 'save' });
    await lastOf(client, 'workspace-saved');
    const saved = parseWorkspace(readFileSync(path, 'utf8'));
    expect(saved.ok && saved.value.collections).toEqual(next);
    client.send({ type: 'set-collections', collections: [] });
    expect((await lastOf(other, 'workspace', (m) => m.workspace.collections === undefined)).workspace.collections).toBeUndefined();
  });
});
