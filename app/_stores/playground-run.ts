/**
 * One Playground conversation driven for real (issue 15): the pure loop (lib/playground/loop.ts)
 * decides, this carries its effects out over the tab's socket — a model call is a
 * `playground-call` the proxy makes (streamed: its deltas shown as they come), a tool call is the
 * ordinary `request` for `tools/call` on the tool's own session, so that the trace, the
 * interception rules and the permission gates of the workspace treat it like any other call, and
 * Stop is `playground-cancel` for the model and the usual `cancel` (notifications/cancelled) for
 * a tool. Two of these run side by side when the user compares two models.
 */
import { advance, createLoop, type LoopEffect, type LoopEvent, type LoopOptions, type LoopState } from '../../lib/playground/loop.ts';
import type { Message, PlaygroundTool, ProviderConfig } from '../../lib/playground/types.ts';
import type { ServerMessage } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { newRequestId, type RequestOutcome } from '../_wire/request-outcome.ts';
import { ExternalStore } from './external-store.ts';

/** What a run needs of the tab store beyond its messages: the session request path and its cancel. */
export interface RunHost extends MessageHost {
  request(session: string, method: string, params?: Record<string, unknown>, id?: string): Promise<RequestOutcome>;
  cancel(session: string, id: string): void;
}

/** What one user message is sent with: the settings and tools at the time of Send. */
export interface RunContext {
  config: ProviderConfig;
  tools: PlaygroundTool[];
  /** The session of each server name the tools name. */
  sessions: Readonly<Record<string, string>>;
  /** The session whose trace records the provider exchanges. */
  record: string;
  system?: string;
  options: LoopOptions;
}

/** Where a tool call went: its session, the tab's request id, and the JSON-RPC id once the proxy says it. */
export interface CallLink {
  session: string;
  requestId: string;
  rpcId?: string | number;
}

/** A streamed reply as far as it has come. */
export interface Streaming {
  text: string;
  calls: { name: string; arguments: string }[];
}

export interface RunState {
  loop: LoopState;
  streaming?: Streaming;
  /** The provider exchange of each turn (by its index in loop.turns): the trace row to show. */
  exchanges: Readonly<Record<number, { session: string; seq: number }>>;
  /** By the model's call id. */
  links: Readonly<Record<string, CallLink>>;
  /** User messages a Re-run still has to send, each once the model is done with the one before. */
  queue: readonly string[];
}

const emptyState = (messages: Message[] = []): RunState => ({ loop: createLoop({ tools: [], messages }), exchanges: {}, links: {}, queue: [] });

const NOT_SENT = 'Not connected to Loupe, so the model was not asked: wait for the connection, then send again.';
const DROPPED = 'The connection to Loupe dropped before the model answered: send the message again.';

export class PlaygroundRun extends ExternalStore<RunState> {
  private ctx?: RunContext;
  private modelCall?: { requestId: string; turn: number };

  constructor(
    private readonly host: RunHost,
    private readonly now: () => number = Date.now,
  ) {
    super(emptyState());
  }

  /** Whether a user message would be taken now (the loop is not busy). */
  get busy(): boolean {
    return ['awaiting-model', 'awaiting-approval', 'calling-tool'].includes(this.state.loop.status);
  }

  /** Send a user message with these settings; false when the loop is busy or the text empty. */
  send(text: string, ctx: RunContext): boolean {
    this.ctx = ctx;
    if (this.busy) return false;
    this.state = { ...this.state, loop: { ...this.state.loop, tools: ctx.tools, system: ctx.system, options: ctx.options } };
    return this.dispatch({ type: 'user-message', text, at: this.now() });
  }

  /** Start again from nothing and send these user messages one after another. */
  rerun(texts: readonly string[], ctx: RunContext): void {
    this.stop();
    this.modelCall = undefined;
    this.state = { ...emptyState(), queue: texts.slice(1) };
    if (texts.length > 0) this.send(texts[0], ctx);
    else this.notify();
  }

  decide(callId: string, decision: 'approve' | 'deny' | 'always'): void {
    this.dispatch({ type: 'approval', callId, decision, at: this.now() });
  }

  /** Options changed mid-conversation apply from the next call the model asks for. */
  setOptions(options: LoopOptions): void {
    this.set({ ...this.state, loop: { ...this.state.loop, options } });
  }

  stop(): void {
    this.set({ ...this.state, queue: [] });
    this.dispatch({ type: 'stop', at: this.now() });
  }

  /** Forget the conversation (stopping what runs). */
  clear(): void {
    this.stop();
    this.modelCall = undefined;
    this.set(emptyState());
  }

