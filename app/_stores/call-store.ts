/**
 * The `tools/call`s of this tab to one session: several may be in flight at once (on any tools), each with its
 * live progress, its own timeout settings, and a Cancel. The proxy sets the progress token and
 * reports `notifications/progress` as `progress` envelopes; a cancel makes the proxy send
 * `notifications/cancelled` and answer the request with an error. A response the server sends
 * after that reaches the trace only: it is noted on the call, never shown as its result.
 * Spec: basic/utilities/progress, basic/utilities/cancellation.
 */
import { frameParamsObject } from '../../lib/trace/frame-message.ts';
import type { ProgressMessage, TraceEvent } from '../../lib/wire/wire.ts';
import { newRequestId, type RequestOptions, type RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { ExternalStore } from './external-store.ts';

export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
  /** Notifications received so far. */
  count: number;
}

export interface RunSettings {
  /** Milliseconds without an answer (or progress, see below) before the call fails. */
  timeoutMs: number;
  resetTimeoutOnProgress: boolean;
  /** A hard cap whatever the progress; undefined = none. */
  maxTotalTimeoutMs?: number;
}

export const DEFAULT_RUN_SETTINGS: RunSettings = { timeoutMs: 60_000, resetTimeoutOnProgress: true };

export interface ToolCall {
  /** The UI's correlation id (also used to cancel). */
  id: string;
  session: string;
  tool: string;
  args: unknown;
  startedAt: number;
  /** When the answer reached this tab (its clock, as `startedAt`); the outcome's duration is the proxy's. */
  endedAt?: number;
  status: 'running' | 'done';
  settings: RunSettings;
  progress?: CallProgress;
  outcome?: RequestOutcome;
  cancelRequested?: boolean;
  /** The JSON-RPC id the proxy cancelled (from the trace's `notifications/cancelled`). */
  cancelledRpcId?: string | number;
  /** The server answered after the cancel: the trace has it (sequence number), the result does not. */
  lateResponseSeq?: number;
}

export interface CallState {
  /** Calls of this tab, oldest first (the last CALL_CAP). */
  calls: readonly ToolCall[];
  /** The newest call. */
  call?: ToolCall;
  settings: RunSettings;
}

/** Finished calls kept (running ones are always kept). */
const CALL_CAP = 50;
/** Progress floods are folded into the state at most this often. */
const PROGRESS_FLUSH_MS = 50;

export class CallStore extends ExternalStore<CallState> {
  private progressQueue = new Map<string, CallProgress>();
  private progressTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly port: SessionPort) {
    super({ calls: [], settings: DEFAULT_RUN_SETTINGS });
    this.onDispose(port.onProgress((message) => this.progressed(message)), port.onEvents((events) => this.watchTrace(events)));
  }

  override dispose(): void {
    super.dispose();
    clearTimeout(this.progressTimer);
  }

  setSettings(settings: RunSettings): void {
    this.set({ ...this.state, settings });
  }

  /** Call a tool; other calls (of this or any tool) go on. Resolves when this one settles. */
  async run(tool: string, args: unknown): Promise<void> {
    const id = newRequestId();
    const settings = this.state.settings;
    this.add({ id, session: this.port.id, tool, args, startedAt: Date.now(), status: 'running', settings });
    const options: RequestOptions = {
      timeoutMs: settings.timeoutMs,
      resetTimeoutOnProgress: settings.resetTimeoutOnProgress,
      ...(settings.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: settings.maxTotalTimeoutMs } : {}),
    };
    const outcome = await this.port.request('tools/call', { name: tool, arguments: args }, id, options);
    this.flushProgress();
    this.patch(id, { status: 'done', outcome, endedAt: Date.now() });
  }

  cancel(id: string): void {
    const call = this.state.calls.find((c) => c.id === id);
    if (call?.status !== 'running' || call.cancelRequested) return;
    this.port.cancel(call.id);
    this.patch(id, { cancelRequested: true });
  }

  /** Forget finished calls. */
  clearDone(): void {
    const calls = this.state.calls.filter((c) => c.status === 'running');
    this.set({ ...this.state, calls, call: calls[calls.length - 1] });
  }

  private progressed(message: ProgressMessage): void {
    const call = this.state.calls.find((c) => c.id === message.id);
    if (!call || call.status !== 'running') return;
    const previous = this.progressQueue.get(message.id) ?? call.progress;
    this.progressQueue.set(message.id, { progress: message.progress, total: message.total, message: message.message ?? previous?.message, count: (previous?.count ?? 0) + 1 });
    this.progressTimer ??= setTimeout(() => this.flushProgress(), PROGRESS_FLUSH_MS);
  }

  private flushProgress(): void {
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    if (this.progressQueue.size === 0) return;
    const queue = this.progressQueue;
    this.progressQueue = new Map();
    this.replace(this.state.calls.map((c) => (queue.has(c.id) && c.status === 'running' ? { ...c, progress: queue.get(c.id) } : c)));
  }

  /**
   * After a cancel: the proxy's `notifications/cancelled` names the JSON-RPC id; a response with
   * that id arriving later is the server's late answer (kept in the trace, noted on the call).
   */
  private watchTrace(events: readonly TraceEvent[]): void {
    const waiting = this.state.calls.filter((c) => c.cancelRequested && c.lateResponseSeq === undefined);
    if (waiting.length === 0) return;
    let calls = this.state.calls;
    for (const event of events) {
      if (event.kind !== 'frame') continue;
      calls = event.dir === 'out' ? noteCancelled(calls, event) : noteLate(calls, event);
    }
    if (calls !== this.state.calls) this.replace(calls);
  }

  private add(call: ToolCall): void {
    const done = this.state.calls.filter((c) => c.status === 'done');
    const excess = done.length - CALL_CAP + 1;
    const dropped = new Set(excess > 0 ? done.slice(0, excess).map((c) => c.id) : []);
    this.replace([...this.state.calls.filter((c) => !dropped.has(c.id)), call]);
  }

  private patch(id: string, change: Partial<ToolCall>): void {
    this.replace(this.state.calls.map((c) => (c.id === id ? { ...c, ...change } : c)));
  }

  private replace(calls: readonly ToolCall[]): void {
    this.set({ ...this.state, calls, call: calls[calls.length - 1] });
  }
}

type Frame = Extract<TraceEvent, { kind: 'frame' }>;

/** The first cancelled call of the frame's session without an id gets the id the proxy cancelled. */
function noteCancelled(calls: readonly ToolCall[], frame: Frame): readonly ToolCall[] {
  if (frame.method !== 'notifications/cancelled') return calls;
  const params = frameParamsObject(frame);
  const rpcId = params?.requestId;
  if (typeof rpcId !== 'string' && typeof rpcId !== 'number') return calls;
  if (calls.some((c) => c.cancelledRpcId === rpcId)) return calls;
  const index = calls.findIndex((c) => c.session === frame.session && c.cancelRequested && c.cancelledRpcId === undefined);
  return index < 0 ? calls : calls.map((c, i) => (i === index ? { ...c, cancelledRpcId: rpcId } : c));
}

function noteLate(calls: readonly ToolCall[], frame: Frame): readonly ToolCall[] {
  if ((frame.rpc !== 'response' && frame.rpc !== 'error') || frame.id === undefined) return calls;
  const index = calls.findIndex((c) => c.session === frame.session && c.cancelledRpcId === frame.id && c.lateResponseSeq === undefined);
  return index < 0 ? calls : calls.map((c, i) => (i === index ? { ...c, lateResponseSeq: frame.seq } : c));
}
