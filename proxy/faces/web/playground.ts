/**
 * The Playground's messages (issue 15, lib/wire/playground.ts): the page drives the agent loop and
 * asks the proxy for each model call; the proxy resolves the key (playground-keys.ts), makes the
 * call (playground-provider.ts), streams the deltas back to the asking tab in batches, records the
 * exchange as a `provider` event in the trace of the session the page names, and answers with the
 * reply and that event's seq. Typed keys are held per hub, in memory only; every tab learns which
 * keys exist (names and references, never values) from its snapshot and from `playground-keys`.
 */
import type { WebSocket } from 'ws';
import type { StreamDelta } from '../../../lib/playground/types.ts';
import type { ClientMessage, ServerMessage } from '../../../lib/wire/wire.ts';
import type { PlaygroundCallMessage, PlaygroundError, PlaygroundKeys, PlaygroundModelsMessage } from '../../../lib/wire/playground.ts';
import type { HubContext } from './context.ts';
import { KeyStore } from '../../playground/keys.ts';
import type { ProviderEventInput, Timeouts } from '../../playground/provider.ts';

/**
 * The provider calls and their adapters (with the schema cleaning and Ajv they use) load with the
 * first Playground call: a Loupe that never opens the Playground never holds them (issue 23).
 */
let providers: Promise<typeof import('../../playground/provider.ts')> | undefined;
const provider = () => (providers ??= import('../../playground/provider.ts'));

const PLAYGROUND_TYPES = new Set(['playground-set-key', 'playground-forget-key', 'playground-models', 'playground-call', 'playground-cancel'] as const);
type PlaygroundType = typeof PLAYGROUND_TYPES extends Set<infer T> ? T : never;
export type PlaygroundMessage = Extract<ClientMessage, { type: PlaygroundType }>;

export function isPlaygroundMessage(message: ClientMessage): message is PlaygroundMessage {
  return PLAYGROUND_TYPES.has(message.type as PlaygroundType);
}

/** Deltas that arrive within this window go to the page as one message. */
export const DELTA_WINDOW_MS = 25;

interface PlaygroundState {
  keys: KeyStore;
  timeouts?: Partial<Timeouts>;
  /** The calls in flight of each tab, by the tab's request id (two tabs may use the same ids). */
  inFlight: WeakMap<WebSocket, Map<string, AbortController>>;
}

const stateByHub = new WeakMap<HubContext, PlaygroundState>();

function stateOf(hub: HubContext): PlaygroundState {
  let state = stateByHub.get(hub);
  if (!state) stateByHub.set(hub, (state = { keys: new KeyStore(), inFlight: new WeakMap() }));
  return state;
}

/**
 * Where the keys come from and how long a call may take, set before the hub's first Playground
 * message: Loupe's environment and DEFAULT_TIMEOUTS unless given (tests give both).
 */
export function configurePlayground(hub: HubContext, options: { env?: Readonly<Record<string, string | undefined>>; timeouts?: Partial<Timeouts> }): void {
  const state = stateOf(hub);
  if (options.env) state.keys = new KeyStore(options.env);
  if (options.timeouts) state.timeouts = options.timeouts;
}

/** The keys as the snapshot carries them. */
export function playgroundSnapshot(hub: HubContext): { playgroundKeys: PlaygroundKeys } {
  return { playgroundKeys: stateOf(hub).keys.state() };
}

function broadcastKeys(hub: HubContext): void {
  hub.broadcastNow({ type: 'playground-keys', ...stateOf(hub).keys.state() });
}

export async function dispatchPlayground(hub: HubContext, ws: WebSocket, message: PlaygroundMessage): Promise<void> {
  const state = stateOf(hub);
  switch (message.type) {
    case 'playground-set-key': {
      const held = state.keys.set(message.provider, message.baseUrl, message.key);
      hub.sendTo(ws, held.ok ? { type: 'playground-key-set', requestId: message.requestId, apiKeyRef: held.apiKeyRef } : { type: 'playground-key-set', requestId: message.requestId, error: held.error });
      if (held.ok) broadcastKeys(hub);
      return;
    }
    case 'playground-forget-key':
      if (state.keys.forget(message.apiKeyRef)) broadcastKeys(hub);
      return;
    case 'playground-cancel':
      state.inFlight.get(ws)?.get(message.requestId)?.abort();
      return;
    case 'playground-models':
      return models(hub, ws, message);
    case 'playground-call':
      return chat(hub, ws, message);
  }
}

