/**
 * The Playground tab's store (issue 15): the provider settings (one set, two when comparing), the
 * keys the proxy says it can use, the model lists, the servers whose tools the model sees, the
 * approval options, and the conversations (playground-run.ts).
 *
 * A key typed into the page goes to the proxy once (`playground-set-key`) and only the reference
 * it answers with (`memory:<id>`) is kept — in memory, like every other setting here: nothing of
 * this store is written to any storage, so no key or reference outlives the tab or reaches a file.
 */
import { HostStore } from './host-store.ts';
import { DEFAULT_LOOP_OPTIONS, type LoopOptions } from '../../lib/playground/loop.ts';
import { buildExport, parseExport, userMessages, type PlaygroundExport } from '../../lib/playground/export.ts';
import type { PlaygroundTool, ProviderConfig, ProviderKind } from '../../lib/playground/types.ts';
import { ANTHROPIC_BASE_URL } from '../../lib/providers/anthropic.ts';
import { OPENAI_BASE_URL } from '../../lib/providers/openai.ts';
import type { PlaygroundKeys } from '../../lib/wire/playground.ts';
import type { ServerMessage } from '../../lib/wire/wire.ts';
import { PlaygroundRun, type RunContext, type RunHost } from './playground-run.ts';
import { newRequestId } from '../_wire/request-outcome.ts';

export const DEFAULT_BASE_URL: Record<ProviderKind, string> = { 'openai-compatible': OPENAI_BASE_URL, anthropic: ANTHROPIC_BASE_URL };

export interface ModelList {
  /** `kind|baseUrl|key` the list was asked for. */
  for: string;
  status: 'loading' | 'done' | 'error';
  ids: string[];
  error?: string;
}

export interface ProviderSettings {
  kind: ProviderKind;
  baseUrl: string;
  model: string;
  /** The proxy's reference of a key typed here; never the key. */
  apiKeyRef?: string;
  keyPending?: string;
  keyError?: string;
  models?: ModelList;
}

export interface PlaygroundState {
  keys: PlaygroundKeys;
  providers: readonly [ProviderSettings, ProviderSettings];
  system: string;
  /** Sessions the user unticked (every other connected one is offered to the model). */
  excluded: readonly string[];
  options: LoopOptions;
  compare: boolean;
  imported?: { name: string; file: PlaygroundExport };
  importError?: string;
}

/** Where the key of a provider's calls comes from, for the words under `API key`. */
export type KeySource = { kind: 'typed'; apiKeyRef: string } | { kind: 'env'; name: string } | { kind: 'typed-elsewhere'; origin: string } | { kind: 'none' };

function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The key the proxy will use for these settings, by the same rules as proxy/playground/keys.ts. */
export function keySource(settings: ProviderSettings, keys: PlaygroundKeys): KeySource {
  const url = urlOf(settings.baseUrl.trim() || DEFAULT_BASE_URL[settings.kind]);
  const memory = keys.memory ?? [];
  const own = memory.find((m) => m.apiKeyRef === settings.apiKeyRef);
  if (own && own.origin === url?.origin) return { kind: 'typed', apiKeyRef: own.apiKeyRef };
  // Typed in another tab (or before a reload) for this very endpoint: the proxy holds it already.
  const other = memory.find((m) => m.provider === settings.kind && m.origin === url?.origin);
  if (other) return { kind: 'typed', apiKeyRef: other.apiKeyRef };
  const env = keys.env.find((k) => k.provider === settings.kind && urlOf(k.baseUrl)?.hostname === url?.hostname);
  if (env) return { kind: 'env', name: env.name };
  if (own) return { kind: 'typed-elsewhere', origin: own.origin };
  return { kind: 'none' };
}

/** The settings as a call carries them: the key by reference only. */
export function configOf(settings: ProviderSettings, keys: PlaygroundKeys): ProviderConfig {
  const source = keySource(settings, keys);
  return { kind: settings.kind, baseUrl: settings.baseUrl.trim() || DEFAULT_BASE_URL[settings.kind], model: settings.model.trim(), ...(source.kind === 'typed' ? { apiKeyRef: source.apiKeyRef } : source.kind === 'env' ? { apiKeyRef: `env:${source.name}` } : {}) };
}

const listKey = (s: ProviderSettings, keys: PlaygroundKeys) => `${s.kind}|${s.baseUrl.trim()}|${configOf(s, keys).apiKeyRef ?? ''}`;

const fresh = (kind: ProviderKind): ProviderSettings => ({ kind, baseUrl: DEFAULT_BASE_URL[kind], model: '' });

/** What Send needs besides the store: the tools offered now and where they live. */
export type SendContext = Omit<RunContext, 'config' | 'system' | 'options'>;

export class PlaygroundStore extends HostStore<PlaygroundState> {
  readonly runs: readonly [PlaygroundRun, PlaygroundRun];

  constructor(private readonly host: RunHost) {
    super(host, { keys: { env: [] }, providers: [fresh('openai-compatible'), fresh('anthropic')], system: '', excluded: [], options: DEFAULT_LOOP_OPTIONS, compare: false });
    this.runs = [new PlaygroundRun(host), new PlaygroundRun(host)];
  }

