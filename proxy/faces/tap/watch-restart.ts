/**
 * `mcp-loupe --tap --watch [PATH]… -- <command>` (issue 25): when the server's files change, the
 * tap restarts the host's server under it and the host never notices more than a list change.
 *
 * On a change (system/watch.ts, debounced): the host's lines are held (none lost); the server's
 * process group is stopped and whatever it still wrote goes to the host; the requests it left
 * unanswered are answered by the tap with an error that says why; the command starts again and
 * is sent the host's own `initialize` exactly as the host wrote it (recorded as a replay), and its
 * `notifications/initialized`; the new server's answer to that initialize goes no further (the host
 * has one); the host is told `notifications/{tools,prompts,resources}/list_changed` for each of the
 * three the server declares (before or now); then the held lines go on, in order.
 *
 * A restart that fails (the command does not start, exits, or does not answer initialize within
 * INIT_TIMEOUT_MS) is said on stderr and in the trace; until the next change restarts it, the host's
 * requests are answered with an error. The tap itself goes on until the host closes its end.
 *
 * What it knows of the session it reads from the trace the tap records anyway (the host's
 * initialize, the server's capabilities, the requests in flight): nothing is parsed on the relay.
 */
import path from 'node:path';
import type { StdioConfig } from '../../../lib/model/server-config.ts';
import type { RequestId } from '../../../lib/wire/base.ts';
import type { FrameEvent, TraceEvent } from '../../../lib/wire/wire.ts';
import type { TraceRecorder } from '../../pipeline/trace-recorder.ts';
import { planWatch, watchFiles, type WatchPlan, type Watching } from '../../system/watch.ts';
import { TapChild, type ServerExit } from './child.ts';

/** A restarted server that has not answered the replayed initialize by then has failed to restart. */
export const INIT_TIMEOUT_MS = 10_000;
/** JSON-RPC's internal error: what a request the restart left unanswered, or sent while no server runs, gets. */
export const RESTART_ERROR_CODE = -32603;
/** The lists a host is told to fetch again, by the capability that declares them. */
const LISTS = ['tools', 'prompts', 'resources'] as const;

/** What the restarts need of the tap (tap.ts), without importing it. */
export interface RestartableTap {
  readonly trace: TraceRecorder;
  child: TapChild | undefined;
  readonly hostGone: boolean;
  adopt(child: TapChild): void;
  endServerSide(): void;
  flushRecords(): void;
  /** The host's lines go here instead of the server while set. */
  divert?: (text: string) => void;
  /** Sees each line of the server first while set; true keeps it from the host. */
  intercept?: (text: string) => boolean;
  passToServer(text: string): void;
  writeServerLine(text: string): void;
  writeHostLine(text: string): void;
  endServerInput(): void;
  end(exit: ServerExit): void;
}

/**
 * What `--watch` watches under the tap. Paths given are the user's, relative to where the tap was
 * started; the default is the folder of the script the command runs (relative to its `cwd`).
 */
export function planTapWatch(paths: readonly string[], config: StdioConfig): WatchPlan | { error: string } {
  return planWatch({ paths, command: config.command, args: config.args ?? [], cwd: paths.length > 0 ? process.cwd() : (config.cwd ?? process.cwd()) });
}

const key = (id: RequestId) => `${typeof id}:${id}`;

/** The host's session as the trace shows it: its initialize, the server's capabilities, the requests in flight. */
class SessionMemory {
  /** The host's initialize, as it wrote it, and its id; `answered` once the server answered it with a result. */
  init?: { raw: string; id: RequestId };
  answered = false;
  initialized?: string;
  capabilities?: Record<string, unknown>;
  readonly inFlight = new Map<string, RequestId>();

  readonly see = (event: TraceEvent, parsed?: { value: unknown }): void => {
    if (event.kind !== 'frame' || event.view !== undefined || event.origin !== undefined) return;
    if (event.dir === 'out') return this.sent(event);
    if ((event.rpc === 'response' || event.rpc === 'error') && event.id !== undefined) {
      this.inFlight.delete(key(event.id));
      if (!this.answered && event.rpc === 'response' && this.init && key(this.init.id) === key(event.id)) {
        this.answered = true;
        this.capabilities = capabilitiesOf(parsed ? parsed.value : parseOrUndefined(event.raw));
      }
    }
  };

