/**
 * `mcp-loupe --tap [--label NAME] [--attach URL|PORT | --no-attach] [--record FILE] [--rules FILE] --
 * <command>` (issue 13): put in a host's config instead of the server command. It starts the real
 * server and relays the host's stdin to it and its stdout back byte for byte (tap-relay.ts), its
 * stderr too, while recording every frame, the stderr and the exit on the side: to `--record FILE`,
 * and to a running Loupe when one is found (tap-attach.ts), where the session shows like Loupe's own.
 * With active rules (`--rules`, or the attached Loupe's) frames go through the frame pipeline.
 *
 * The tap ends with its server, with the server's exit code (a signal: 128 + its number); a host
 * that closes stdin gives the server EOF; SIGTERM/SIGINT/SIGHUP stop the server's process group.
 * With `--watch` a change to the server's files restarts it under the host (watch-restart.ts).
 * Nothing here loads the SDK Client, the HTTP server or zod unless rules or an attach need them.
 */
import type { Readable, Writable } from 'node:stream';
import { recordFrame } from '../../pipeline/frame-record.ts';
import type { Rule } from '../../../lib/model/rules.ts';
import type { SessionInfo } from '../../../lib/wire/wire.ts';
import type { CliOptions, ResolvedTarget } from '../../command-line/options.ts';
import { TOKEN_ENV } from '../../command-line/relay.ts';
import type { FramePipeline } from '../../pipeline/pipeline.ts';
import type { PipelineContext } from '../../pipeline/context.ts';
import { startRecording, type Recording } from '../../engine/record.ts';
import type { TapAttachment } from './attach.ts';
import { exitCodeOf, TapChild, type ServerExit } from './child.ts';
import type { RestartableTap, TapRestarts } from './watch-restart.ts';
import { DirectionRelay, RecordingQueue, SideRecorder } from './relay.ts';
import { TapRules } from './rules.ts';
import { now, TraceRecorder } from '../../pipeline/trace-recorder.ts';
import { VERSION } from '../../version.ts';

/** The tap keeps little itself: the recording and Loupe get every event as it comes. */
const TAP_TRACE_LIMITS = { maxEvents: 2_000, maxBytes: 32 * 1024 * 1024 };
/** After a stop signal: the tap exits by then even if the server's group would not go. */
const HARD_EXIT_MS = 5_000;
/** 127: what a shell answers when the command cannot be started. */
const EXIT_NOT_STARTED = 127;

const say = (line: string) => void process.stderr.write(`mcp-loupe: ${line}\n`);