  setProvider(which: 0 | 1, patch: Partial<Pick<ProviderSettings, 'baseUrl' | 'model'>>): void {
    this.patchProvider(which, patch);
  }

  /** A new provider kind brings its own default base URL, unless the user typed one of their own. */
  setKind(which: 0 | 1, kind: ProviderKind): void {
    const now = this.state.providers[which];
    const baseUrl = Object.values(DEFAULT_BASE_URL).includes(now.baseUrl.trim()) || now.baseUrl.trim() === '' ? DEFAULT_BASE_URL[kind] : now.baseUrl;
    this.patchProvider(which, { kind, baseUrl, models: undefined, keyError: undefined });
  }

  /** Hand a typed key to the proxy; only its reference comes back. False when the socket is down. */
  setKey(which: 0 | 1, key: string): boolean {
    if (key.trim() === '') return false;
    const s = this.state.providers[which];
    const requestId = newRequestId();
    const sent = this.host.send({ type: 'playground-set-key', requestId, provider: s.kind, baseUrl: s.baseUrl.trim() || DEFAULT_BASE_URL[s.kind], key });
    this.patchProvider(which, sent ? { keyPending: requestId, keyError: undefined } : { keyError: 'Not connected to Loupe, so the key was not handed over: type it again once connected.' });
    return sent;
  }

  forgetKey(which: 0 | 1): void {
    const ref = configOf(this.state.providers[which], this.state.keys).apiKeyRef;
    if (ref?.startsWith('memory:')) this.host.send({ type: 'playground-forget-key', apiKeyRef: ref });
    this.patchProvider(which, { apiKeyRef: undefined });
  }

  /** Ask for the endpoint's model list (the person pressed List models), unless it was asked for these very settings already. */
  fetchModels(which: 0 | 1, again = false): void {
    const s = this.state.providers[which];
    const key = listKey(s, this.state.keys);
    if (!again && s.models?.for === key) return;
    const requestId = newRequestId();
    if (!this.host.send({ type: 'playground-models', requestId, config: configOf(s, this.state.keys) })) return;
    this.modelRequests.set(requestId, { which, key });
    this.patchProvider(which, { models: { for: key, status: 'loading', ids: s.models?.ids ?? [] } });
  }

  private readonly modelRequests = new Map<string, { which: 0 | 1; key: string }>();

  setSystem(system: string): void {
    this.set({ ...this.state, system });
  }

  setServer(session: string, offered: boolean): void {
    const excluded = this.state.excluded.filter((id) => id !== session);
    this.set({ ...this.state, excluded: offered ? excluded : [...excluded, session] });
  }

  setOptions(patch: Partial<LoopOptions>): void {
    const options = { ...this.state.options, ...patch };
    this.set({ ...this.state, options });
    for (const run of this.runs) run.setOptions({ ...run.getSnapshot().loop.options, ...patch });
  }

  setCompare(compare: boolean): void {
    if (!compare) this.runs[1].clear();
    this.set({ ...this.state, compare });
  }

  /** Why Send cannot go now, in words; undefined when it can. */
  sendProblem(ctx: Pick<SendContext, 'record'> | undefined): string | undefined {
    if (!ctx) return 'Connect a server first: the Playground records each model call in a server’s History.';
    const { providers, compare } = this.state;
    if (providers[0].model.trim() === '') return 'Type the model’s name in Model first.';
    if (compare && providers[1].model.trim() === '') return 'Type the second model’s name in Second model, or turn Compare off.';
    return undefined;
  }

  /** The message to every model in play (both when comparing). */
  send(text: string, ctx: SendContext): boolean {
    if (this.sendProblem(ctx) !== undefined || text.trim() === '') return false;
    return this.active().map((run, i) => run.send(text, this.contextFor(i, ctx))).some(Boolean);
  }

  /**
   * Why a message cannot go into conversation `which` alone now, in words; undefined when it can.
   * What a view's approved `ui/message` waits on: it goes as the next user message of its own
   * conversation, the one whose model called the view's tool.
   */
  messageProblem(which: 0 | 1, ctx: Pick<SendContext, 'record'> | undefined): string | undefined {
    if (!ctx) return 'Connect a server first: the Playground records each model call in a server’s History.';
    if (this.state.providers[which].model.trim() === '') return `Type the ${which === 0 ? 'model’s name in Model' : 'second model’s name in Second model'} first.`;
    if (this.runs[which].busy) return 'The conversation is busy: approve once the model has answered (or press Stop).';
    return undefined;
  }

  /** A user message into conversation `which` only, as if typed there (see messageProblem). */
  sendTo(which: 0 | 1, text: string, ctx: SendContext): boolean {
    if (this.messageProblem(which, ctx) !== undefined || text.trim() === '') return false;
    return this.runs[which].send(text, this.contextFor(which, ctx));
  }

  decide(which: 0 | 1, callId: string, decision: 'approve' | 'deny' | 'always'): void {
    this.runs[which].decide(callId, decision);
  }