  private sent(event: FrameEvent): void {
    if (event.rpc === 'request' && event.id !== undefined) {
      this.inFlight.set(key(event.id), event.id);
      if (event.method === 'initialize' && !this.answered) this.init = { raw: event.raw, id: event.id };
    } else if (event.rpc === 'notification' && event.method === 'notifications/initialized') {
      this.initialized ??= event.raw;
    } else if (event.rpc === 'notification' && event.method === 'notifications/cancelled') {
      // A request the host gave up on expects no answer, from the server or from a restart.
      const id = (parseOrUndefined(event.raw) as { params?: { requestId?: unknown } } | undefined)?.params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.inFlight.delete(key(id));
    }
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function capabilitiesOf(message: unknown): Record<string, unknown> {
  const result = (message as { result?: { capabilities?: unknown } } | undefined)?.result;
  const capabilities = result?.capabilities;
  return capabilities && typeof capabilities === 'object' ? (capabilities as Record<string, unknown>) : {};
}

const errorLine = (id: RequestId, message: string) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: RESTART_ERROR_CODE, message } });

/** A host line's id when it is a request (it expects an answer). */
function requestId(text: string): RequestId | undefined {
  const message = parseOrUndefined(text) as { method?: unknown; id?: unknown } | undefined;
  if (!message || typeof message.method !== 'string') return undefined;
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
}

export interface WatchInit {
  config: StdioConfig;
  plan: WatchPlan;
  /** `--record FILE`: never a reason to restart, even inside a watched folder. */
  record?: string;
  say(line: string): void;
}

export class TapRestarts {
  private readonly memory = new SessionMemory();
  private readonly unsubscribe: () => void;
  private readonly watching: Watching;
  private busy = false;
  private closed = false;
  /** No server runs (the last restart failed): the host's requests are answered with this sentence. */
  private down?: string;
  /** Files that changed while a restart was under way: one more restart when it is done. */
  private again?: string[];
  private lastExit: ServerExit = { code: 1, signal: null };

  constructor(
    private readonly tap: RestartableTap,
    private readonly init: WatchInit,
  ) {
    this.unsubscribe = tap.trace.subscribe(this.memory.see);
    const cwd = process.cwd();
    const record = init.record !== undefined ? path.resolve(init.record) : undefined;
    this.watching = watchFiles(init.plan, {
      cwd,
      onChange: (files) => {
        const changed = files.filter((file) => path.resolve(cwd, file) !== record);
        if (changed.length > 0) void this.restart(changed);
      },
      onError: (message) => init.say(message),
    });
    init.say(`watching ${init.plan.said}: a change restarts the server`);
  }

  /** The tap is ending: no more restarts. */
  close(): void {
    this.closed = true;
    this.watching.close();
    this.unsubscribe();
  }

  /** A server ended: true when the restarts own that (one under way, or it is the one they stopped). */
  childExited(_child: TapChild, exit: ServerExit): boolean {
    this.lastExit = exit;
    return this.busy;
  }

  /** The host closed its end: true when the restarts take it from here (one under way, or no server runs). */
  hostClosed(): boolean {
    if (this.busy) return true;
    if (this.down === undefined) return false;
    this.close();
    this.tap.end(this.lastExit);
    return true;
  }

  private async restart(files: string[]): Promise<void> {
    if (this.closed) return;
    if (this.busy) {
      this.again = [...new Set([...(this.again ?? []), ...files])];
      return;
    }
    this.busy = true;
    const why = `${files.join(', ')} changed`;
    const { tap } = this;
    this.init.say(`${why}: restarting the server`);
    tap.trace.record({ kind: 'transport', level: 'info', message: `Restarting: ${why}` });
    const held: string[] = [];
    tap.divert = (text) => held.push(text);
    await this.stopServer(why);
    const failure = this.closed ? 'the tap is stopping' : await this.startServer(why);
    if (failure !== undefined) await this.failed(failure, why);
    else this.down = undefined;
    this.busy = false;
    if (this.closed || (tap.hostGone && this.down !== undefined)) {
      // The tap is ending (a signal, or the host left while no server runs): held requests get their answer.
      for (const text of held) this.answerDown(text);
      tap.divert = undefined;
      this.close();
      return tap.end(this.lastExit);
    }
    tap.divert = this.down !== undefined ? this.answerDown : undefined;
    for (const text of held) {
      if (this.down !== undefined) this.answerDown(text);
      else tap.passToServer(text);
    }
    if (tap.hostGone) tap.endServerInput();
    const again = this.again;
    this.again = undefined;
    if (again) void this.restart(again);
  }

  /** No server runs now: said, and the one that would not initialize is stopped. */
  private async failed(failure: string, why: string): Promise<void> {
    const { tap } = this;
    this.down = `The server is not running: it did not restart after ${why} (${failure}). Save a file to try again.`;
    if (!this.closed) this.init.say(`the server did not restart: ${failure}; still watching, the next change tries again`);
    tap.trace.record({ kind: 'transport', level: 'error', message: `Not restarted: ${failure}` });
    const child = tap.child;
    if (!child) return;
    await child.stop();
    await child.exited;
    tap.endServerSide();
    tap.child = undefined;
  }

