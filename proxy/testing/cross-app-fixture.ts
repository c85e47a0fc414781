/**
 * The cross-app access fixture (e2e/fixtures/cross-app-server.mjs: an IdP, an authorization server
 * that takes only the jwt-bearer grant, a protected MCP server) as a child of a vitest file, started
 * with its variant, ready once it prints its URL line, stopped when the test ends. Test-only.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { onTestFinished } from 'vitest';

const FIXTURE = join(resolve(import.meta.dirname, '../..'), 'e2e', 'fixtures', 'cross-app-server.mjs');
const LINE = /^cross-app fixture listening: (\S+) \(authorization server (\S+), idp (\S+)\)$/;

/** The fixture's pre-registered clients (e2e/fixtures/oauth/cross-app.mjs). */
export const XAA = { clientId: 'loupe-xaa-client', clientSecret: 'loupe-xaa-secret', idpClientId: 'loupe-idp-client' } as const;

export interface CrossAppFixture {
  mcpUrl: string;
  asUrl: string;
  idpUrl: string;
  /** A fresh ID token from the IdP (what signing in there gives); `ttl` in seconds, negative for one already expired. */
  idToken(ttl?: number): Promise<string>;
  /** Every ID token, assertion, access token and client secret handed out. */
  secrets(): Promise<string[]>;
  stats(): Promise<{ idp: { requests: number; issued: number }; as: { requests: number; issued: number } }>;
}

export function startCrossAppFixture(variant = 'good'): Promise<CrossAppFixture> {
  const child = spawn(process.execPath, [FIXTURE, '--variant', variant], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  return new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error(`The cross-app fixture printed no URL line within 30 s; stderr: ${err}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`The cross-app fixture exited (${code}) before listening; stderr: ${err}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = out.includes('\n') ? LINE.exec(out.split('\n')[0]) : null;
      if (!match) return;
      clearTimeout(timer);
      const [, mcpUrl, asUrl, idpUrl] = match;
      done({
        mcpUrl,
        asUrl,
        idpUrl,
        idToken: async (ttl = 3600) => (await fetch(`${idpUrl}/debug/id-token?ttl=${ttl}`)).text(),
        secrets: async () => Object.values((await (await fetch(`${idpUrl}/debug/secrets`)).json()) as Record<string, string[]>).flat(),
        stats: async () => (await fetch(`${idpUrl}/debug/stats`)).json(),
      });
    });
  });
}
