/**
 * Integration (issue 9): a real Loupe with a workspace of several real stdio servers, driven over
 * the wire as the page drives it: every new message, the subscriptions, saving, and secrets (a
 * sentinel value that must never appear in any frame a tab receives, nor in the saved file).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage, SessionInfo } from '../../lib/wire/wire.ts';
import { parseWorkspace } from '../../lib/workspace/workspace.ts';
import type { WireTestClient } from '../testing/client.ts';
import { LoupeHarness } from '../testing/harness.ts';
import { processAlive } from '../system/process-group.ts';

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/workspace-server.mjs', import.meta.url));
const SENTINEL = 'sk-SENTINEL-7f3a9c-never-on-the-wire';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

const entry = (name: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [FIXTURE, name], ...extra });

function workspaceFile(servers: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-ws-'));
  const path = join(dir, 'mcp.json');
  const text = `${JSON.stringify({ mcpServers: servers, ...extra }, null, 2)}\n`;
  writeFileSync(path, text);
  const parsed = parseWorkspace(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return { dir, path, text, workspace: parsed.value };
}

async function open(servers: Record<string, unknown>, extra?: Record<string, unknown>) {
  const file = workspaceFile(servers, extra);
  const started = await harness.start({ workspace: file, cwd: file.dir });
  return { ...started, file };
}

const byName = (client: WireTestClient, name: string) => [...client.sessions.values()].find((s) => s.name === name);
const named = (client: WireTestClient, name: string, statuses: SessionInfo['status'][] = ['connected', 'failed']) =>
  client.until(() => {
    const s = byName(client, name);
    return s && statuses.includes(s.status) ? s : undefined;
  }, 15_000, `${name} to be ${statuses.join('/')}`);
const last = <T extends ServerMessage['type']>(client: WireTestClient, type: T) =>
  client.until(() => client.messages.findLast((m): m is Extract<ServerMessage, { type: T }> => m.type === type), 15_000, type);
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0].text;
const noSentinel = (client: WireTestClient) => expect(client.texts.filter((t) => t.includes(SENTINEL))).toEqual([]);

describe('a workspace of several servers', () => {
  it('connects every server at once; a disabled one is listed, a failing one stops none of the others', async () => {
    const { client, loupe } = await open({ a: entry('a'), b: entry('b'), off: entry('off', { disabled: true }), broken: { command: 'no-such-command-loupe-test' } });
    const [a, b, broken] = await Promise.all([named(client, 'a'), named(client, 'b'), named(client, 'broken')]);
    expect([a.status, b.status, broken.status]).toEqual(['connected', 'connected', 'failed']);
    expect(broken.error?.message).toMatch(/not found/i);
    const off = byName(client, 'off')!;
    expect(off).toMatchObject({ status: 'disconnected', disabled: true });
    expect(off.pid).toBeUndefined();
    expect(loupe.hub.primary).toBe(a.id);
    const answer = await client.request(b.id, 'tools/call', { name: 'whoami', arguments: {} });
    expect(answer.ok && textOf(answer.result)).toBe('b');
  });

  it('a server waiting for an ${input:} is disconnected with a note until the page provides it; the value never reaches the page', async () => {
    const { client } = await open({ keyed: entry('keyed', { env: { TOKEN: '${input:tok}' } }) }, { inputs: [{ id: 'tok', type: 'promptString', password: true, description: 'The token' }] });
    const waiting = await named(client, 'keyed', ['disconnected']);
    expect(waiting.note).toMatch(/Waiting for input tok/);
    expect(waiting.waitingForInputs).toEqual(['tok']);
    const snapshot = await last(client, 'snapshot');
    expect(snapshot.workspace?.inputsNeeded).toEqual([expect.objectContaining({ id: 'tok', password: true })]);
    client.send({ type: 'provide-inputs', values: { tok: SENTINEL } });
    const connected = await named(client, 'keyed', ['connected']);
    expect(connected.config.kind === 'stdio' && connected.config.env.TOKEN).toBe('${input:tok}');
    expect(connected.note).toBeUndefined();
    const digest = await client.request(connected.id, 'tools/call', { name: 'env-digest', arguments: { name: 'TOKEN' } });
    expect(digest.ok && textOf(digest.result)).toBe(sha(SENTINEL));
    noSentinel(client);
  });

  it('${env:X} comes from Loupe\'s own environment', async () => {
    const file = workspaceFile({ e: entry('e', { env: { FROM_ENV: '${env:LOUPE_TEST_VALUE}' } }) });
    const { client } = await harness.start({ workspace: file, cwd: file.dir, env: { LOUPE_TEST_VALUE: 'from-loupe' } });
    const e = await named(client, 'e', ['connected']);
    const digest = await client.request(e.id, 'tools/call', { name: 'env-digest', arguments: { name: 'FROM_ENV' } });
    expect(digest.ok && textOf(digest.result)).toBe(sha('from-loupe'));
  });
});

describe('servers added, edited, restarted and removed from the page', () => {
  it('add-server → session to every tab and server-added to the asking one; a clash is renamed with a note', async () => {
    const { client, loupe } = await open({ a: entry('a') });
    const other = await harness.open(loupe);
    await named(client, 'a', ['connected']);
    client.send({ type: 'add-server', requestId: 'r1', config: { kind: 'stdio', name: 'a', command: process.execPath, args: [FIXTURE, 'second'], env: {} } });
    const added = await last(client, 'server-added');
    expect(added).toMatchObject({ requestId: 'r1', session: { name: 'a-2' } });
    expect(other.messages.some((m) => m.type === 'server-added')).toBe(false);
    await other.waitForStatus(added.session.id, ['connected']);
    const state = await last(client, 'workspace');
    expect(state.workspace.notes.join('\n')).toMatch(/"a-2"/);
    const who = await client.request(added.session.id, 'tools/call', { name: 'whoami', arguments: {} });
    expect(who.ok && textOf(who.result)).toBe('second');
  });

  it('connect: false adds without starting; update-server edits (and reconnects a live one); restart starts a new process', async () => {
    const { client } = await open({ a: entry('a') });
    const a = await named(client, 'a', ['connected']);
    client.send({ type: 'add-server', requestId: 'r', connect: false, config: { kind: 'stdio', name: 'idle', command: process.execPath, args: [FIXTURE, 'idle'], env: {} } });
    const idle = (await last(client, 'server-added')).session;
    expect(idle.status).toBe('disconnected');
    client.send({ type: 'update-server', session: a.id, config: { ...a.config, args: [FIXTURE, 'edited'] } });
    await client.until(() => client.messages.some((m) => m.type === 'session' && m.session.id === a.id && m.session.status === 'connecting'), 10_000, 'reconnect');
    await client.waitForStatus(a.id, ['connected']);
    const who = await client.request(a.id, 'tools/call', { name: 'whoami', arguments: {} });
    expect(who.ok && textOf(who.result)).toBe('edited');
    const pid = client.status(a.id)!.pid;
    client.send({ type: 'restart', session: a.id });
    await client.until(() => client.status(a.id)?.status === 'connected' && client.status(a.id)?.pid !== pid, 10_000, 'restarted');
    expect(client.status(idle.id)!.status).toBe('disconnected');
  });

  it('remove-server stops the server and sends session-removed to every tab', async () => {
    const { client, loupe } = await open({ a: entry('a'), b: entry('b') });
    const other = await harness.open(loupe);
    const a = await named(client, 'a', ['connected']);
    const pid = a.pid!;
    client.send({ type: 'remove-server', session: a.id });
    for (const tab of [client, other]) await tab.until(() => tab.messages.some((m) => m.type === 'session-removed' && m.session === a.id), 5_000, 'session-removed');
    await client.until(() => !processAlive(pid), 5_000, 'the process to stop');
    expect(client.sessions.has(a.id)).toBe(false);
    const reloaded = await harness.open(loupe);
    await reloaded.until(() => reloaded.messages[0]?.type === 'snapshot');
    const snapshot = reloaded.messages[0] as Extract<ServerMessage, { type: 'snapshot' }>;
    expect(snapshot.sessions.map((s) => s.name)).toEqual(['b']);
  });
});

describe('subscriptions', () => {
  it('full events only for subscribed sessions (a trace-reset first), stats for the others', async () => {
    const { client } = await open({ a: entry('a'), b: entry('b') });
    const [a, b] = await Promise.all([named(client, 'a', ['connected']), named(client, 'b', ['connected'])]);
    client.send({ type: 'subscribe', sessions: [a.id] });
    const reset = await last(client, 'trace-reset');
    expect(reset.session).toBe(a.id);
    expect(reset.events.length).toBe(reset.stats.kept);
    expect(reset.events.some((e) => e.kind === 'frame' && e.method === 'initialize')).toBe(true);
    const mark = client.messages.length;
    await client.request(b.id, 'tools/call', { name: 'whoami', arguments: {} });
    await client.request(a.id, 'tools/call', { name: 'whoami', arguments: {} });
    await client.until(() => client.messages.slice(mark).some((m) => m.type === 'events' && m.events.some((e) => e.session === a.id && e.kind === 'frame' && e.dir === 'in')), 5_000, 'a events');
    await client.until(() => client.messages.slice(mark).some((m) => m.type === 'events' && (m.stats ?? []).some((s) => s.session === b.id)), 5_000, 'b stats');
    const later = client.messages.slice(mark).flatMap((m) => (m.type === 'events' ? m.events : []));
    expect(later.filter((e) => e.session === b.id)).toEqual([]);
    // Subscribing to b as well: one reset for b, none again for a.
    client.send({ type: 'subscribe', sessions: [a.id, b.id] });
    const resetB = await client.until(() => client.messages.slice(mark).find((m) => m.type === 'trace-reset'), 5_000, 'reset b');
    expect(resetB.type === 'trace-reset' && resetB.session).toBe(b.id);
    await new Promise((r) => setTimeout(r, 100));
    expect(client.messages.slice(mark).filter((m) => m.type === 'trace-reset')).toHaveLength(1);
  });

  it('the snapshot carries the tail of each trace (200), the whole of it comes with subscribe', async () => {
    const { client, loupe } = await open({ a: entry('a') });
    const a = await named(client, 'a', ['connected']);
    for (let i = 0; i < 120; i++) client.send({ type: 'request', session: a.id, id: `p${i}`, method: 'ping' });
    await client.until(() => client.messages.filter((m) => m.type === 'response').length >= 120, 15_000, 'pings');
    const kept = loupe.hub.session(a.id)!.trace.stats().kept;
    expect(kept).toBeGreaterThan(240);
    const tab = await harness.open(loupe);
    await tab.until(() => tab.messages[0]?.type === 'snapshot');
    const snapshot = tab.messages[0] as Extract<ServerMessage, { type: 'snapshot' }>;
    expect(snapshot.events).toHaveLength(200);
    expect(snapshot.events.at(-1)!.seq).toBe(kept);
    tab.send({ type: 'subscribe', sessions: ['*'] });
    const reset = await last(tab, 'trace-reset');
    expect(reset.events.length).toBe(kept);
  });
});

describe('secrets', () => {
  it('a secret env value is held by the proxy: the page sees its reference, the server gets the value, an edit sent back keeps it', async () => {
    const { client, file } = await open({ a: entry('a') });
    await named(client, 'a', ['connected']);
    client.send({ type: 'add-server', requestId: 's', secretEnv: ['API_KEY'], config: { kind: 'stdio', name: 'keyed', command: process.execPath, args: [FIXTURE, 'keyed'], env: { API_KEY: SENTINEL, PLAIN: 'x' } } });
    const added = (await last(client, 'server-added')).session;
    expect(added.secretEnv).toEqual(['API_KEY']);
    expect(added.config.kind === 'stdio' && added.config.env).toEqual({ API_KEY: '${input:loupe-keyed-API_KEY}', PLAIN: 'x' });
    await client.waitForStatus(added.id, ['connected']);
    const digest = async () => {
      const r = await client.request(added.id, 'tools/call', { name: 'env-digest', arguments: { name: 'API_KEY' } });
      return r.ok && textOf(r.result);
    };
    expect(await digest()).toBe(sha(SENTINEL));
    // The page sends back what it was shown (the reference): the value held is kept.
    const shown = client.status(added.id)!;
    client.send({ type: 'update-server', session: added.id, config: { ...shown.config, args: [FIXTURE, 'keyed-2'] } });
    await client.until(() => client.status(added.id)?.status === 'connecting', 5_000, 'reconnect');
    await client.waitForStatus(added.id, ['connected']);
    expect(await digest()).toBe(sha(SENTINEL));
    client.send({ type: 'save-workspace', requestId: 'w', overwrite: true });
    await last(client, 'workspace-saved');
    const saved = readFileSync(file.path, 'utf8');
    expect(saved).not.toContain(SENTINEL);
    expect(saved).toContain('${input:loupe-keyed-API_KEY}');
    noSentinel(client);
    const reloaded = await harness.open((await harness.start()).loupe);
    noSentinel(reloaded);
  });
});

describe('save-workspace', () => {
  it('writes the file given by --config; refuses to overwrite a file changed on disk unless told; saved calls go in the file', async () => {
    const { client, file } = await open({ a: entry('a'), off: entry('off', { disabled: true }) });
    const a = await named(client, 'a', ['connected']);
    client.send({ type: 'set-saved-calls', session: a.id, calls: [{ name: 'who', kind: 'tool', target: 'whoami', arguments: {} }] });
    const state = await client.until(() => client.messages.findLast((m) => m.type === 'workspace' && m.workspace.savedCalls[a.id]), 5_000, 'saved calls');
    expect(state.type === 'workspace' && state.workspace.savedCalls[a.id]).toEqual([{ name: 'who', kind: 'tool', target: 'whoami', arguments: {} }]);
    client.send({ type: 'save-workspace', requestId: 'one' });
    expect(await last(client, 'workspace-saved')).toMatchObject({ requestId: 'one', path: file.path });
    const first = readFileSync(file.path, 'utf8');
    const reparsed = parseWorkspace(first);
    expect(reparsed.ok && reparsed.value.servers.map((s) => [s.name, s.disabled, s.extras.savedCalls?.length ?? 0])).toEqual([['a', false, 1], ['off', true, 0]]);
    // Saved twice with no change: the same text (stable for git).
    client.send({ type: 'save-workspace', requestId: 'two' });
    await client.until(() => client.messages.some((m) => m.type === 'workspace-saved' && m.requestId === 'two'));
    expect(readFileSync(file.path, 'utf8')).toBe(first);
    writeFileSync(file.path, first.replace('"a"', '"edited-elsewhere"'));
    client.send({ type: 'save-workspace', requestId: 'three' });
    const conflict = await last(client, 'workspace-conflict');
    expect(conflict).toMatchObject({ requestId: 'three', path: file.path, reason: expect.stringMatching(/changed on disk/) });
    expect(readFileSync(file.path, 'utf8')).toContain('edited-elsewhere');
    client.send({ type: 'save-workspace', requestId: 'four', overwrite: true });
    await client.until(() => client.messages.some((m) => m.type === 'workspace-saved' && m.requestId === 'four'));
    expect(readFileSync(file.path, 'utf8')).toBe(first);
  });

  it('keeps what it does not use: unknown entry and file keys survive a save; an imported disabled server stays unstarted until enabled', async () => {
    const { client, file } = await open({ a: entry('a', { autoApprove: ['whoami'], timeout: 30 }) }, { globalShortcut: 'Ctrl+Space' });
    const a = await named(client, 'a', ['connected']);
    client.send({ type: 'add-server', config: { kind: 'stdio', name: 'later', command: process.execPath, args: [FIXTURE, 'later'], env: {} }, disabled: true, other: { alwaysAllow: ['x'] }, requestId: 'add' });
    const added = await last(client, 'server-added');
    expect(added.session).toMatchObject({ name: 'later', disabled: true, status: 'disconnected' });
    client.send({ type: 'save-workspace', requestId: 'save' });
    await client.until(() => client.messages.some((m) => m.type === 'workspace-saved' && m.requestId === 'save'));
    const saved = JSON.parse(readFileSync(file.path, 'utf8'));
    expect(saved.globalShortcut).toBe('Ctrl+Space');
    expect(saved.mcpServers.a).toMatchObject({ autoApprove: ['whoami'], timeout: 30 });
    expect(saved.mcpServers.later).toMatchObject({ disabled: true, alwaysAllow: ['x'] });
    // Enabling (connecting) it clears `disabled` for the next save.
    client.send({ type: 'restart', session: added.session.id });
    await named(client, 'later', ['connected']);
    client.send({ type: 'save-workspace', requestId: 'again' });
    await client.until(() => client.messages.some((m) => m.type === 'workspace-saved' && m.requestId === 'again'));
    expect(JSON.parse(readFileSync(file.path, 'utf8')).mcpServers.later.disabled).toBeUndefined();
    expect(a.status).toBe('connected');
  });

  it('relative names are resolved against the launch folder and may not leave it; links and other files are refused', async () => {
    const { client, file } = await open({ a: entry('a') });
    const errorFor = async (requestId: string) =>
      client.until(() => client.messages.find((m) => m.type === 'error' && m.error.detail?.requestId === requestId), 5_000, `error ${requestId}`);
    client.send({ type: 'save-workspace', requestId: 'rel', path: 'copy.json' });
    expect(await last(client, 'workspace-saved')).toMatchObject({ requestId: 'rel', path: join(file.dir, 'copy.json') });
    client.send({ type: 'save-workspace', requestId: 'up', path: '../shared/x.json' });
    expect(await errorFor('up')).toMatchObject({ error: { message: expect.stringMatching(/leads out of the folder/) } });
    symlinkSync(join(file.dir, 'copy.json'), join(file.dir, 'link.json'));
    client.send({ type: 'save-workspace', requestId: 'link', path: 'link.json', overwrite: true });
    expect(await errorFor('link')).toMatchObject({ error: { message: expect.stringMatching(/symbolic link/) } });
    client.send({ type: 'save-workspace', requestId: 'ext', path: 'notes.txt' });
    expect(await errorFor('ext')).toMatchObject({ error: { message: expect.stringMatching(/\.json/) } });
    // A file Loupe never read is a conflict, not silently replaced.
    writeFileSync(join(file.dir, 'theirs.json'), '{}\n');
    client.send({ type: 'save-workspace', requestId: 'theirs', path: 'theirs.json' });
    expect(await last(client, 'workspace-conflict')).toMatchObject({ requestId: 'theirs', reason: expect.stringMatching(/did not read/) });
  });
});

describe('secret headers of a remote server', () => {
  it('the server gets the value; no HTTP exchange, session or message the page receives carries it', async () => {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    // Stateless Streamable HTTP: a fresh server and transport per request (the SDK's documented pattern).
    const http = createServer((req, res) => {
      seen.push(String(req.headers['x-loupe-test'] ?? ''));
      const server = new McpServer({ name: 'remote', version: '0' });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const { port } = http.address() as { port: number };
      const { client } = await harness.start();
      client.send({ type: 'add-server', requestId: 'h', secretHeaders: ['X-Loupe-Test'], config: { kind: 'http', name: 'remote', url: `http://127.0.0.1:${port}/mcp`, transport: 'http', headers: { 'X-Loupe-Test': SENTINEL } } });
      const added = (await last(client, 'server-added')).session;
      expect(added.config.kind === 'http' && added.config.headers).toEqual({ 'X-Loupe-Test': '${input:loupe-remote-X-Loupe-Test}' });
      await client.waitForStatus(added.id, ['connected']);
      expect(seen).toContain(SENTINEL);
      const exchanges = client.events.filter((e) => e.kind === 'http');
      expect(exchanges.length).toBeGreaterThan(0);
      expect(exchanges[0].kind === 'http' && exchanges[0].requestHeaders['x-loupe-test']).toMatch(/^•••• \(\d+ chars, masked\)$/);
      noSentinel(client);
    } finally {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    }
  });
});