  /** Every proxy message of the tab, handed on by the store. */
  receive(message: ServerMessage): void {
    const call = this.modelCall;
    if (message.type === 'snapshot' && call) {
      // A new socket: the old one's model call will never be answered.
      this.modelCall = undefined;
      this.set({ ...this.state, streaming: undefined });
      this.dispatch({ type: 'model-error', message: DROPPED, at: this.now() });
      return;
    }
    if (message.type === 'response') {
      const entry = Object.entries(this.state.links).find(([, link]) => link.requestId === message.id);
      if (entry && message.rpcId !== undefined) this.set({ ...this.state, links: { ...this.state.links, [entry[0]]: { ...entry[1], rpcId: message.rpcId } } });
      return;
    }
    if (!call || !('requestId' in message) || message.requestId !== call.requestId) return;
    if (message.type === 'playground-delta') {
      let streaming = this.state.streaming ?? { text: '', calls: [] };
      for (const delta of message.deltas) {
        if (delta.type === 'text') streaming = { ...streaming, text: streaming.text + delta.text };
        else if (delta.type === 'tool_call_start') streaming = { ...streaming, calls: withCall(streaming.calls, delta.index, (c) => ({ ...c, name: delta.name })) };
        else streaming = { ...streaming, calls: withCall(streaming.calls, delta.index, (c) => ({ ...c, arguments: c.arguments + delta.fragment })) };
      }
      this.set({ ...this.state, streaming });
    } else if (message.type === 'playground-reply') {
      this.modelCall = undefined;
      const exchanges = message.exchangeSeq !== undefined && this.ctx ? { ...this.state.exchanges, [call.turn]: { session: this.ctx.record, seq: message.exchangeSeq } } : this.state.exchanges;
      this.set({ ...this.state, streaming: undefined, exchanges });
      if (message.reply) this.dispatch({ type: 'model-reply', reply: message.reply, at: this.now() });
      else this.dispatch({ type: 'model-error', message: message.error?.message ?? 'The model gave no answer: send again.', at: this.now() });
    }
  }

  /** False when the event did not fit the loop's state (nothing changed). */
  private dispatch(event: LoopEvent): boolean {
    const { state, effects } = advance(this.state.loop, event);
    if (state === this.state.loop) return false;
    this.set({ ...this.state, loop: state });
    for (const effect of effects) this.carryOut(effect);
    return true;
  }

  private carryOut(effect: LoopEffect): void {
    const ctx = this.ctx;
    if (!ctx) return;
    switch (effect.type) {
      case 'call-model': {
        const requestId = newRequestId();
        this.modelCall = { requestId, turn: this.state.loop.turns.length - 1 };
        this.set({ ...this.state, streaming: { text: '', calls: [] } });
        const sent = this.host.send({ type: 'playground-call', requestId, session: ctx.record, config: ctx.config, request: effect.request, stream: true });
        if (!sent) {
          this.modelCall = undefined;
          this.set({ ...this.state, streaming: undefined });
          this.dispatch({ type: 'model-error', message: NOT_SENT, at: this.now() });
        }
        return;
      }
      case 'call-tool':
        return this.callTool(ctx, effect);
      case 'cancel-tool': {
        const link = this.state.links[effect.callId];
        if (link) this.host.cancel(link.session, link.requestId);
        return;
      }
      case 'cancel-model':
        if (this.modelCall) this.host.send({ type: 'playground-cancel', requestId: this.modelCall.requestId });
        this.modelCall = undefined;
        this.set({ ...this.state, streaming: undefined });
        return;
      case 'ask-approval':
        // The calls waiting are in the state: the page shows their Approve / Deny.
        return;
      case 'finish': {
        const [next, ...rest] = this.state.queue;
        if (effect.status !== 'done' || next === undefined) {
          if (this.state.queue.length > 0) this.set({ ...this.state, queue: [] });
          return;
        }
        this.set({ ...this.state, queue: rest });
        this.send(next, ctx);
        return;
      }
    }
  }

  private callTool(ctx: RunContext, effect: Extract<LoopEffect, { type: 'call-tool' }>): void {
    const session = ctx.sessions[effect.server];
    if (session === undefined) {
      this.dispatch({ type: 'tool-error', callId: effect.callId, message: `the server ${JSON.stringify(effect.server)} is not connected to Loupe any more.`, at: this.now() });
      return;
    }
    const requestId = newRequestId();
    this.set({ ...this.state, links: { ...this.state.links, [effect.callId]: { session, requestId } } });
    void this.host.request(session, 'tools/call', { name: effect.tool, arguments: effect.arguments }, requestId).then((outcome) => {
      const at = this.now();
      if (!outcome.ok) {
        this.dispatch({ type: 'tool-error', callId: effect.callId, message: `${outcome.error.message} (${String(outcome.error.code)})`, at });
        return;
      }
      const result = (outcome.result ?? {}) as Record<string, unknown>;
      const content = Array.isArray(result.content) ? (result.content as { type: string }[]).filter((b) => b !== null && typeof b === 'object' && typeof b.type === 'string') : [];
      this.dispatch({ type: 'tool-result', callId: effect.callId, result: { content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}), isError: result.isError === true }, at });
    });
  }
}

function withCall(calls: Streaming['calls'], index: number, change: (call: Streaming['calls'][number]) => Streaming['calls'][number]): Streaming['calls'] {
  const next = [...calls];
  while (next.length <= index) next.push({ name: '', arguments: '' });
  next[index] = change(next[index]);
  return next;
}
