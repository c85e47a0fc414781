/**
 * Integration (issue 8): each way a remote server fails gets its own sentence, said in time.
 * One fixture process (e2e/fixtures/http-misbehaving.mjs) serves a path per failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpEvent, SessionInfo } from '../../lib/wire/wire.ts';
import { LoupeHarness } from '../testing/harness.ts';

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/http-misbehaving.mjs', import.meta.url));

let fixture: ChildProcess;
let base: string;

beforeAll(async () => {
  fixture = spawn(process.execPath, [FIXTURE, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('http-misbehaving did not start')), 10_000);
    let out = '';
    fixture.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
});

afterAll(() => {
  fixture?.kill();
});

const harness = new LoupeHarness();
afterEach(() => harness.closeAll());

async function connect(path: string, options: { connectTimeoutMs?: number; transport?: 'auto' | 'http' | 'sse' } = {}) {
  const { loupe, client } = await harness.start({ config: { kind: 'http', url: `${base}${path}`, transport: options.transport ?? 'auto', headers: {} }, connectTimeoutMs: options.connectTimeoutMs });
  const id = loupe.hub.primary!;
  const session = await client.waitForStatus(id, ['connected', 'failed'], 20_000);
  return { client, id, session };
}

function transportMessages(events: { kind: string }[]): string[] {
  return events.filter((e): e is { kind: 'transport'; message: string } => e.kind === 'transport').map((e) => e.message);
}

describe('remote failures, each in its own words', () => {
  it('an endpoint that takes the POST and never answers: "accepted … not answered for N s", not "could not reach"', async () => {
    const started = Date.now();
    const { session } = await connect('/hang', { connectTimeoutMs: 1_500 });
    expect(Date.now() - started, 'the 1.5 s connect timeout, not the 30 s default').toBeLessThan(25_000);
    expect(session.status).toBe('failed');
    expect(session.error?.code).toBe('NO_ANSWER');
    expect(session.error?.message).toMatch(/^The server accepted the request but has not answered for [12] s\.$/);
    expect(session.error?.hint).toContain('still waiting for response headers');
    expect(session.error?.message).not.toContain('Could not reach');
  });

  it('headers 200 but never the body: says the body never came', async () => {
    const { session } = await connect('/hang-body', { connectTimeoutMs: 1_500 });
    expect(session.error?.code).toBe('NO_ANSWER');
    expect(session.error?.message).toMatch(/has not answered for [12] s\./);
    expect(session.error?.hint).toBe('It sent the headers (HTTP 200 (application/json)), but the body never came.');
  });

  it('a session the server ends (404) is renewed once; the request that hit it fails with the sentence', async () => {
    const { client, id, session } = await connect('/expire');
    expect(session.status).toBe('connected');
    expect(await client.request(id, 'tools/list')).toMatchObject({ ok: true });
    const hit = await client.request(id, 'tools/call', { name: 'echo', arguments: { message: 'one' } });
    expect(hit).toMatchObject({ ok: false, error: { message: 'The server ended the session (404): Loupe started a new one.' } });
    expect(transportMessages(client.events)).toContain('The server ended the session (404): Loupe started a new one.');
    // Back to Connected on a new session (the same Loupe session), and it works.
    await client.until(() => client.status(id)?.status === 'connected' && client.events.filter((e) => e.kind === 'transport' && e.message === 'Initialized').length === 2, 10_000, 'the renewed session');
    const again = await client.request(id, 'tools/call', { name: 'echo', arguments: { message: 'two' } });
    expect(again).toMatchObject({ ok: true });
    const initializes = client.events.filter((e) => e.kind === 'frame' && e.dir === 'out' && e.raw.includes('"method":"initialize"'));
    expect(initializes).toHaveLength(2);
  });

  it('a second 404 right after the renewal fails the session plainly, no loop', async () => {
    const { client, id } = await connect('/expire-twice');
    expect(await client.request(id, 'tools/list')).toMatchObject({ ok: true });
    expect(await client.request(id, 'tools/call', { name: 'echo', arguments: { message: 'one' } })).toMatchObject({ ok: false });
    await client.until(() => client.status(id)?.status === 'connected' && client.events.filter((e) => e.kind === 'transport' && e.message === 'Initialized').length === 2, 10_000, 'the renewed session');
    const second = await client.request(id, 'tools/call', { name: 'echo', arguments: { message: 'two' } });
    expect(second).toMatchObject({ ok: false, error: { code: 'SESSION_ENDED' } });
    const failed: SessionInfo = await client.waitForStatus(id, ['failed'], 5_000);
    expect(failed.error?.message).toBe('The server ended the new session too (404) before answering anything; Loupe stopped.');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const initializes = client.events.filter((e) => e.kind === 'frame' && e.dir === 'out' && e.raw.includes('"method":"initialize"'));
    expect(initializes).toHaveLength(2);
    expect(client.status(id)?.status).toBe('failed');
  });

  it('a legacy SSE endpoint event on another origin: refused, and said so (not the POST 404)', async () => {
    const { session } = await connect('/sse-foreign');
    expect(session.status).toBe('failed');
    expect(session.error?.code).toBe('ORIGIN_REFUSED');
    expect(session.error?.message).toBe('The SSE endpoint points at another origin (http://other-origin.invalid:8080); refused.');
  });

  it('an initialize result with a version Loupe does not speak: both sides named', async () => {
    const { session } = await connect('/version');
    expect(session.error?.code).toBe('VERSION_MISMATCH');
    expect(session.error?.message).toBe('The server supports 1999-01-01; Loupe asked for 2025-11-25.');
  });

  it('an initialize error listing the supported versions: both sides named', async () => {
    const { session } = await connect('/version-error');
    expect(session.error?.code).toBe('VERSION_MISMATCH');
    expect(session.error?.message).toBe('The server supports 2023-06-01, 2023-09-15; Loupe asked for 2025-11-25.');
  });

  it('a 401 lists each discovery URL tried with its status, and the probes are in the trace', async () => {
    const { client, session } = await connect('/auth');
    expect(session.error?.code).toBe('UNAUTHORIZED');
    // Loupe tried to sign in: the SDK found no client to sign in with, and the message says so.
    expect(session.error?.message).toBe(`The server wants a sign-in (HTTP 401), and Loupe could not start one: its authorization server ${base}/tenant does not offer dynamic client registration, so Loupe has no client to sign in with.`);
    const hint = session.error?.hint ?? '';
    expect(hint).toContain('--client-id');
    expect(hint).toContain(`WWW-Authenticate: resource_metadata ${base}/.well-known/oauth-protected-resource/auth`);
    expect(hint).toContain(`${base}/.well-known/oauth-protected-resource/auth → 200`);
    expect(hint).toContain(`${base}/.well-known/oauth-authorization-server/tenant → 404`);
    expect(hint).toContain(`${base}/.well-known/openid-configuration/tenant → 404`);
    expect(hint).toContain(`${base}/tenant/.well-known/openid-configuration → 200`);
    expect(hint).toContain('--header "Authorization: Bearer …"');
    const probed = client.events.filter((e): e is HttpEvent => e.kind === 'http' && e.url.includes('/.well-known/'));
    expect(probed.length).toBeGreaterThanOrEqual(4);
    // 401 is not a reason to try legacy SSE.
    expect(transportMessages(client.events).some((m) => m.includes('trying legacy SSE'))).toBe(false);
  });

  it('a 401 without resource_metadata: the path-inserted and root well-known URLs, with their statuses', async () => {
    const { session } = await connect('/auth-bare');
    const hint = session.error?.hint ?? '';
    expect(hint).toContain('WWW-Authenticate: resource_metadata not given');
    expect(hint).toContain(`${base}/.well-known/oauth-protected-resource/auth-bare → 404`);
    expect(hint).toContain(`${base}/.well-known/oauth-protected-resource → 404`);
    expect(hint).toContain(`${base}/.well-known/oauth-authorization-server → 404`);
    expect(hint).toContain(`${base}/.well-known/openid-configuration → 404`);
  });

  it('an event stream cut mid-event fails the pending call at once, and the session says so', async () => {
    const { client, id, session } = await connect('/cut');
    expect(session.status).toBe('connected');
    const started = Date.now();
    const call = await client.request(id, 'tools/call', { name: 'slow', arguments: {} });
    expect(Date.now() - started, 'at once, not at the 60 s request timeout').toBeLessThan(30_000);
    expect(call).toMatchObject({ ok: false, error: { code: 'STREAM_DROPPED', message: "The server's event stream dropped after 1 event." } });
    const failed = await client.waitForStatus(id, ['failed'], 2_000);
    expect(failed.error?.message).toBe("The server's event stream dropped after 1 event.");
    expect(failed.error?.hint).toContain('Connect again');
  });

  it('a cut stream that gave event ids: the SDK resumes with Last-Event-ID; when the server refuses, the call fails then', async () => {
    const { client, id } = await connect('/cut-resumable');
    const started = Date.now();
    const call = await client.request(id, 'tools/call', { name: 'slow', arguments: {} });
    // The SDK waits its first reconnection delay (1 s) before the GET that resumes.
    expect(Date.now() - started, 'not the 60 s request timeout').toBeLessThan(30_000);
    expect(call).toMatchObject({ ok: false, error: { code: 'STREAM_DROPPED' } });
    expect(transportMessages(client.events)).toContain('Resuming the event stream from Last-Event-ID ev-1');
    const resume = await client.until(() => client.events.find((e): e is HttpEvent => e.kind === 'http' && e.method === 'GET' && e.requestHeaders['last-event-id'] === 'ev-1' && e.status === 405), 2_000, 'the resuming GET, refused');
    expect(resume.status).toBe(405);
    const failed = await client.waitForStatus(id, ['failed'], 2_000);
    expect(failed.error?.hint).toContain('resuming from Last-Event-ID ev-1 failed');
  });
});