export async function runTap(options: CliOptions, target: ResolvedTarget): Promise<number> {
  const config = target.config;
  if (!config || config.kind !== 'stdio') {
    say('--tap relays a stdio server: give its command after --, e.g. mcp-loupe --tap -- node build/index.js');
    return 2;
  }
  // Loupe's token is the tap's to attach with, not the server's to inherit (tap-child.ts passes the
  // tap's environment on): read once, and gone from the environment before the server starts.
  const token = process.env[TOKEN_ENV] || undefined;
  delete process.env[TOKEN_ENV];
  const label = options.relay.label;
  const name = label ?? config.name ?? config.command;
  const trace = new TraceRecorder('s1', TAP_TRACE_LIMITS);
  let recording: Recording | undefined;
  if (options.headless.record !== undefined) {
    const info = { id: 's1', name, config, status: 'connected', since: Date.now(), transport: 'stdio', relay: { kind: 'tap', ...(label ? { label } : {}) } } as SessionInfo;
    try {
      recording = startRecording(options.headless.record, trace, info);
    } catch (error) {
      say(`cannot write the recording ${options.headless.record}: ${(error as Error).message}`);
      return 2;
    }
  }
  // --watch: what to watch, checked before the server starts (a missing path is the user's to fix).
  const watching = options.watch === undefined ? undefined : await import('./watch-restart.ts');
  const plan = watching?.planTapWatch(options.watch!, config);
  if (plan && 'error' in plan) {
    recording?.close();
    say(plan.error);
    return 2;
  }
  let child: TapChild;
  try {
    child = await TapChild.start(config);
  } catch (error) {
    const message = (error as Error).message;
    trace.record({ kind: 'transport', level: 'error', message });
    recording?.close();
    say(message);
    return EXIT_NOT_STARTED;
  }
  trace.record({ kind: 'transport', level: 'info', message: `Started ${config.command} (pid ${child.pid})` });
  const tap = new Tap(child, trace, new TapRules(options.relay.loaded?.rules ?? []), name, plan !== undefined);
  // The pipeline of `--rules` is there before the first byte is read: no frame passes the rules unseen.
  await tap.ready();
  tap.wire();
  const stopOnSignal = (signal: NodeJS.Signals) => {
    trace.record({ kind: 'transport', level: 'info', message: `${signal}: stopping the server` });
    setTimeout(() => process.exit(exitCodeOf({ code: null, signal })), HARD_EXIT_MS).unref();
    tap.stop(signal);
  };
  const signals = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
    const handler = () => stopOnSignal(signal);
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  if (!options.relay.noAttach) {
    void import('./attach.ts').then(({ attachTap }) => {
      tap.attachment = attachTap({
        url: options.relay.attach,
        token: options.relay.attach !== undefined ? token : undefined,
        hello: { label, command: config.command, args: config.args, pid: child.pid ?? process.pid, version: VERSION },
        trace,
        onRules: (rules, server) => tap.setRemoteRules(rules, server),
        say,
      });
    });
  }
  if (watching && plan) tap.restarts = watching.watchAndRestart(tap, { config, plan, record: options.headless.record, say });
  const exit = await tap.ended;
  tap.restarts?.close();
  tap.finish();
  trace.record({ kind: 'exit', code: exit.code, signal: exit.signal });
  await tap.attachment?.close();
  recording?.close();
  for (const off of signals) off();
  return exitCodeOf(exit);
}

/** The two directions of one tapped session, and the pipeline when rules are in force. */
class Tap implements RestartableTap {
  attachment?: TapAttachment;
  /** `--watch`: the restarts, which own the server while one is under way or none is running. */
  restarts?: TapRestarts;
  /** The server's exit that ends the tap (with `--watch`, never one a restart caused). */
  readonly ended: Promise<ServerExit>;
  end!: (exit: ServerExit) => void;
  /** `--watch`: the host's lines go here instead of the server (held while it restarts, answered while it is down). */
  divert?: (text: string) => void;
  /** `--watch`: sees each line of the server first (its answer to the replayed initialize); true keeps it from the host. */
  intercept?: (text: string) => boolean;
  private readonly recording = new RecordingQueue(); // both directions, in the order they came
  private pipeline?: FramePipeline;
  private loading?: Promise<void>;
  /**
   * Lines read while the pipeline for rules that just arrived is still loading (the attached
   * Loupe's, given with the attachment): they wait for it, in order, so that no frame passes the
   * rules unseen — the first call after an attach is held by a breakpoint like any other.
   */
  private waiting?: ['out' | 'in', string][];
  private readonly toServer: DirectionRelay;
  private toHost: DirectionRelay;
  private childIn: Writable;
  private readonly lineMode: () => boolean;

  constructor(
    /** The server; with `--watch`, undefined while none runs (a restart failed). */
    public child: TapChild | undefined,
    readonly trace: TraceRecorder,
    private readonly rules: TapRules,
    private readonly name: string,
    watching: boolean,
  ) {
    this.ended = new Promise((resolve) => (this.end = resolve));
    this.childIn = child!.process.stdin!;
    // Without --watch the check per chunk is what it always was.
    this.lineMode = watching
      ? () => this.divert !== undefined || this.intercept !== undefined || this.waiting !== undefined || this.pipeline?.active === true
      : () => this.waiting !== undefined || this.pipeline?.active === true;
    this.toServer = new DirectionRelay(
      {
        forward: (chunk) => this.writeServer(chunk),
        lineMode: this.lineMode,
        line: (text) => {
          if (this.divert) this.divert(text);
          else if (this.waiting) this.waiting.push(['out', text]);
          else this.passToServer(text);
        },
      },
      new SideRecorder((line, at) => this.recordFrame('out', line, at), (bytes) => this.overflow('stdin', bytes), this.recording),
    );
    this.toHost = this.relayToHost();
  }

