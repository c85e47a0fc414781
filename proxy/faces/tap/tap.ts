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
 * Nothing here loads the SDK Client, the HTTP server or zod unless rules or an attach need them.
 */
import type { Writable } from 'node:stream';
import { recordFrame } from '../../pipeline/frame-record.ts';
import type { Rule } from '../../../lib/model/rules.ts';
import type { SessionInfo } from '../../../lib/wire/wire.ts';
import type { CliOptions, ResolvedTarget } from '../../command-line/options.ts';
import { TOKEN_ENV } from '../../command-line/relay.ts';
import type { FramePipeline } from '../../pipeline/pipeline.ts';
import type { PipelineContext, RuleSet } from '../../pipeline/context.ts';
import { startRecording, type Recording } from '../../engine/record.ts';
import type { TapAttachment } from './attach.ts';
import { exitCodeOf, TapChild } from './child.ts';
import { DirectionRelay, SideRecorder } from './relay.ts';
import { now, TraceRecorder } from '../../pipeline/trace-recorder.ts';
import { VERSION } from '../../version.ts';

/** The tap keeps little itself: the recording and Loupe get every event as it comes. */
const TAP_TRACE_LIMITS = { maxEvents: 2_000, maxBytes: 32 * 1024 * 1024 };
/** After a stop signal: the tap exits by then even if the server's group would not go. */
const HARD_EXIT_MS = 5_000;
/** 127: what a shell answers when the command cannot be started. */
const EXIT_NOT_STARTED = 127;

const say = (line: string) => void process.stderr.write(`mcp-loupe: ${line}\n`);

/** The rules in force: the tap's own `--rules` first, then the attached Loupe's. */
class TapRules {
  private version = 1;
  private remote: readonly Rule[] = [];
  remoteServer?: string;

  constructor(private readonly local: readonly Rule[]) {}

  set = (): RuleSet => ({ version: this.version, rules: this.remote.length === 0 ? this.local : [...this.local, ...this.remote] });

  get any(): boolean {
    return this.local.length > 0 || this.remote.length > 0;
  }

  setRemote(rules: readonly Rule[], server?: string): void {
    this.remote = rules;
    this.remoteServer = server;
    this.version++;
  }
}

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
  const tap = new Tap(child, trace, new TapRules(options.relay.loaded?.rules ?? []), name);
  // The pipeline of `--rules` is there before the first byte is read: no frame passes the rules unseen.
  await tap.ready();
  tap.wire();
  const stopOnSignal = (signal: NodeJS.Signals) => {
    trace.record({ kind: 'transport', level: 'info', message: `${signal}: stopping the server` });
    setTimeout(() => process.exit(exitCodeOf({ code: null, signal })), HARD_EXIT_MS).unref();
    void child.stop();
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
  const exit = await child.exited;
  tap.finish();
  trace.record({ kind: 'exit', code: exit.code, signal: exit.signal });
  await tap.attachment?.close();
  recording?.close();
  for (const off of signals) off();
  return exitCodeOf(exit);
}

/** The two directions of one tapped session, and the pipeline when rules are in force. */
class Tap {
  attachment?: TapAttachment;
  private pipeline?: FramePipeline;
  private loading?: Promise<void>;
  /**
   * Lines read while the pipeline for rules that just arrived is still loading (the attached
   * Loupe's, given with the attachment): they wait for it, in order, so that no frame passes the
   * rules unseen — the first call after an attach is held by a breakpoint like any other.
   */
  private waiting?: ['out' | 'in', string][];
  private readonly toServer: DirectionRelay;
  private readonly toHost: DirectionRelay;
  private readonly childIn: Writable;

  constructor(
    private readonly child: TapChild,
    private readonly trace: TraceRecorder,
    private readonly rules: TapRules,
    private readonly name: string,
  ) {
    this.childIn = child.process.stdin!;
    const lineMode = () => this.waiting !== undefined || this.pipeline?.active === true;
    this.toServer = new DirectionRelay(
      { forward: (chunk) => this.writeServer(chunk), lineMode, line: (text) => (this.waiting ? this.waiting.push(['out', text]) : this.pipeline!.fromClient(text)) },
      new SideRecorder((line, at) => this.recordFrame('out', line, at), (bytes) => this.overflow('stdin', bytes)),
    );
    this.toHost = new DirectionRelay(
      {
        forward: (chunk) => this.writeHost(chunk),
        lineMode,
        line: (text, at) => {
          // Recorded as it came, before the rules act on it: an intervention names it by its seq.
          this.toHost.side.recordLine(text, at);
          if (this.waiting) this.waiting.push(['in', text]);
          else this.pipeline!.fromServer(text);
        },
      },
      new SideRecorder((line, at) => this.recordFrame('in', line, at), (bytes) => this.overflow('stdout', bytes)),
    );
  }

  /** Starts relaying (until then both ends' bytes wait in their pipes). */
  wire(): void {
    const server = this.child.process;
    process.stdout.on('error', () => undefined); // the host went away: its stdin's end follows
    this.childIn.on('error', (error) => this.trace.record({ kind: 'transport', level: 'warn', message: `The server stopped reading its stdin (${error.message})` }));
    server.stdout!.on('data', (chunk: Buffer) => this.toHost.push(chunk));
    server.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.trace.record({ kind: 'stderr', text: chunk.toString('utf8') });
    });
    process.stdin.on('data', (chunk: Buffer) => this.toServer.push(chunk));
    process.stdin.on('end', () => this.hostClosed());
    process.stdin.on('error', () => this.hostClosed());
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
          void this.child.stop();
        },
        kill: () => this.child.kill(),
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
      this.hostPaused = true;
      process.stdin.pause();
      this.childIn.once('drain', () => {
        this.hostPaused = false;
        process.stdin.resume();
      });
    }
  }

  private hostPaused = false;
  private serverPaused = false;

  private writeHost(chunk: Buffer): void {
    if (!process.stdout.write(chunk) && !this.serverPaused) {
      this.serverPaused = true;
      this.child.process.stdout!.pause();
      process.stdout.once('drain', () => {
        this.serverPaused = false;
        this.child.process.stdout!.resume();
      });
    }
  }

  private hostClosed(): void {
    if (this.hostGone) return;
    this.hostGone = true;
    this.toServer.end();
    this.trace.record({ kind: 'transport', level: 'info', message: 'The host closed its end: the server gets end of input' });
    this.childIn.end();
  }

  private hostGone = false;

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