  stop(): void {
    this.runs.forEach((run) => run.stop());
  }

  clear(): void {
    this.runs.forEach((run) => run.clear());
    this.set({ ...this.state, imported: undefined, importError: undefined });
  }

  /** The conversations as a file to share: settings without any key, the tools, the messages, the tokens. */
  exportText(tools: readonly PlaygroundTool[]): string {
    const conversations = this.active().map((run, i) => {
      const { loop } = run.getSnapshot();
      const usage = loop.turns.reduce((sum, t) => ({ inputTokens: sum.inputTokens + (t.usage?.inputTokens ?? 0), outputTokens: sum.outputTokens + (t.usage?.outputTokens ?? 0) }), { inputTokens: 0, outputTokens: 0 });
      return { config: configOf(this.state.providers[i], this.state.keys), messages: loop.messages, usage, turns: loop.turns };
    });
    return JSON.stringify(buildExport({ system: this.state.system || undefined, options: this.state.options, tools, conversations }), null, 2);
  }

  /** Read an exported conversation: its settings become the current ones (no key: the proxy's or a typed one is used). */
  importText(name: string, text: string): boolean {
    const parsed = parseExport(text);
    if (!parsed.ok) {
      this.set({ ...this.state, importError: `${name}: ${parsed.error}` });
      return false;
    }
    const file = parsed.value;
    const [first, second] = file.conversations;
    const providers = [first, second ?? first].map((c, i) => ({ ...this.state.providers[i], kind: c.provider.kind, baseUrl: c.provider.baseUrl, model: c.provider.model, models: undefined })) as [ProviderSettings, ProviderSettings];
    this.runs.forEach((run) => run.clear());
    this.set({ ...this.state, providers, system: file.system ?? '', options: file.options, compare: second !== undefined, imported: { name, file }, importError: undefined });
    return true;
  }

  /** Send the user messages of the imported conversation (else of the current one) again, from a fresh start. */
  rerun(ctx: SendContext): boolean {
    const source = this.state.imported?.file.conversations[0].messages ?? this.runs[0].getSnapshot().loop.messages;
    const texts = userMessages(source);
    if (texts.length === 0 || this.sendProblem(ctx) !== undefined) return false;
    this.active().forEach((run, i) => run.rerun(texts, this.contextFor(i, ctx)));
    return true;
  }

  private active(): PlaygroundRun[] {
    return this.state.compare ? [...this.runs] : [this.runs[0]];
  }

  private contextFor(which: number, ctx: SendContext): RunContext {
    const { providers, keys, system, options } = this.state;
    return { ...ctx, config: configOf(providers[which], keys), system: system.trim() || undefined, options };
  }

  protected receive(message: ServerMessage): void {
    if (message.type === 'snapshot' && message.playgroundKeys) this.set({ ...this.state, keys: message.playgroundKeys });
    else if (message.type === 'playground-keys') this.set({ ...this.state, keys: { env: message.env, memory: message.memory } });
    else if (message.type === 'playground-key-set') this.keySet(message);
    else if (message.type === 'playground-models-result') this.modelsResult(message);
    for (const run of this.runs) run.receive(message);
  }

  private keySet(message: Extract<ServerMessage, { type: 'playground-key-set' }>): void {
    const which = this.state.providers.findIndex((p) => p.keyPending === message.requestId);
    if (which !== 0 && which !== 1) return;
    const ref = message.apiKeyRef;
    if (!ref) {
      this.patchProvider(which, { keyPending: undefined, keyError: message.error?.message ?? 'Loupe did not take the key: type it again.' });
      return;
    }
    // The proxy's playground-keys listing it follows this answer; the calls made meanwhile use it already.
    const s = this.state.providers[which];
    const origin = urlOf(s.baseUrl.trim() || DEFAULT_BASE_URL[s.kind])?.origin ?? '';
    const memory = [...(this.state.keys.memory ?? []).filter((m) => m.apiKeyRef !== ref), { apiKeyRef: ref, provider: s.kind, origin }];
    this.set({ ...this.state, keys: { ...this.state.keys, memory } });
    this.patchProvider(which, { keyPending: undefined, apiKeyRef: ref, keyError: undefined });
  }

  private modelsResult(message: Extract<ServerMessage, { type: 'playground-models-result' }>): void {
    const asked = this.modelRequests.get(message.requestId);
    if (!asked) return;
    this.modelRequests.delete(message.requestId);
    const now = this.state.providers[asked.which].models;
    if (now?.for !== asked.key) return;
    const ids = (message.models ?? []).map((m) => m.id).filter((id) => typeof id === 'string');
    this.patchProvider(asked.which, { models: message.error ? { for: asked.key, status: 'error', ids: [], error: message.error.message } : { for: asked.key, status: 'done', ids } });
  }

  private patchProvider(which: 0 | 1, patch: Partial<ProviderSettings>): void {
    const providers = [...this.state.providers] as [ProviderSettings, ProviderSettings];
    providers[which] = { ...providers[which], ...patch };
    this.set({ ...this.state, providers });
  }

}
