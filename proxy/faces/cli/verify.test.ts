/**
 * Integration: record a session against a real server, then verify the recording against the same
 * server (no drift, although its answers carry fresh timestamps), against a changed variant (drift,
 * first divergence with both values), one that hangs and one that dies; and the lockfile written,
 * then checked against the changed variant. Also server-everything, recorded and verified.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import { parseTrace, type ImportedTrace } from '../../../lib/trace/read-trace.ts';
import { defaultServer } from '../../default-server.ts';
import { openFaceSession } from './face-session.ts';
import type { Session } from '../../session/session.ts';
import { buildLock, formatVerifyText, lockRunExitCode, lockRunText, parseLock, runLock, runVerify, verifyExitCode } from './verify.ts';

const FIXTURE = path.join(import.meta.dirname, '../../..', 'e2e', 'fixtures', 'verify-server.mjs');
const fixture = (variant?: string): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: variant ? { VERIFY_VARIANT: variant } : {} });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
const dir = mkdtempSync(path.join(tmpdir(), 'loupe-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function open(config: ServerConfig): Promise<Session> {
  const face = await openFaceSession(config, { connectTimeoutMs: 15_000 });
  closers.push(face.close);
  if (!face.ok) throw new Error(`could not connect: ${face.error.message}`);
  return face.session;
}

let uiIds = 0;
async function call(session: Session, method: string, params?: Record<string, unknown>, progress = false) {
  const outcome = await session.request(`t-${++uiIds}`, method, params, { timeoutMs: 10_000, ...(progress ? { onProgress: () => undefined } : {}) });
  expect(outcome.ok, `${method} failed: ${JSON.stringify(outcome)}`).toBe(true);
  return outcome;
}

/** The session's trace as a JSONL recording: a header line, then one event per line. */
function recordingText(session: Session): string {
  const header = { format: 'mcp-loupe-trace', version: 1, exportedAt: new Date().toISOString(), exportedBy: 'verify.test', session: { ...session.snapshot(), pid: undefined } };
  return [JSON.stringify(header), ...session.trace.all().map((e) => JSON.stringify(e))].join('\n') + '\n';
}

/** A recording written to a file and read back as --verify reads it. */
function readBack(text: string): ImportedTrace {
  const file = path.join(dir, `trace-${++uiIds}.jsonl`);
  writeFileSync(file, text);
  const parsed = parseTrace(readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.trace;
}

const recording = (session: Session) => readBack(recordingText(session));

let recorded: { trace: ImportedTrace; text: string } | undefined;
/** One recording of the original fixture, made once. */
async function fixtureRecording(): Promise<ImportedTrace> {
  return (await fixtureRecordingText()).trace;
}

async function fixtureRecordingText(): Promise<{ trace: ImportedTrace; text: string }> {
  if (recorded) return recorded;
  const session = await open(fixture());
  await call(session, 'tools/call', { name: 'echo', arguments: { message: 'hi' } }, true);
  await call(session, 'tools/call', { name: 'clock', arguments: {} });
  await call(session, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
  await call(session, 'tools/list');
  await call(session, 'resources/templates/list');
  await call(session, 'resources/read', { uri: 'note://7' });
  await call(session, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } });
  const text = recordingText(session);
  recorded = { trace: readBack(text), text };
  return recorded;
}