  /** Stops the server (its group), lets its last words reach the host, and answers what it left unanswered. */
  private async stopServer(why: string): Promise<void> {
    const { tap } = this;
    const old = tap.child;
    if (!old) return;
    await old.stop();
    const exit = await old.exited;
    tap.endServerSide();
    tap.child = undefined;
    tap.flushRecords();
    tap.trace.record({ kind: 'transport', level: 'info', message: `The server (pid ${old.pid}) stopped for the restart (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})` });
    const ids = [...this.memory.inFlight.values()];
    this.memory.inFlight.clear();
    if (ids.length === 0) return;
    const message = `The server was restarted because its files changed (${why}); this request was not answered. Send it again.`;
    for (const id of ids) tap.writeHostLine(errorLine(id, message));
    tap.trace.record({ kind: 'transport', level: 'warn', message: `Answered the host's ${ids.length === 1 ? 'request' : 'requests'} in flight (id ${ids.join(', ')}) with an error: the server was restarted` });
  }

  /** Starts the command again and replays the host's initialize; a sentence when that failed. */
  private async startServer(why: string): Promise<string | undefined> {
    const { tap, init, memory } = this;
    let child: TapChild;
    try {
      child = await TapChild.start(init.config);
    } catch (error) {
      this.lastExit = { code: 127, signal: null };
      return (error as Error).message;
    }
    if (this.closed) {
      await child.stop();
      return 'the tap is stopping';
    }
    tap.trace.record({ kind: 'transport', level: 'info', message: `Started ${init.config.command} (pid ${child.pid})` });
    const hello = memory.answered ? memory.init : undefined;
    let answer: Promise<unknown> | undefined;
    if (hello) {
      // Only the answer to the replay is the tap's: anything else the new server says goes to the host.
      answer = new Promise((resolve) => {
        tap.intercept = (text) => {
          const message = parseOrUndefined(text) as { id?: unknown; method?: unknown } | undefined;
          if (!message || message.method !== undefined || message.id === undefined || key(message.id as RequestId) !== key(hello.id)) return false;
          resolve(message);
          return true;
        };
      });
    }
    tap.adopt(child);
    if (!hello || !answer) {
      tap.trace.record({ kind: 'transport', level: 'info', message: `Restarted: ${why} (the host had not initialized: nothing replayed)` });
      return undefined;
    }
    tap.writeServerLine(hello.raw);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      answer.then((message) => ({ message })),
      child.exited.then((exit) => ({ failed: `it exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}) before it answered initialize` })),
      new Promise<{ failed: string }>((resolve) => (timer = setTimeout(() => resolve({ failed: `it did not answer initialize within ${INIT_TIMEOUT_MS / 1000} s` }), INIT_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    tap.intercept = undefined;
    if ('failed' in outcome) return outcome.failed;
    const error = (outcome.message as { error?: { message?: unknown } }).error;
    if (error) return `it answered initialize with an error: ${String(error.message)}`;
    tap.trace.record({ kind: 'transport', level: 'info', message: "The new server's answer to the replayed initialize went no further: the host has its answer from the first start" });
    tap.writeServerLine(memory.initialized ?? '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const before = memory.capabilities ?? {};
    const now = capabilitiesOf(outcome.message);
    memory.capabilities = now;
    const told = LISTS.filter((list) => before[list] !== undefined || now[list] !== undefined).map((list) => `notifications/${list}/list_changed`);
    for (const method of told) tap.writeHostLine(JSON.stringify({ jsonrpc: '2.0', method }));
    const changed = JSON.stringify(before) === JSON.stringify(now) ? '' : `; its capabilities changed from ${JSON.stringify(before)} to ${JSON.stringify(now)}`;
    tap.trace.record({ kind: 'transport', level: 'info', message: `Restarted: ${why}${changed}; the host was told ${told.length > 0 ? told.join(', ') : 'nothing (the server declares no lists)'}` });
    return undefined;
  }

  /** While no server runs: a request is answered with the reason, anything else goes nowhere. */
  private readonly answerDown = (text: string): void => {
    const id = requestId(text);
    if (id !== undefined) this.tap.writeHostLine(errorLine(id, this.down ?? 'The server is not running.'));
  };
}

export function watchAndRestart(tap: RestartableTap, init: WatchInit): TapRestarts {
  return new TapRestarts(tap, init);
}
