/**
 * MCP servers (and things that are not MCP servers) that the specs point Loupe at over HTTP.
 * Each listens on a fresh loopback port and is stopped by the `servers` fixture.
 */
import { join } from 'node:path';
import { ROOT, freePort, spawnProc, stopProc, waitForOutput, type Proc } from './processes.ts';

export const FIXTURES = join(ROOT, 'e2e', 'fixtures');
export const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

export interface RunningServer {
  port: number;
  /** Base URL, no path: `http://127.0.0.1:PORT`. */
  base: string;
  proc: Proc;
  stop: () => Promise<void>;
}

/** What each mode of server-everything prints (on stderr) once it listens. */
const LISTENING: Record<'streamableHttp' | 'sse', RegExp> = {
  streamableHttp: /listening on port \d+/i,
  sse: /running on port \d+/i,
};

/**
 * server-everything over Streamable HTTP (endpoint `/mcp`) or legacy SSE (`/sse`).
 * It binds every interface (its own choice); we only ever talk to it on 127.0.0.1.
 */
export async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<RunningServer> {
  return startNodeServer([EVERYTHING, mode], LISTENING[mode], `server-everything ${mode}`);
}

/** `e2e/fixtures/html-endpoint.mjs`: a web page where an MCP endpoint was expected. */
export async function startHtmlEndpoint(): Promise<RunningServer> {
  return startNodeServer([join(FIXTURES, 'html-endpoint.mjs')], /listening on http:\/\/127\.0\.0\.1:\d+/, 'html-endpoint');
}

/**
 * `e2e/fixtures/http-misbehaving.mjs`: remote endpoints that hang, end sessions, cut streams,
 * point SSE elsewhere, refuse the protocol version or want OAuth (issue 8); one path each.
 */
export async function startMisbehavingHttp(): Promise<RunningServer> {
  return startNodeServer([join(FIXTURES, 'http-misbehaving.mjs')], /listening on http:\/\/127\.0\.0\.1:\d+/, 'http-misbehaving');
}

async function startNodeServer(args: string[], listening: RegExp, what: string): Promise<RunningServer> {
  const port = await freePort();
  const proc = spawnProc(process.execPath, args, { env: { ...process.env, PORT: String(port) } });
  try {
    await waitForOutput(proc, () => proc.stdout() + proc.stderr(), listening, 60_000, what);
  } catch (error) {
    await stopProc(proc, 'SIGKILL', 1_000);
    throw error;
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    proc,
    stop: async () => {
      await stopProc(proc, 'SIGTERM', 3_000);
    },
  };
}