describe('verify against the fixture', () => {
  it('finds no drift against the same server, though every clock answer is new', async () => {
    const trace = await fixtureRecording();
    const session = await open(fixture());
    const report = await runVerify(session, trace, { ignore: [], timeoutMs: 10_000 });
    expect(report.divergences).toEqual([]);
    expect(report).toMatchObject({ compared: 8, same: 8, divergenceCount: 0, notCompared: [], problems: [] });
    // Without the built-in rules the clock's timestamp and requestId would be drift.
    expect(report.ignores.find((i) => i.path === '$..timestamp')?.absorbed).toBe(1);
    expect(report.ignores.find((i) => i.path === '$..requestId')?.absorbed).toBe(1);
    expect(verifyExitCode(report)).toBe(0);
    const bare = await runVerify(session, trace, { ignore: [], timeoutMs: 10_000, defaults: false });
    expect(bare.divergences.map((d) => d.path)).toEqual(['$.structuredContent.timestamp']);
    expect(bare.divergences[0].differences).toBe(2);
  });

  it('uses what it can read of a damaged recording and says what it skipped', async () => {
    const { text } = await fixtureRecordingText();
    const lines = text.trimEnd().split('\n');
    // A line of garbage in the middle, and a last line cut short as by a crash mid-write.
    const damaged = [...lines.slice(0, 6), 'garbage', ...lines.slice(6), lines[3].slice(0, 25)].join('\n');
    const trace = readBack(damaged);
    const report = await runVerify(await open(fixture()), trace, { ignore: [], timeoutMs: 10_000 });
    expect(report.problems).toEqual([`line ${lines.length + 2}: cut short (the recording stopped mid-write); the complete lines before it are used`, 'line 7: not JSON (skipped)']);
    expect(report).toMatchObject({ compared: 8, divergenceCount: 0 });
    expect(formatVerifyText(report)).toContain('Problems in the recording (2):\n  line');
  });

  it('reports the first divergence with both values against the changed variant (exit 1)', async () => {
    const trace = await fixtureRecording();
    const session = await open(fixture('changed'));
    const report = await runVerify(session, trace, { ignore: [], timeoutMs: 10_000 });
    expect(verifyExitCode(report)).toBe(1);
    // The version differs too (1.0.0 → 1.1.0), and a release alone is not drift.
    expect(report.ignores.find((i) => i.path === '$.serverInfo.version')?.absorbed).toBe(1);
    const [first, ...rest] = report.divergences;
    expect(first).toMatchObject({ method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } }, path: '$.content[0].text', recorded: '"echo: hi"', live: '"ECHO: HI"' });
    // The recorded request asked for progress; its token is not what makes the difference.
    expect(first.frames.find((f) => f.label === 'request')?.text).toContain('progressToken');
    expect(first.frames.find((f) => f.label === 'live response')?.text).toContain('ECHO: HI');
    expect(rest.map((d) => [d.method, d.path])).toEqual([['tools/list', '$.tools[1].inputSchema.properties.c']]);
    const text = formatVerifyText(report);
    expect(text).toContain(`First divergence: seq ${first.seq} tools/call`);
    expect(text).toContain('recorded: "echo: hi"');
    expect(text).toContain('live:     "ECHO: HI"');
    expect(text).toContain('Result: drift: 2 of 8 answers differ (exit 1).');
  });

  it('takes a replayed request that times out as a divergence and goes on', async () => {
    const trace = await fixtureRecording();
    const session = await open(fixture('hang'));
    const report = await runVerify(session, trace, { ignore: [], timeoutMs: 400 });
    expect(report.divergences.map((d) => [d.kind, d.message])).toEqual([['timeout', 'No answer within 400 ms; the recording has one.']]);
    expect(report).toMatchObject({ compared: 8, same: 7 });
  });

  it('replays a request the recording has no answer for without comparing it, and cancels it if it still hangs', async () => {
    const hanging = await open(fixture('hang'));
    const unanswered = await hanging.request('t-hang', 'tools/call', { name: 'echo', arguments: { message: 'hi' } }, { timeoutMs: 300 });
    expect(unanswered.ok).toBe(false);
    await call(hanging, 'tools/call', { name: 'clock', arguments: {} });
    const trace = recording(hanging);

    const answered = await runVerify(await open(fixture()), trace, { ignore: [], timeoutMs: 5_000 });
    expect(answered).toMatchObject({ compared: 2, same: 2, divergenceCount: 0 });
    expect(answered.notCompared).toEqual([{ seq: expect.any(Number), method: 'tools/call', why: 'no answer in the recording: replayed, not compared (live: answered)' }]);
    expect(verifyExitCode(answered)).toBe(0);

    const live = await open(fixture('hang'));
    const started = Date.now();
    const stillHanging = await runVerify(live, trace, { ignore: [], timeoutMs: 40_000 });
    // Cancelled at the end of the replay, not left to its timeout.
    expect(Date.now() - started, 'cancelled, not left to the 40 s timeout').toBeLessThan(20_000);
    expect(stillHanging.notCompared.map((n) => n.why)).toEqual(['no answer in the recording: replayed, not compared (live: still waiting at the end, cancelled)']);
    const cancelled = live.trace.all().filter((e) => e.kind === 'frame' && e.dir === 'out' && e.method === 'notifications/cancelled');
    expect(cancelled).toHaveLength(1);
  });

  it('stops when the server dies during the replay and says what was not replayed', async () => {
    const trace = await fixtureRecording();
    const session = await open(fixture('crash'));
    const report = await runVerify(session, trace, { ignore: [], timeoutMs: 5_000 });
    expect(report.divergences.map((d) => [d.kind, d.params])).toEqual([['failed', { name: 'clock', arguments: {} }]]);
    expect(report.divergences[0].message).toMatch(/^Loupe got no answer: .*code 3/);
    expect(report.stopped).toMatch(/^the server stopped during the replay: .*code 3/);
    // The five requests after the clock were not sent.
    expect(report.notCompared.map((n) => n.why)).toEqual(Array(5).fill('not replayed: the replay stopped before it'));
    expect(report).toMatchObject({ compared: 3, same: 2 });
    expect(formatVerifyText(report)).toContain('and the replay stopped early (exit 1)');
    expect(verifyExitCode(report)).toBe(1);
  });
});

