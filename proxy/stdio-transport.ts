/**
 * The SDK `Transport` for a stdio server, with the tap built in.
 *
 * Written here rather than wrapping the SDK's StdioClientTransport because that one cannot:
 * report stdout lines that are not JSON-RPC (it throws them away as parse errors), expose the
 * exit code / signal and the stderr tail, pass messages over its 10 MiB cap, or kill a whole
 * process group (servers are often `npx` → `sh` → `node`). See ARCHITECTURE.md, "The upstream tap".
 */
import { existsSync, statSync } from 'node:fs';
import { delimiter } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StdioConfig } from '../lib/server-config-types.ts';
import type { LoupeError } from '../lib/wire.ts';
import { classifyMessage } from '../lib/frame-classify.ts';
import { LineSplitter } from './line-splitter.ts';
import type { TraceRecorder } from './trace-recorder.ts';

const STDERR_TAIL_BYTES = 8 * 1024;
const KILL_GRACE_MS = 2_000;

/** Raised by `start()`; carries a user-facing LoupeError. */
export class TransportStartError extends Error {
  constructor(readonly loupeError: LoupeError) {
    super(loupeError.message);
  }
}

export interface ChildExit {
  code: number | null;
  signal: string | null;
  stderrTail: string;
}

export class StdioTapTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  protocolVersion?: string;

  private child?: ChildProcess;
  private readonly splitter = new LineSplitter();
  private stderrTail = '';
  private closed = false;
  private exitInfo?: ChildExit;
  private readonly exited: Promise<void>;
  private resolveExited!: () => void;

  constructor(
    private readonly config: StdioConfig,
    private readonly trace: TraceRecorder,
  ) {
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.exitInfo;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async start(): Promise<void> {
    const problem = this.checkBeforeSpawn();
    if (problem) throw new TransportStartError(problem);
    const { command, args, cwd } = this.config;
    const env = { ...getDefaultEnvironment(), ...this.config.env } as NodeJS.ProcessEnv;
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so that close() can stop the grandchildren too (POSIX only).
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => reject(new TransportStartError(this.spawnError(error, env.PATH))));
    });
    this.trace.record({ kind: 'transport', level: 'info', message: `Started ${command} (pid ${child.pid})` });
    this.wire(child);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) throw new Error('Not connected: the server process is not running');
    const raw = JSON.stringify(message);
    this.recordFrame('out', raw, message);
    if (!stdin.write(raw + '\n')) {
      await new Promise<void>((resolve) => stdin.once('drain', resolve));
    }
  }

  /** Stops the whole process group: SIGTERM, then SIGKILL after a grace period. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined || this.exitInfo) {
      this.finish();
      return;
    }
    child.stdin?.end();
    this.signalGroup('SIGTERM');
    const timer = setTimeout(() => this.signalGroup('SIGKILL'), KILL_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  private checkBeforeSpawn(): LoupeError | undefined {
    const { cwd } = this.config;
    if (cwd !== undefined && !(existsSync(cwd) && statSync(cwd).isDirectory())) {
      return { code: 'SPAWN_FAILED', message: `Working directory not found: ${cwd}` };
    }
    return undefined;
  }

  private spawnError(error: NodeJS.ErrnoException, path: string | undefined): LoupeError {
    const { command } = this.config;
    if (error.code === 'ENOENT') {
      const pathSearched = (path ?? '').split(delimiter).filter(Boolean);
      return {
        code: 'COMMAND_NOT_FOUND',
        message: `Command not found: ${command}`,
        hint: command.includes('/') ? 'Check the path to the executable.' : 'Install it, or give its full path.',
        detail: { pathSearched },
      };
    }
    if (error.code === 'EACCES') {
      return { code: 'SPAWN_FAILED', message: `Permission denied running ${command}`, hint: 'Is the file executable (chmod +x)?' };
    }
    return { code: 'SPAWN_FAILED', message: `Could not start ${command}: ${error.message}` };
  }

  private wire(child: ChildProcess): void {
    child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.once('close', (code, signal) => {
      const rest = this.splitter.flush();
      if (rest !== undefined) this.onLine(rest);
      this.exitInfo = { code, signal, stderrTail: this.stderrTail };
      this.trace.record({ kind: 'exit', code, signal });
      this.resolveExited();
      this.finish();
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') this.child?.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // Already gone: nothing to stop.
    }
  }

  private onStdout(chunk: Buffer): void {
    const { lines, overflow } = this.splitter.push(chunk);
    if (overflow > 0) {
      this.trace.record({ kind: 'transport', level: 'error', message: `Dropped a stdout line over ${overflow} bytes without a newline` });
    }
    for (const line of lines) this.onLine(line);
  }

  private onLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.trace.record({ kind: 'noise', text: line });
      return;
    }
    // A structural check, not the SDK's zod schema: the Client validates what it handles itself,
    // and the page's own requests (raw-router.ts) need no second pass on the hot path.
    const shape = classifyMessage(parsed);
    this.trace.record({ kind: 'frame', dir: 'in', raw: line, size: Buffer.byteLength(line), ...shape });
    if (shape.rpc === 'invalid') {
      this.trace.record({ kind: 'transport', level: 'warn', message: 'Server sent JSON that is not a valid JSON-RPC message (not delivered)' });
      return;
    }
    this.onmessage?.(parsed as JSONRPCMessage);
  }

  private onStderr(chunk: Buffer): void {
    const text = chunk.toString('utf8');
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
    this.trace.record({ kind: 'stderr', text });
  }

  private recordFrame(dir: 'in' | 'out', raw: string, message: unknown): void {
    const shape = classifyMessage(message);
    this.trace.record({ kind: 'frame', dir, raw, size: Buffer.byteLength(raw), ...shape });
  }
}
