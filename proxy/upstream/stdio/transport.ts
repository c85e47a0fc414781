/**
 * The SDK `Transport` for a stdio server, with the tap built in.
 *
 * Written here rather than wrapping the SDK's StdioClientTransport because that one cannot:
 * report stdout lines that are not JSON-RPC (it throws them away as parse errors), expose the
 * exit code / signal and the stderr tail, pass messages over its 10 MiB cap, or kill a whole
 * process group (servers are often `npx` → `sh` → `node`). See docs/architecture.md, "The proxy".
 */
import { existsSync, statSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import spawn from 'cross-spawn';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StdioConfig } from '../../../lib/model/server-config.ts';
import type { LoupeError } from '../../../lib/wire/wire.ts';
import { LineSplitter } from './line-splitter.ts';
import { textOf } from '../../pipeline/frame-text.ts';
import { extraOf, recordFrame, type FrameExtra } from '../../pipeline/frame-record.ts';
import { stringifySafe } from '../../../lib/json/safe-json.ts';
import { now, type TraceRecorder } from '../../pipeline/trace-recorder.ts';
import { KILL_GRACE_MS, KILL_WAIT_MS, signalGroup, spawnFailure, stopGroup } from '../../system/process-group.ts';
import { watchProcessGroup, type Watchdog } from '../../system/watchdog.ts';
import { childEnvFor } from './child-env.ts';

const STDERR_TAIL_BYTES = 8 * 1024;
/** A write that failed: how long to wait for the exit that usually follows, to report it. */
const EXIT_AFTER_BROKEN_PIPE_MS = 2_000;

