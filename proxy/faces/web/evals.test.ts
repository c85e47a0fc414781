/**
 * Model evals in the proxy's workspace (issue 27), over the wire as the page drives it: the file's
 * `x-mcp-loupe.evals` in the snapshot, `set-evals` broadcast to every tab, a bad file refused with
 * the reader's sentence (nothing changed), the evals written back by a save, no case clearing them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalFile } from '../../../lib/evals/schema.ts';
import type { ServerMessage } from '../../../lib/wire/wire.ts';
import { parseWorkspace } from '../../../lib/workspace/workspace.ts';
import type { WireTestClient } from '../../testing/client.ts';
import { LoupeHarness } from '../../testing/harness.ts';

const FIXTURE = fileURLToPath(new URL('../../../e2e/fixtures/workspace-server.mjs', import.meta.url));
const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

const EVALS: EvalFile = { cases: [{ name: 'who', prompt: 'Who are you? Use whoami.', expect: { tools: [{ name: 'whoami' }] } }], models: ['openai:gpt-x'] };

async function open(evals: EvalFile) {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-evals-'));
  const path = join(dir, 'mcp.json');
  writeFileSync(path, `${JSON.stringify({ mcpServers: { a: { command: process.execPath, args: [FIXTURE, 'a'] } }, 'x-mcp-loupe': { evals } }, null, 2)}\n`);
  const parsed = parseWorkspace(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return { ...(await harness.start({ workspace: { path, text: readFileSync(path, 'utf8'), workspace: parsed.value }, cwd: dir })), path };
}

const lastOf = <T extends ServerMessage['type']>(client: WireTestClient, type: T, test: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true) =>
  client.until(() => client.messages.findLast((m): m is Extract<ServerMessage, { type: T }> => m.type === type && test(m as Extract<ServerMessage, { type: T }>)), 10_000, type);

describe('set-evals (issue 27)', () => {
  it('gives every tab the file’s evals, replaces them from one tab for all, refuses a bad file in words, saves them, and clears them', async () => {
    const { client, loupe, path } = await open(EVALS);
    expect((await lastOf(client, 'snapshot')).workspace?.evals).toEqual(EVALS);
    const other = await harness.open(loupe);

    const next: EvalFile = { ...EVALS, cases: [...EVALS.cases, { name: 'echo', prompt: 'Echo hi', expect: { forbid: ['wipe'], answerContains: ['hi'] } }], repeats: 3 };
    client.send({ type: 'set-evals', evals: next });
    expect((await lastOf(other, 'workspace', (m) => m.workspace.evals?.cases.length === 2)).workspace.evals).toEqual(next);

    const before = other.messages.filter((m) => m.type === 'workspace').length;
    client.send({ type: 'set-evals', evals: { cases: [{ name: 'x', prompt: 'p', expect: { answerMatches: '(' } }] } });
    expect((await lastOf(client, 'error')).error.message).toMatch(/^The evals were not saved: The eval file is not valid: cases\[0\]\.expect\.answerMatches: "\(" is not a regular expression/);
    expect(other.messages.filter((m) => m.type === 'workspace').length).toBe(before);

    client.send({ type: 'save-workspace', requestId: 'save' });
    await lastOf(client, 'workspace-saved');
    const saved = parseWorkspace(readFileSync(path, 'utf8'));
    expect(saved.ok && saved.value.evals).toEqual(next);
    client.send({ type: 'set-evals', evals: { cases: [] } });
    expect((await lastOf(other, 'workspace', (m) => m.workspace.evals === undefined)).workspace.evals).toBeUndefined();
  });
});
