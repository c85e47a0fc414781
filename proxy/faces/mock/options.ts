/** What a mock is started with, and what a started one offers (mock.ts; modern.ts for 2026-07-28 recordings). */
import type { Readable, Writable } from 'node:stream';

export interface MockOptions {
  /** Serve Streamable HTTP on this port (0: any free one); absent: stdio. */
  port?: number;
  /** Loopback only (default 127.0.0.1): the recording may hold what its user would not publish. */
  host?: string;
  /** stdio: where the client's JSON-RPC lines come from (default process.stdin) … */
  input?: Readable;
  /** … and where the answers go (default process.stdout; nothing else is written there). */
  output?: Writable;
  /** Diagnostics for the operator (the CLI points this at stderr). */
  log?: (line: string) => void;
  /** HTTP: a session without a request this long is closed (default 10 minutes, as the gateway's; mock-sessions.ts). */
  idleMs?: number;
  /** HTTP: how many sessions at once (default 256); at the cap, the one idle the longest is closed for a new one. */
  maxSessions?: number;
  /** HTTP: the bearer token clients must send; undefined: a new random one (32 bytes, base64url). */
  token?: string;
  /** HTTP, `--mock-no-auth`: no token asked (Host, Origin and Content-Type are still checked). */
  noAuth?: boolean;
}

export interface RunningMock {
  /** HTTP: the MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url?: string;
  /** HTTP: what clients send as `Authorization: Bearer <token>`; undefined over stdio and under `noAuth`. */
  token?: string;
  /** What the mock answers from (for the line the CLI prints at start). */
  recorded: { answers: number; methods: string[]; protocolVersion?: string };
  close(): Promise<void>;
  /** Resolves when stdin ends (stdio) or after close(). */
  done: Promise<void>;
}

/** Where and how an HTTP mock listens. */
export interface HttpSetup extends Pick<MockOptions, 'idleMs' | 'maxSessions' | 'token'> {
  port: number;
  host: string;
  log: (line: string) => void;
}