async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return done;
}

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
  onmessage?: (message: JSONRPCMessage, extra?: FrameExtra) => void;
  protocolVersion?: string;

  private child?: ChildProcess;
  private readonly splitter = new LineSplitter();
  private stderrTail = '';
  private closed = false;
  private exitInfo?: ChildExit;
  private watchdog?: Watchdog;
  /** The one stop of the process group (close(), or the leftovers after the leader exited). */
  private stopping?: Promise<void>;
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

  /**
   * Starts the child once: a second call (the SDK Client's connect, after Loupe's own protocol
   * probe ran on this transport, issue 12) finds it started and does nothing.
   */
  async start(): Promise<void> {
    this.starting ??= this.spawnChild();
    await this.starting;
  }

  private starting?: Promise<void>;

  private async spawnChild(): Promise<void> {
    const problem = this.checkBeforeSpawn();
    if (problem) throw new TransportStartError(problem);
    const { command, args, cwd } = this.config;
    const env = { ...getDefaultEnvironment(), ...childEnvFor(this.config.env), ...this.config.env } as NodeJS.ProcessEnv;
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so that close() can stop the grandchildren too (POSIX only).
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    this.child = child;
    // At once, before any await: a close() during the spawn must find the watchdog in place.
    if (child.pid !== undefined) this.watchdog = watchProcessGroup(child.pid, KILL_GRACE_MS);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => reject(new TransportStartError(spawnFailure(command, error, env.PATH))));
    });
    this.trace.record({ kind: 'transport', level: 'info', message: `Started ${command} (pid ${child.pid})` });
    this.wire(child);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) throw new Error('Not connected: the server process is not running');
    // The page's exact text where it gave one; a deep message would throw in JSON.stringify (frame-text.ts).
    const raw = textOf(message) ?? stringifySafe(message) ?? '';
    await this.writeLine(stdin, raw, { value: message });
  }

  /**
   * Writes this text as one line, exactly (issue 13: a rule's corrupted or truncated frame, a
   * person's edit), recorded as an outgoing frame like any other.
   */
  async sendText(raw: string): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) throw new Error('Not connected: the server process is not running');
    await this.writeLine(stdin, raw);
  }

  /**
   * Writes one line, then records it with the time before the write: the server starts on the
   * frame while it is recorded, and nothing can come between the two (one turn of the loop; an
   * answer is read in a later one, so the trace keeps the order). About 10 µs off every round trip.
   * `parsed`: the message the text stands for, when there is one (not parsed again).
   */
  private async writeLine(stdin: Writable, raw: string, parsed?: { value: unknown }): Promise<void> {
    const at = now();
    const written = stdin.write(raw + '\n');
    recordFrame(this.trace, 'out', raw, { parsed, at });
    if (written) return;
    // Every send that meets a full pipe waits on the same 'drain' (one set of listeners, not three per send).
    this.draining ??= this.drained(stdin).finally(() => (this.draining = undefined));
    await this.draining;
  }

  /** A `kill` rule (issue 13): SIGKILL the whole process group at once, no grace; the exit is recorded as usual. */
  kill(): void {
    if (this.child) signalGroup(this.child, 'SIGKILL');
  }

  /**
   * Waits for 'drain', which never comes when the pipe broke (EPIPE) or the child died: those
   * settle the send too, after the exit has been seen where it follows (so that the session fails
   * every pending request with the exit code and stderr first; see session.ts).
   */
  private draining?: Promise<void>;

  private drained(stdin: Writable): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        stdin.off('drain', onDrain);
        stdin.off('error', onBroken);
        stdin.off('close', onBroken);
        if (!error) return resolve();
        void within(this.exited, EXIT_AFTER_BROKEN_PIPE_MS).then(() => reject(this.notRunning(error)));
      };
      const onDrain = () => done();
      const onBroken = (error?: unknown) => done(error instanceof Error ? error : new Error('stdin closed'));
      stdin.on('drain', onDrain);
      stdin.on('error', onBroken);
      stdin.on('close', onBroken);
    });
  }

  private notRunning(cause?: Error): Error {
    const exit = this.exitInfo;
    if (exit) return new Error(`The server ${exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`} before reading the whole message`);
    return new Error(`The server stopped reading its stdin${cause ? ` (${cause.message})` : ''}`);
  }

  /**
   * Stops the whole process group: SIGTERM, then SIGKILL after a grace period if any member is
   * still alive — also when the leader has exited and left others behind. Idempotent.
   */
  async close(): Promise<void> {
    this.stopping ??= this.stopGroup();
    await this.stopping;
  }

  private async stopGroup(): Promise<void> {
    const child = this.child;
    if (child && child.pid !== undefined) {
      // Drop anything still queued (a 20 MB write): the server sees EOF at once.
      child.stdin?.destroy();
      await stopGroup(child, () => this.exitInfo !== undefined);
      await within(this.exited, KILL_WAIT_MS);
    }
    await this.watchdog?.release();
    this.finish();
  }

  private checkBeforeSpawn(): LoupeError | undefined {
    const { cwd } = this.config;
    if (cwd !== undefined && !(existsSync(cwd) && statSync(cwd).isDirectory())) {
      return { code: 'SPAWN_FAILED', message: `Working directory not found: ${cwd}` };
    }
    return undefined;
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
      // The leader is gone; whatever it left in its group goes too (and the watchdog is released).
      this.stopping ??= this.stopGroup();
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private onStdout(chunk: Buffer): void {
    const { lines, overflow } = this.splitter.push(chunk);
    if (overflow > 0) {
      this.trace.record({ kind: 'transport', level: 'error', message: `Dropped a stdout line over ${overflow} bytes without a newline` });
    }
    for (const line of lines) this.onLine(line);
  }

  private onLine(line: string): void {
    // Recorded once, parsed once (pipeline/frame-record.ts); a structural check, not the SDK's zod
    // schema: the Client validates what it handles itself, and the page's own requests
    // (raw-router.ts) need no second pass on the hot path.
    const frame = recordFrame(this.trace, 'in', line, { notJsonIsNoise: true });
    if (!frame.json) return;
    if (!frame.valid) {
      this.trace.record({ kind: 'transport', level: 'warn', message: 'Server sent JSON that is not a valid JSON-RPC message (not delivered)' });
      return;
    }
    // The line travels with the message: relayed as that text, answered by its record's number.
    this.onmessage?.(frame.message as JSONRPCMessage, extraOf(frame, line));
  }

  private onStderr(chunk: Buffer): void {
    const text = chunk.toString('utf8');
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
    this.trace.record({ kind: 'stderr', text });
  }
}
