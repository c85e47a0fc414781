/**
 * The OAuth fixture (e2e/fixtures/oauth-server.mjs) as a child of a vitest file: started with its
 * arguments, ready once it prints its URL line, stopped after each test, and checked not to
 * outlive the file. Test-only (tsconfig.proxy.json leaves it out of dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { onTestFinished } from 'vitest';

const FIXTURE = join(resolve(import.meta.dirname, '../..'), 'e2e', 'fixtures', 'oauth-server.mjs');
const LINE = /^oauth fixture listening: (\S+) \(authorization server (\S+)\)$/;

export interface OAuthFixture {
  mcpUrl: string;
  asUrl: string;
  origin: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stats(): Promise<{ grants: Record<string, number>; authorizations: { requested: number }; refused: Record<string, number> } & Record<string, unknown>>;
  /** Every token, code and secret the fixture handed out (for leak checks). */
  secrets(): Promise<string[]>;
  /** Every request either origin received, with its headers as received (for leak checks). */
  requests(): Promise<ReceivedRequest[]>;
}

export interface ReceivedRequest {
  /** `resource`: the MCP server's origin; `authorization`: the authorization server's, when it has its own. */
  server: 'resource' | 'authorization';
  method: string;
  path: string;
  headers: Record<string, string>;
}

/**
 * Starts the fixture for the test that calls it, which stops it when it ends and waits for it to be
 * gone (no fixture outlives its test). The hook is the test's own, not one registered when this
 * module loads: a vitest worker keeps modules from one file to the next (isolate: false), so a
 * hook registered at import would belong to the first file that imported it, and the next file's
 * fixtures would be left running.
 */
export function startOAuthFixture(args: string[] = []): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  onTestFinished(async () => {
    await stop();
  });
  return new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error(`The fixture printed no URL line within 60 s; stderr: ${err}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`The fixture exited (${code}) before listening; stderr: ${err}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = out.includes('\n') ? LINE.exec(out.split('\n')[0]) : null;
      if (!match) return;
      clearTimeout(timer);
      const origin = new URL(match[1]).origin;
      const json = async (path: string) => (await fetch(`${origin}${path}`)).json();
      const fixture: OAuthFixture = {
        mcpUrl: match[1],
        asUrl: match[2],
        origin,
        child,
        stdout: () => out,
        stderr: () => err,
        stop,
        stats: () => json('/debug/stats'),
        secrets: async () => Object.values((await json('/debug/secrets')) as Record<string, string[]>).flat(),
        requests: () => json('/debug/requests'),
      };
      done(fixture);
    });
  });
}
