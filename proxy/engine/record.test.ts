/**
 * `--record FILE` in the UI mode (issue 10): the engine writes every session's trace as it runs,
 * one file per server when there are several, secrets masked, and the file reads back.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTrace } from '../../lib/trace/read-trace.ts';
import { Engine } from './engine.ts';
import { recordingPath } from './record.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EVERYTHING = { kind: 'stdio' as const, command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')], env: {} };

describe('recording', () => {
  it('names one file per server beside the given one', () => {
    expect(recordingPath('/tmp/run.jsonl', 'memory')).toBe('/tmp/run.memory.jsonl');
    expect(recordingPath('/tmp/run', 'a b/c')).toBe('/tmp/run.a_b_c.jsonl');
  });

  it('writes each session of the engine as it happens, the secret values masked', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'loupe-rec-')), 'ui.jsonl');
    const engine = new Engine({ record: { path: file, perSession: false } });
    const secret = 'sk-loupe-recording-secret-1234';
    const session = engine.createSession({ ...EVERYTHING, env: { SERVICE_KEY: secret } }, { name: 'everything', secretEnv: ['SERVICE_KEY'] });
    await engine.start(session);
    expect(session.status).toBe('connected');
    const outcome = await session.request('u1', 'tools/call', { name: 'get-env', arguments: {} });
    expect(outcome.ok).toBe(true);
    // Written while the session runs, before any shutdown.
    await new Promise((r) => setTimeout(r, 20));
    const live = readFileSync(file, 'utf8');
    expect(live).toContain('"method":"tools/call"');
    // A second server added later gets its own file rather than overwriting the first.
    const second = engine.createSession(EVERYTHING, { name: 'second' });
    await engine.shutdown();
    void second;
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(secret);
    const parsed = parseTrace(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.trace.header.session.config).toMatchObject({ env: { SERVICE_KEY: expect.stringMatching(/^•••• \(\d+ chars, masked\)$/) } });
      expect(parsed.trace.events.some((e) => e.kind === 'frame' && e.method === 'initialize')).toBe(true);
    }
    expect(readFileSync(recordingPath(file, 'second'), 'utf8').split('\n')[0]).toContain('"format":"mcp-loupe-trace"');
  });
});
