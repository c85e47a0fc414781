/**
 * Restarting a server (issue 25): `--watch` sees its source change, or the page asks. A real Loupe
 * in this process on a real stdio server whose source a test rewrites.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffSurfaces } from '../../lib/surface/diff.ts';
import type { SurfacePoint, TransportEvent } from '../../lib/wire/wire.ts';
import { LoupeHarness } from '../testing/harness.ts';
import { planWatch, type WatchPlan } from '../system/watch.ts';
import { writeWatchServer, WATCH_TOOLS_V2 } from '../../e2e/fixtures/watch-server.mjs';

const harness = new LoupeHarness();
const dirs: string[] = [];
afterEach(async () => {
  await harness.closeAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'loupe-restart-'));
  dirs.push(dir);
  const file = path.join(dir, 'server.mjs');
  writeWatchServer(file);
  return { dir, file };
}

describe('--watch restarts the server when its source changes', () => {
  it('marks the restart, fails the call in flight saying why, connects again and keeps each surface', async () => {
    const { dir, file } = project();
    const config = { kind: 'stdio' as const, command: process.execPath, args: [file], env: {}, cwd: dir };
    const lines: string[] = [];
    const { loupe, client } = await harness.start({ config, watch: planWatch({ paths: [], command: config.command, args: config.args, cwd: dir }) as WatchPlan, onWatch: (line) => lines.push(line) });
    const id = loupe.hub.primary!;
    await client.waitForStatus(id, ['connected']);
    const points = () => client.messages.flatMap((m) => (m.type === 'surface-point' && m.session === id ? [m.point] : [])) as SurfacePoint[];
    await client.until(() => points().length === 1, 10_000, 'the first surface point');
    expect(points()[0]).toMatchObject({ reason: 'connected' });
    expect((points()[0].lists.tools as { name: string }[]).map((t) => t.name)).toEqual(['echo', 'slow']);

    const slow = client.request(id, 'tools/call', { name: 'slow', arguments: {} });
    await new Promise((r) => setTimeout(r, 300));
    writeWatchServer(file, { version: '1.1.0', tools: WATCH_TOOLS_V2 });

    const answer = await slow;
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error).toMatchObject({ code: 'RESTARTED', message: 'The server was restarted (server.mjs changed) before it answered.' });
    await client.until(() => points().length === 2, 15_000, 'the surface after the restart');
    const [before, after] = points();
    expect(after.reason).toBe('restarted: server.mjs changed');
    const diff = diffSurfaces(before.lists, after.lists);
    expect(diff.changes.map((c) => `${c.change} ${c.name} ${c.severity}`)).toEqual(['changed echo breaking', 'added add info']);
    const marker = client.events.find((e): e is TransportEvent => e.kind === 'transport' && e.marker === 'restart');
    expect(marker?.message).toBe('Restarted: server.mjs changed');
    expect(lines).toEqual(['server.mjs changed: restarting the server']);
    // The same session goes on: its info is connected to the new process, with the new version.
    const info = await client.waitForStatus(id, ['connected']);
    expect(info.serverInfo?.version).toBe('1.1.0');
  }, 40_000);

  it('restarts on the page’s Restart with the same words, and a new tab gets every point in its snapshot', async () => {
    const { dir, file } = project();
    const { loupe, client } = await harness.start({ config: { kind: 'stdio', command: process.execPath, args: [file], env: {}, cwd: dir } });
    const id = loupe.hub.primary!;
    await client.waitForStatus(id, ['connected']);
    // Not listed at connect (those would be requests the user did not make): first at the restart, before it.
    await new Promise((r) => setTimeout(r, 200));
    expect(loupe.hub.engine.surfaces.of(id)).toEqual([]);
    client.send({ type: 'restart', session: id });
    await client.until(() => loupe.hub.engine.surfaces.of(id).length === 2, 15_000, 'the point after Restart');
    expect(loupe.hub.engine.surfaces.of(id)[1].reason).toBe('restarted: Restart in the page');
    const second = await harness.open(loupe);
    await second.until(() => second.messages.some((m) => m.type === 'snapshot'), 5_000, 'the snapshot');
    const snapshot = second.messages.find((m) => m.type === 'snapshot');
    expect(snapshot?.type === 'snapshot' && snapshot.surfaces?.[id]?.map((p) => p.reason)).toEqual(['connected', 'restarted: Restart in the page']);
  }, 40_000);
});