  /** The server's stdout toward the host: one relay a server (a restarted one starts with no line begun). */
  private relayToHost(): DirectionRelay {
    const relay: DirectionRelay = new DirectionRelay(
      {
        forward: (chunk) => this.writeHost(chunk),
        lineMode: this.lineMode,
        line: (text, at) => {
          // Recorded as it came, before the rules act on it: an intervention names it by its seq.
          relay.side.recordLine(text, at);
          if (this.intercept?.(text)) return;
          if (this.waiting) this.waiting.push(['in', text]);
          else if (this.pipeline) this.pipeline.fromServer(text);
          else this.writeHost(Buffer.from(`${text}\n`));
        },
      },
      new SideRecorder((line, at) => this.recordFrame('in', line, at), (bytes) => this.overflow('stdout', bytes), this.recording),
    );
    return relay;
  }

  /** Starts relaying (until then both ends' bytes wait in their pipes). */
  wire(): void {
    process.stdout.on('error', () => undefined); // the host went away: its stdin's end follows
    this.wireChild(this.child!, this.toHost);
    process.stdin.on('data', (chunk: Buffer) => this.toServer.push(chunk));
    process.stdin.on('end', () => this.hostClosed());
    process.stdin.on('error', () => this.hostClosed());
  }

  private wireChild(child: TapChild, relay: DirectionRelay): void {
    const server = child.process;
    this.childIn.on('error', (error) => this.trace.record({ kind: 'transport', level: 'warn', message: `The server stopped reading its stdin (${error.message})` }));
    server.stdout!.on('data', (chunk: Buffer) => relay.push(chunk));
    server.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.trace.record({ kind: 'stderr', text: chunk.toString('utf8') });
    });
    void child.exited.then((exit) => {
      if (!this.restarts?.childExited(child, exit)) this.end(exit);
    });
  }

  // --- What a restart (watch-restart.ts) does with the tap.

  /** A new server in place of the one that ended (whose last bytes went to the host first). */
  adopt(child: TapChild): void {
    this.endServerSide();
    this.child = child;
    this.childIn = child.process.stdin!;
    // A host paused for the old server's full pipe would wait for a drain that never comes.
    if (this.hostPaused) {
      this.hostPaused = false;
      process.stdin.resume();
    }
    this.toHost = this.relayToHost();
    this.wireChild(child, this.toHost);
  }

  /** The server is gone: the rest of its stdout to the host and the recording; a line it left open is closed. */
  endServerSide(): void {
    this.toHost.end();
    if (this.toHost.openLine) this.writeHost(Buffer.from('\n'));
  }

  /** Records what both directions have queued (before reading the trace for the requests in flight). */
  flushRecords(): void {
    this.toServer.side.drain();
    this.toHost.side.drain();
  }

  /** One of the host's lines on to the server, the way any goes: through the rules when they are loaded. */
  passToServer(text: string): void {
    if (this.pipeline) return this.pipeline.fromClient(text);
    this.toServer.side.recordLine(text, now());
    this.writeServer(Buffer.from(`${text}\n`));
  }

  /** A line of the tap's own to the server (the host's initialize, replayed), recorded as a replay; past the rules. */
  writeServerLine(text: string): void {
    this.trace.expectOut(text, 'replay');
    this.toServer.side.recordLine(text, now());
    this.writeServer(Buffer.from(`${text}\n`));
  }

  writeHostLine(text: string): void {
    this.writeHost(Buffer.from(`${text}\n`));
  }

  /** The server gets end of input (the host closed its end while a restart was under way). */
  endServerInput(): void {
    this.childIn.end();
  }

  /** A stop signal: the server's group stops (no restart after it), or the tap ends when none runs. */
  stop(signal: NodeJS.Signals): void {
    this.restarts?.close();
    if (this.child) void this.child.stop();
    else this.end({ code: null, signal });
  }

  /** The pipeline for `--rules`, before the first frame. */
  async ready(): Promise<void> {
    if (this.rules.any) await this.loadPipeline();
  }

  setRemoteRules(rules: readonly Rule[], server?: string): void {
    this.rules.setRemote(rules, server);
    if (!this.rules.any || this.pipeline) return;
    this.waiting ??= [];
    void this.loadPipeline().then(
      () => this.release((dir, text) => (dir === 'out' ? this.pipeline!.fromClient(text) : this.pipeline!.fromServer(text))),
      (error: unknown) => {
        this.trace.record({ kind: 'transport', level: 'error', message: `The tap could not load its rules (${error instanceof Error ? error.message : String(error)}); frames pass unchanged.` });
        this.release((dir, text) => {
          if (dir === 'in') return this.writeHost(Buffer.from(`${text}\n`));
          this.toServer.side.recordLine(text, now());
          this.writeServer(Buffer.from(`${text}\n`));
        });
      },
    );
  }

  /** The lines that waited for the pipeline, in the order they came. */
  private release(pass: (dir: 'out' | 'in', text: string) => void): void {
    const lines = this.waiting ?? [];
    this.waiting = undefined;
    for (const [dir, text] of lines) pass(dir, text);
  }

  private loadPipeline(): Promise<void> {
    this.loading ??= import('../../pipeline/pipeline.ts').then(({ FramePipeline }) => {
      const ctx = this.context();
      this.pipeline = new FramePipeline(ctx, {
        toServer: (raw) => {
          this.toServer.side.recordLine(raw, now());
          this.writeServer(Buffer.from(`${raw}\n`));
        },
        toClient: (raw) => this.writeHost(Buffer.from(`${raw}\n`)),
        close: () => {
          this.childIn.end();
          void this.child?.stop();
        },
        kill: () => this.child?.kill(),
      });
    });
    return this.loading;
  }

  private context(): PipelineContext {
    const attachment = () => this.attachment;
    return {
      session: 's1',
      server: () => this.rules.remoteServer ?? this.name,
      trace: this.trace,
      rules: this.rules.set,
      // Only while a Loupe is attached: without one a `pause` rule lets its frame pass, and says so.
      get hold() {
        return attachment()?.hold;
      },
    };
  }

  private writeServer(chunk: Buffer): void {
    if (this.childIn.destroyed || this.childIn.writableEnded) return;
    if (!this.childIn.write(chunk) && !this.hostPaused) {
      // The host waits for the server to read; a dead server's pipe never drains (a write to it
      // says false), and its close lets the host go on, or a failed restart's host is never read.
      const pipe = this.childIn;
      this.hostPaused = true;
      process.stdin.pause();
      const resume = () => {
        pipe.off('drain', resume).off('close', resume);
        if (this.hostPaused) process.stdin.resume();
        this.hostPaused = false;
      };
      pipe.once('drain', resume).once('close', resume);
    }
  }

  private hostPaused = false;
  private serverPaused = false;
  private writeHost(chunk: Buffer): void {
    if (!process.stdout.write(chunk) && !this.serverPaused) {
      this.serverPaused = true;
      const from: Readable | null | undefined = this.child?.process.stdout;
      from?.pause();
      process.stdout.once('drain', () => {
        this.serverPaused = false;
        from?.resume();
      });
    }
  }

  private hostClosed(): void {
    if (this.hostGone) return;
    this.hostGone = true;
    this.toServer.end();
    this.trace.record({ kind: 'transport', level: 'info', message: 'The host closed its end: the server gets end of input' });
    // While a restart is under way (or none runs), the restarts end the server's input, or the tap.
    if (this.restarts?.hostClosed()) return;
    this.childIn.end();
  }

  hostGone = false;

  /** The server ended (every byte of its stdout came before): the rest goes to the host and the recording. */
  finish(): void {
    this.toHost.end();
    this.pipeline?.stop();
    this.toServer.side.drain();
    // The host's stdin is not read any more: nothing else keeps the tap alive.
    process.stdin.destroy();
  }

  /**
   * One record per line (pipeline/frame-record.ts). Not JSON: from the server it is stdout noise,
   * as Loupe's own stdio sessions say; from the host, a frame that is invalid.
   */
  private recordFrame(dir: 'out' | 'in', line: string, at: number): void {
    recordFrame(this.trace, dir, line, { at, notJsonIsNoise: dir === 'in' });
  }

  private overflow(stream: string, bytes: number): void {
    this.trace.record({ kind: 'transport', level: 'error', message: `A ${stream} line over ${bytes} bytes without a newline was relayed but not recorded` });
  }
}
