/**
 * Credentials given as headers stay out of everything Loupe writes or shows (issue 21, item 2),
 * against a real remote server that echoes them back in every encoding it can
 * (e2e/fixtures/echo-credentials.mjs): `--cli --record --verbose` through the built CLI (the
 * recording holds none of them and is the user's alone, 0600), and a launched Loupe whose page
 * (a wire client) receives the trace.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTrace } from '../../lib/trace/read-trace.ts';
import { LoupeHarness } from '../testing/harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const FIXTURE = join(ROOT, 'e2e', 'fixtures', 'echo-credentials.mjs');

/** The headers the issue names, each with a value of the shape its service uses. */
const HEADERS: Record<string, string> = {
  'X-Goog-Api-Key': 'AIzaSyD-fake9tSrke72PouQMnMX-a7eZSW0jkF',
  'X-Functions-Key': 'aZ3/fake+Functions/Key9kq0w2e4r6t8y0u1i3o5p7==',
  'Ocp-Apim-Subscription-Key': '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  'X-Auth': 'xauth-fake-8c7b6a5d4e3f2a1b',
};

/** Each value as the fixture echoes it, and a run of its base64 that no mask leaves whole. */
function forms(value: string): string[] {
  const basic = Buffer.from(`user:${value}`).toString('base64');
  return [
    value,
    encodeURIComponent(value),
    value.replace(/\//g, '\\/'),
    value.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    basic.slice(8, 24),
    basic.slice(8, 24).replace(/\+/g, '-').replace(/\//g, '_'),
  ];
}

function expectNoCredential(text: string, where: string): void {
  for (const value of Object.values(HEADERS)) for (const form of forms(value)) expect(text.includes(form), `${where} holds ${form}`).toBe(false);
}

const children: ChildProcess[] = [];
const harness = new LoupeHarness();
afterEach(async () => {
  await harness.closeAll();
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

function startFixture(): Promise<string> {
  const child = spawn(process.execPath, [FIXTURE], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`echo-credentials exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening: (\S+)/.exec((out += chunk));
      if (match) done(match[1]);
    });
  });
}

const headerArgs = Object.entries(HEADERS).flatMap(([name, value]) => ['--header', `${name}: ${value}`]);

describe('--cli --record with credential headers', () => {
  it('records, and prints with --verbose, none of them in any encoding; the recording is 0600, a file there before too', async () => {
    const url = await startFixture();
    const dir = mkdtempSync(join(tmpdir(), 'loupe-secrets-'));
    const fresh = join(dir, 'fresh.jsonl');
    const existing = join(dir, 'existing.jsonl');
    writeFileSync(existing, 'an older recording\n', { mode: 0o644 });
    for (const file of [fresh, existing]) {
      const run = spawnSync(process.execPath, [CLI, '--cli', '--verbose', '--record', file, ...headerArgs, '--method', 'tools/call', '--tool-name', 'echo-credentials', url], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      // The server got them (its answer, the user's own output, gives them back).
      expect(run.stdout).toContain(HEADERS['X-Goog-Api-Key']);
      expectNoCredential(run.stderr, '--verbose');
      const text = readFileSync(file, 'utf8');
      expectNoCredential(text, file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const parsed = parseTrace(text);
      if (!parsed.ok) throw new Error(parsed.error);
      const http = parsed.trace.events.filter((e) => e.kind === 'http');
      expect(http.length).toBeGreaterThan(0);
      for (const event of http) expect(event.kind === 'http' && event.requestHeaders['x-goog-api-key']).toMatch(/^•••• \(\d+ chars, masked\)$/);
      // The echoed answer is recorded, the values in it masked.
      expect(text).toContain('echo-credentials');
      expect(text).toContain(`raw=•••• (${HEADERS['X-Goog-Api-Key'].length} chars, masked)`);
    }
  });
});

describe('the page', () => {
  it('is sent no credential in the trace or the session, though the server gets them', async () => {
    const url = await startFixture();
    const { client } = await harness.start({ config: { kind: 'http', url, transport: 'auto', headers: HEADERS } });
    const session = await client.until(() => [...client.sessions.values()][0], 15_000, 'the session');
    await client.waitForStatus(session.id, ['connected']);
    const answer = await client.request(session.id, 'tools/call', { name: 'echo-credentials', arguments: {} });
    expect(JSON.stringify(answer)).toContain(HEADERS['X-Goog-Api-Key']);
    await client.until(() => client.events.some((e) => e.kind === 'frame' && e.dir === 'in' && e.raw.includes('x-functions-key')), 10_000, 'the echo in the trace');
    // Everything but the answer to the tab's own request (the result it asked for, shown in its Result view).
    const sent = client.messages.filter((m) => m.type !== 'response').map((m) => JSON.stringify(m)).join('\n');
    expectNoCredential(sent, 'what the page was sent');
    expect(client.events.filter((e) => e.kind === 'http').length).toBeGreaterThan(0);
  });

  it('is shown a refusal that quotes the key with the key masked', async () => {
    const url = await startFixture();
    const { client } = await harness.start({ config: { kind: 'http', url: `${url}/deny`, transport: 'http', headers: HEADERS } });
    const failed = await client.until(() => [...client.sessions.values()].find((s) => s.status === 'failed'), 15_000, 'the refusal');
    expect(JSON.stringify(failed.error)).toContain('API key not valid');
    expectNoCredential(client.texts.join('\n'), 'what the page was sent');
  });
});
