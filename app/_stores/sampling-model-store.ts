/**
 * `Ask model` on a pending `sampling/createMessage` (issue 15, item 5): the request is mapped to one
 * Playground model call (lib/playground/sampling-model.ts) with the Playground tab's first provider settings,
 * sent as `playground-call` (the proxy makes it and records it in the requesting session's trace),
 * and the model's answer is kept here as a suggestion for that request's reply editor. Nothing goes
 * to the server from here: the person sends, edits or rejects the reply as with one typed by hand.
 */
import { HostStore } from './host-store.ts';
import { planSamplingCall, replyDraft, type ModelChoice, type SuggestedReply } from '../../lib/playground/sampling-model.ts';
import type { ProviderConfig } from '../../lib/playground/types.ts';
import type { SamplingView } from '../../lib/client/sampling.ts';
import type { ServerMessage, ServerRequest } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { configOf, DEFAULT_BASE_URL, type PlaygroundState, type PlaygroundStore } from './playground-store.ts';
import { newRequestId } from '../_wire/request-outcome.ts';
import { requestKey } from './server-request-store.ts';

export interface AskState {
  status: 'asking' | 'answered' | 'failed';
  /** The `playground-call`'s request id (a new one per Ask model). */
  callId: string;
  choice?: ModelChoice;
  /** What of the request the provider was not given, and what of the reply the editor does not hold. */
  notes: string[];
  suggestion?: SuggestedReply;
  error?: string;
  /** The `provider` event of the exchange, in the requesting session's trace. */
  exchangeSeq?: number;
  latencyMs?: number;
}

/** By `session/requestId` (server-request-store.ts requestKey). */
export type SamplingModelState = Readonly<Record<string, AskState>>;

/** Which model Ask model will use, in words, and whether there is one. */
export interface AskSetup {
  ready: boolean;
  words: string;
}

const PROVIDER_NAMES = { 'openai-compatible': 'OpenAI-compatible', anthropic: 'Anthropic' } as const;

/** The Playground's first provider, as the line beside Ask model says it. */
export function askSetup(playground: PlaygroundState): AskSetup {
  const s = playground.providers[0];
  const model = s.model.trim();
  if (model === '') return { ready: false, words: 'No model is set up in the Playground yet: choose a provider and a model there to let one answer.' };
  const config = configOf(s, playground.keys);
  const key = config.apiKeyRef === undefined ? 'no key' : config.apiKeyRef.startsWith('env:') ? `the key in ${config.apiKeyRef.slice(4)}` : 'the key you typed';
  return { ready: true, words: `Uses the Playground’s ${PROVIDER_NAMES[s.kind]} endpoint ${config.baseUrl || DEFAULT_BASE_URL[s.kind]} with ${key}; model ${model} unless a hint of the server matches another.` };
}

const DROPPED = 'The connection to Loupe dropped before the model answered: ask again.';
const NOT_SENT = 'Not connected to Loupe, so the model was not asked: wait for the connection, then ask again.';

export class SamplingModelStore extends HostStore<SamplingModelState> {
  /** The request each call answers, by the call's id. */
  private readonly calls = new Map<string, { key: string; view: SamplingView; config: ProviderConfig }>();

  constructor(
    private readonly host: MessageHost,
    private readonly playground: Pick<PlaygroundStore, 'getSnapshot'>,
  ) {
    super(host, {});
  }

  /** Ask the Playground's model to answer `request`; false when it could not be asked (the reason is in the state). */
  ask(request: ServerRequest, view: SamplingView): boolean {
    const key = requestKey(request);
    this.stopCall(key);
    const playground = this.playground.getSnapshot();
    const plan = planSamplingCall(view, { config: configOf(playground.providers[0], playground.keys), known: playground.providers[0].models?.ids ?? [] });
    const callId = newRequestId();
    if (!plan.ok) {
      this.patch(key, { status: 'failed', callId, notes: [], error: plan.error });
      return false;
    }
    const { call } = plan;
    const sent = this.host.send({ type: 'playground-call', requestId: callId, session: request.session, config: call.config, request: call.request, stream: false });
    if (!sent) {
      this.patch(key, { status: 'failed', callId, choice: call.choice, notes: call.notes, error: NOT_SENT });
      return false;
    }
    this.calls.set(callId, { key, view, config: call.config });
    this.patch(key, { status: 'asking', callId, choice: call.choice, notes: call.notes });
    return true;
  }

  /** Stop the model call of `request` (its reply editor keeps what it has). */
  stop(request: ServerRequest): void {
    const key = requestKey(request);
    const now = this.state[key];
    if (this.stopCall(key) && now) this.patch(key, { ...now, status: 'failed', error: 'Stopped before the model answered.' });
  }

  private stopCall(key: string): boolean {
    const now = this.state[key];
    if (now?.status !== 'asking' || !this.calls.delete(now.callId)) return false;
    this.host.send({ type: 'playground-cancel', requestId: now.callId });
    return true;
  }

  protected receive(message: ServerMessage): void {
    if (message.type === 'snapshot') return this.dropAll();
    if (message.type === 'server-request-done') {
      const key = requestKey(message);
      this.stopCall(key);
      return this.remove(key);
    }
    if (message.type !== 'playground-reply') return;
    const asked = this.calls.get(message.requestId);
    const now = asked && this.state[asked.key];
    if (!asked || !now) return;
    this.calls.delete(message.requestId);
    const trace = { exchangeSeq: message.exchangeSeq, latencyMs: message.latencyMs };
    if (!message.reply) {
      this.patch(asked.key, { ...now, ...trace, status: 'failed', error: message.error?.message ?? 'The model gave no answer: ask again, or answer by hand.' });
      return;
    }
    const suggestion = replyDraft(message.reply, asked, asked.view);
    this.patch(asked.key, { ...now, ...trace, status: 'answered', suggestion, notes: [...now.notes, ...suggestion.notes] });
  }

  /** A new socket: calls of the old one will not be answered. */
  private dropAll(): void {
    if (this.calls.size === 0) return;
    const next = { ...this.state };
    for (const { key } of this.calls.values()) if (next[key]) next[key] = { ...next[key], status: 'failed', error: DROPPED };
    this.calls.clear();
    this.set(next);
  }

  private remove(key: string): void {
    if (!(key in this.state)) return;
    const next = { ...this.state };
    delete next[key];
    this.set(next);
  }

  private patch(key: string, value: AskState): void {
    this.set({ ...this.state, [key]: value });
  }

}