/** Runs `act` with an AbortController the tab's `playground-cancel` reaches. */
async function cancellable<T>(hub: HubContext, ws: WebSocket, requestId: string, act: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { inFlight } = stateOf(hub);
  let calls = inFlight.get(ws);
  if (!calls) inFlight.set(ws, (calls = new Map()));
  const controller = new AbortController();
  // A request id used again while its call runs: the first call is stopped, not orphaned.
  calls.get(requestId)?.abort();
  calls.set(requestId, controller);
  try {
    return await act(controller.signal);
  } finally {
    if (calls.get(requestId) === controller) calls.delete(requestId);
  }
}

/** The exchange in the session's trace, when the session is there; its seq. */
function record(hub: HubContext, session: string | undefined, event: ProviderEventInput): number | undefined {
  if (session === undefined) return undefined;
  return hub.engine.session(session)?.trace.record(event).seq;
}

const noSession = (id: string): PlaygroundError => ({ code: 'NO_SESSION', message: `There is no server ${JSON.stringify(id)} to record the call in any more: choose the Playground's servers again.` });

async function models(hub: HubContext, ws: WebSocket, message: PlaygroundModelsMessage): Promise<void> {
  const state = stateOf(hub);
  const answer = (rest: Omit<Extract<ServerMessage, { type: 'playground-models-result' }>, 'type' | 'requestId'>) => hub.sendTo(ws, { type: 'playground-models-result', requestId: message.requestId, ...rest });
  if (message.session !== undefined && !hub.engine.session(message.session)) return answer({ error: noSession(message.session) });
  const key = state.keys.resolve(message.config);
  if (!key.ok) return answer({ error: key.error });
  const done = await cancellable(hub, ws, message.requestId, async (signal) => (await provider()).listModels({ config: message.config, key: key.key, signal, timeouts: state.timeouts }));
  const exchangeSeq = record(hub, message.session, done.event);
  answer({ ...(done.outcome.ok ? { models: done.outcome.value } : { error: done.outcome.error }), ...(exchangeSeq !== undefined ? { exchangeSeq } : {}) });
}

async function chat(hub: HubContext, ws: WebSocket, message: PlaygroundCallMessage): Promise<void> {
  const state = stateOf(hub);
  const { requestId } = message;
  if (!hub.engine.session(message.session)) return hub.sendTo(ws, { type: 'playground-reply', requestId, error: noSession(message.session), latencyMs: 0 });
  const key = state.keys.resolve(message.config);
  if (!key.ok) return hub.sendTo(ws, { type: 'playground-reply', requestId, error: key.error, latencyMs: 0 });

  let pending: StreamDelta[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    hub.sendTo(ws, { type: 'playground-delta', requestId, deltas: pending });
    pending = [];
  };
  const onDeltas = (deltas: StreamDelta[]) => {
    pending.push(...deltas);
    timer ??= setTimeout(flush, DELTA_WINDOW_MS);
  };

  const done = await cancellable(hub, ws, requestId, async (signal) =>
    (await provider()).callModel({ config: message.config, key: key.key, request: message.request, stream: message.stream, onDeltas, signal, timeouts: state.timeouts }),
  );
  // Every delta before the reply, which the page takes as the end of the stream.
  flush();
  const exchangeSeq = record(hub, message.session, done.event);
  hub.sendTo(ws, {
    type: 'playground-reply',
    requestId,
    ...(done.outcome.ok ? { reply: done.outcome.value } : { error: done.outcome.error }),
    latencyMs: done.latencyMs,
    ...(exchangeSeq !== undefined ? { exchangeSeq } : {}),
  });
}