describe('lockfile against the fixture', () => {
  it('writes the surface, finds no change against the same server, and lists the changes of the variant', async () => {
    const file = path.join(dir, 'tools.lock.json');
    const original = await open(fixture());
    const written = await runLock(original, file);
    expect(written.kind).toBe('written');
    expect(lockRunExitCode(written)).toBe(0);
    expect(lockRunText(written)).toContain('4 tools, 1 resource templates, 1 prompts');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{\n  "format": "mcp-loupe-lock",\n  "version": 1,')).toBe(true);
    const parsed = parseLock(text);
    expect(parsed.ok && parsed.lock.tools.map((t) => t.name)).toEqual(['add', 'clock', 'echo', 'retired']);

    const same = await runLock(await open(fixture()), file);
    expect(same.kind === 'checked' && same.diff).toEqual({ added: [], removed: [], changed: [] });
    expect(lockRunExitCode(same)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);

    const checked = await runLock(await open(fixture('changed')), file);
    expect(checked.kind).toBe('checked');
    if (checked.kind !== 'checked') return;
    expect(checked.diff.added).toEqual([{ kind: 'tool', name: 'fresh' }]);
    expect(checked.diff.removed).toEqual([{ kind: 'tool', name: 'retired' }]);
    expect(checked.diff.changed).toEqual([{ kind: 'tool', name: 'add', paths: [{ path: '$.inputSchema.properties.c', old: undefined, new: { type: 'number', description: 'A third term' } }] }]);
    expect(lockRunExitCode(checked)).toBe(1);
    const out = lockRunText(checked);
    // The words the page shows after a restart (lib/surface/diff.ts), each change with its severity.
    expect(out).toContain(
      [
        'The tool surface changed: 1 added, 1 removed, 1 changed (1 breaking).',
        '~ tool add  [info]',
        '    info     input property "c" added ($.inputSchema.properties.c): (absent) → {"description":"A third term","type":"number"}',
        '- tool retired  [breaking]',
        '+ tool fresh  [info]',
        'If the change is intended, delete the lock file and run --lock again to write the new surface.',
      ].join('\n'),
    );
    expect(lockRunText(same)).toContain('The tool surface is as locked: nothing added, removed or changed.');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a file that is not a lock (exit 2) and can replace it when told', async () => {
    const file = path.join(dir, 'bad.lock.json');
    writeFileSync(file, '{"format":"something else"}');
    const session = await open(fixture());
    const bad = await runLock(session, file);
    expect(bad).toMatchObject({ kind: 'failed', exitCode: 2, error: expect.stringContaining('not a Loupe lock file') });
    const updated = await runLock(session, file, { update: true });
    expect(updated).toMatchObject({ kind: 'written', replaced: true });
    expect(lockRunText(updated)).toMatch(/^Updated /);
    expect(parseLock(readFileSync(file, 'utf8')).ok).toBe(true);
  });

  it('builds the lock of server-everything: its tools, templates and prompts, sorted by name', async () => {
    const session = await open(defaultServer());
    const built = await buildLock(session);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.lock.tools.map((t) => t.name)).toEqual([...built.lock.tools.map((t) => t.name)].sort());
    expect(built.lock.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']));
    expect(built.lock.resourceTemplates.length).toBeGreaterThan(0);
    expect(built.lock.prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt']));
  });
});

describe('verify against server-everything', () => {
  it('records a session and finds no drift replaying it', async () => {
    const session = await open(defaultServer());
    await call(session, 'tools/list');
    await call(session, 'tools/call', { name: 'echo', arguments: { message: 'hello' } });
    await call(session, 'tools/call', { name: 'get-sum', arguments: { a: 2, b: 40 } });
    await call(session, 'tools/call', { name: 'get-structured-content', arguments: { location: 'New York' } });
    await call(session, 'tools/call', { name: 'get-tiny-image', arguments: {} });
    await call(session, 'tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } }, true);
    await call(session, 'resources/list');
    await call(session, 'resources/templates/list');
    await call(session, 'resources/read', { uri: 'demo://resource/dynamic/text/1' });
    await call(session, 'prompts/list');
    await call(session, 'prompts/get', { name: 'simple-prompt' });
    await call(session, 'ping');
    // A task: its id is new on every run, and tasks/result must be sent with the live one.
    const created = await call(session, 'tools/call', { name: 'simulate-research-query', arguments: { topic: 'lenses' }, task: { ttl: 60_000 } });
    const taskId = (created as { result: { task: { taskId: string } } }).result.task.taskId;
    await call(session, 'tasks/result', { taskId });
    const trace = recording(session);

    const live = await open(defaultServer());
    // The dynamic text resource says the time of day inside its text ("created at 10:59:59 AM"):
    // no built-in rule can take part of a string, so this recording needs one rule of its own.
    const report = await runVerify(live, trace, { ignore: ['$.contents[*].text'], timeoutMs: 15_000 });
    expect(report.divergences).toEqual([]);
    // What server-everything needs of the built-in rules: only its task's clock readings and id
    // (in the CreateTaskResult, and the related-task _meta of tasks/result).
    const absorbed = Object.fromEntries(report.ignores.filter((i) => i.builtIn && i.absorbed > 0).map((i) => [i.path, i.absorbed]));
    expect(absorbed).toEqual({ '$..createdAt': 1, '$..lastUpdatedAt': 1, '$..taskId': 2 });
    expect(report.compared).toBe(15);
    expect(verifyExitCode(report)).toBe(0);
  }, 90_000);
});
