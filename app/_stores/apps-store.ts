/**
 * The MCP Apps views of this tab (issue 24, lib/wire/apps.ts). The Tools tab's (`slots`): at most
 * one per tool of a session, the view of that tool's latest call. The Playground's (`calls`): one
 * per tool call a model made in a conversation, kept until that conversation is cleared
 * (`discard`). The host of each view runs in the proxy; this store only
 * asks for a view (`app-open`), keeps the state the proxy sends (`app-state`), and is the pipe
 * between the proxy and the sandbox frame: what the frame posted goes out as `app-frame`, what the
 * proxy sends a view is handed to the frame that shows it (held until that frame is there).
 *
 * A `tools/call` response names its trace frame (`frameSeq`, issue 23) and its JSON-RPC id: both
 * are noted here as the response passes, so that `app-open` names the result's frame instead of
 * sending the result back, and gives the view the call's id (`hostContext.toolInfo.id`).
 */
import type { DownloadedFile } from '../../lib/apps/download.ts';
import type { AppViewState, HostContextPatch, LoupeError, RequestId, ServerMessage } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { newRequestId } from '../_wire/request-outcome.ts';
import { HostStore } from './host-store.ts';

/** One view: the call it shows, and what the proxy said of it. */
export interface ViewSlot {
  session: string;
  tool: string;
  /** The Playground conversation (0, or 1 for the second model) whose call this view shows; none for the Tools tab's. */
  conversation?: number;
  /** The call store's id of the `tools/call` whose result the view shows. */
  callId: string;
  /** The call's arguments and result: `Replay to view` starts from them. */
  input: Record<string, unknown>;
  result: unknown;
  fromResponse: boolean;
  /** The host context the user chose here, kept for the next view of this slot (a new run, `Mount again`). */
  context: HostContextPatch;
  /** The requestId of the `app-open` in flight. */
  pending?: string;
  /** The view as the proxy last described it. */
  state?: AppViewState;
  /** Why there is no view, in words (the proxy refused to open it, the socket was down…). */
  error?: string;
  /** The proxy refused the last thing asked of this view (a replay before it initialized…). */
  problem?: string;
  /** Approved downloads' files, by ask id, held in memory to be saved one by one (never stored). */
  downloads?: Readonly<Record<string, readonly DownloadedFile[]>>;
}

export interface AppsState {
  /** The Tools tab's, by slotKey(session, tool). */
  slots: Readonly<Record<string, ViewSlot>>;
  /** The Playground's, by callKey(conversation, callId). */
  calls: Readonly<Record<string, ViewSlot>>;
}

/** What the page knows of a finished call whose tool links a view. */
export interface ViewCall {
  session: string;
  tool: string;
  callId: string;
  input: Record<string, unknown>;
  result: unknown;
  /**
   * The result is the call's response itself (false: a task's, fetched after the response named
   * the task): only then does the response's frame hold it.
   */
  fromResponse: boolean;
  /** A Playground conversation's call: its own view, keyed by callKey(conversation, callId). */
  conversation?: number;
}

export const slotKey = (session: string, tool: string): string => `${session}\u0000${tool}`;
/** A Playground call's view; `callId` is the tab's request id of its `tools/call`. Never a slotKey (its first character). */
export const callKey = (conversation: number, callId: string): string => `\u0001${conversation}\u0000${callId}`;
const isCallKey = (key: string): boolean => key.startsWith('\u0001');
const keyOf = (slot: Pick<ViewSlot, 'session' | 'tool' | 'callId' | 'conversation'>): string =>
  slot.conversation === undefined ? slotKey(slot.session, slot.tool) : callKey(slot.conversation, slot.callId);

/** Responses noted (their frame and JSON-RPC id), newest last: a call is opened as soon as it ends. */
const NOTED = 200;
/** Asks answered from this tab, remembered so that a second click sends nothing. */
const ANSWERED = 200;
/** Approved downloads whose files a view's slot keeps for their Save buttons, newest last. */
const DOWNLOADS_KEPT = 5;
/** Frames held for a view whose frame is not drawn yet (it is hidden, or being drawn). */
const HELD = 500;

const NOT_SENT = 'Not connected to Loupe, so the view was not opened.';
const DROPPED = 'The connection to Loupe dropped; the view went with it. Use Mount again.';
const NO_STATE = 'Loupe answered without the view.';

export class AppsStore extends HostStore<AppsState> {
  private readonly responses = new Map<string, { rpcId?: RequestId; frameSeq?: number }>();
  private readonly posters = new Map<string, (text: string) => void>();
  private readonly held = new Map<string, string[]>();
  /** The asks answered from this tab (`view`, NUL, ask id), newest last: a second click sends nothing. */
  private readonly answered = new Set<string>();

  /**
   * `save`: saves one file (the page's is a `blob:` download). An approved download of one file is
   * saved as it arrives; of several, the page offers each (a browser may refuse a burst of saves).
   */
  constructor(
    private readonly host: MessageHost,
    private readonly hostOrigin: () => string = () => globalThis.location?.origin ?? '',
    private readonly save: (file: DownloadedFile) => void = () => undefined,
  ) {
    super(host, { slots: {}, calls: {} });
  }

  /**
   * Shows the view of this call: nothing when it already does, else the slot's previous view (the
   * tool's, in the Tools tab) is closed and this one opened. False when the socket is down (the
   * slot says so).
   */
  open(call: ViewCall): boolean {
    const key = keyOf(call);
    const old = this.slot(key);
    if (old?.callId === call.callId) return true;
    if (old?.state && old.state.status !== 'closed') this.tearDown(key);
    return this.request({ ...call, context: old?.context ?? {} });
  }

  /** Closes the view and opens it anew, for the same call. */
  mountAgain(key: string): boolean {
    const slot = this.slot(key);
    if (!slot) return false;
    this.tearDown(key);
    return this.request(slot);
  }

  /** Closes the view (`app-close`) and forgets the slot: its conversation was cleared. */
  discard(key: string): void {
    if (!this.slot(key)) return;
    this.tearDown(key);
    const field = isCallKey(key) ? 'calls' : 'slots';
    this.set({ ...this.state, [field]: Object.fromEntries(Object.entries(this.state[field]).filter(([k]) => k !== key)) });
  }

  /** `ui/resource-teardown`, then the view is gone (the proxy's next state says `closed`). */
  tearDown(key: string): void {
    const view = this.slot(key)?.state;
    if (!view || view.status === 'closed') return;
    this.host.send({ type: 'app-close', view: view.view });
  }

  setContext(key: string, patch: HostContextPatch): void {
    const slot = this.slot(key);
    if (!slot) return;
    this.patch(key, { context: { ...slot.context, ...patch }, problem: undefined });
    if (slot.state && slot.state.status !== 'closed') {
      this.host.send({ type: 'app-context', view: slot.state.view, context: patch });
    }
  }

  /** Sends `tool-input` and/or `tool-result` to the view again, with these values. */
  replay(key: string, input: Record<string, unknown> | undefined, result: unknown): boolean {
    const view = this.slot(key)?.state;
    if (!view) return false;
    this.patch(key, { problem: undefined });
    return this.host.send({ type: 'app-replay', view: view.view, ...(input !== undefined ? { input } : {}), ...(result !== undefined ? { result } : {}) });
  }

  /**
   * The user's answer to an ask that waits for one (the view's `ui/message`). False when it was not
   * sent: no open view, the socket is down, or this ask was answered from this tab already.
   */
  answer(key: string, ask: string, approve: boolean): boolean {
    const view = this.slot(key)?.state;
    const id = `${view?.view}\u0000${ask}`;
    if (!view || view.status === 'closed' || this.answered.has(id)) return false;
    if (!this.host.send({ type: 'app-answer', view: view.view, ask, approve })) return false;
    this.answered.add(id);
    if (this.answered.size > ANSWERED) this.answered.delete(this.answered.values().next().value!);
    return true;
  }

  /** A message the view's sandbox frame posted (checked by the frame: its window and origin), as text. */
  relay(view: string, text: string): void {
    this.host.send({ type: 'app-frame', view, text });
  }

  /**
   * The frame that shows `view` takes its messages from now on (those held first); the returned
   * function lets go.
   */
  attach(view: string, post: (text: string) => void): () => void {
    this.posters.set(view, post);
    const held = this.held.get(view) ?? [];
    this.held.delete(view);
    held.forEach(post);
    return () => {
      if (this.posters.get(view) === post) this.posters.delete(view);
    };
  }

  protected receive(message: ServerMessage): void {
    switch (message.type) {
      case 'response':
        return this.note(message.id, { rpcId: message.rpcId, frameSeq: message.ok ? message.frameSeq : undefined });
      case 'app-opened':
        return this.opened(message.requestId, message.state, message.error);
      case 'app-state':
        return this.changed(message.state);
      case 'app-frame':
        return this.post(message.view, message.text);
      case 'app-problem':
        return this.refused(message.view, message.message);
      case 'app-download':
        return this.downloaded(message.view, message.ask, message.files);
      case 'snapshot':
        return this.dropped();
      case 'session-removed':
        return this.forget(message.session);
      default:
        return;
    }
  }

  private request(slot: Omit<ViewSlot, 'pending' | 'state' | 'error' | 'problem'>): boolean {
    const key = keyOf(slot);
    const requestId = newRequestId();
    const noted = slot.fromResponse ? this.responses.get(slot.callId) : undefined;
    const sent = this.host.send({
      type: 'app-open',
      requestId,
      session: slot.session,
      tool: slot.tool,
      arguments: slot.input,
      // The result's frame where the page has it (the result does not cross the socket again).
      ...(noted?.frameSeq !== undefined ? { resultSeq: noted.frameSeq } : { result: slot.result }),
      ...(noted?.rpcId !== undefined ? { toolCallId: noted.rpcId } : {}),
      hostOrigin: this.hostOrigin(),
      ...(Object.keys(slot.context).length > 0 ? { context: slot.context } : {}),
    });
    const { session, tool, conversation, callId, input, result, fromResponse, context } = slot;
    const where = conversation === undefined ? {} : { conversation };
    this.setSlot(key, { session, tool, ...where, callId, input, result, fromResponse, context, ...(sent ? { pending: requestId } : { error: NOT_SENT }) });
    return sent;
  }

  private note(id: string, response: { rpcId?: RequestId; frameSeq?: number }): void {
    this.responses.set(id, response);
    if (this.responses.size > NOTED) this.responses.delete(this.responses.keys().next().value!);
  }

  private opened(requestId: string, state: AppViewState | undefined, error: LoupeError | undefined): void {
    const key = this.keys().find((k) => this.slot(k)?.pending === requestId);
    if (key === undefined) {
      // A view this tab no longer wants (a newer run overtook it): closed at once.
      if (state) this.host.send({ type: 'app-close', view: state.view });
      return;
    }
    this.patch(key, state ? { pending: undefined, state } : { pending: undefined, error: error?.message ?? NO_STATE });
  }

  private changed(state: AppViewState): void {
    const key = this.keyOfView(state.view);
    if (key !== undefined) this.patch(key, { state });
    if (state.status === 'closed') {
      this.held.delete(state.view);
      this.posters.delete(state.view);
    }
  }

  private post(view: string, text: string): void {
    const poster = this.posters.get(view);
    if (poster) return poster(text);
    if (this.keyOfView(view) === undefined) return;
    const held = this.held.get(view) ?? [];
    held.push(text);
    if (held.length > HELD) held.shift();
    this.held.set(view, held);
  }

  /** What the proxy refused, beside the view it was about (a view this tab no longer shows: nothing). */
  private refused(view: string, message: string): void {
    const key = this.keyOfView(view);
    if (key !== undefined) this.patch(key, { problem: message });
  }

  private downloaded(view: string, ask: string, files: readonly DownloadedFile[]): void {
    const key = this.keyOfView(view);
    const slot = key === undefined ? undefined : this.slot(key);
    if (key === undefined || !slot) return;
    // The newest few asks' files only: each may hold up to 20 MB, and a view may ask without end.
    const kept = Object.entries(slot.downloads ?? {}).slice(-(DOWNLOADS_KEPT - 1));
    this.patch(key, { downloads: Object.fromEntries([...kept, [ask, files]]) });
    if (files.length === 1) this.save(files[0]);
  }

  /** A new socket: the proxy closed this tab's views with the old one. */
  private dropped(): void {
    const drop = (slot: ViewSlot): ViewSlot => {
      if (slot.pending !== undefined) return { ...slot, pending: undefined, error: DROPPED };
      if (slot.state && slot.state.status !== 'closed') return { ...slot, state: { ...slot.state, status: 'closed' }, error: DROPPED };
      return slot;
    };
    this.posters.clear();
    this.held.clear();
    this.set({ slots: mapValues(this.state.slots, drop), calls: mapValues(this.state.calls, drop) });
  }

  private forget(session: string): void {
    const mine = (slots: Readonly<Record<string, ViewSlot>>) => Object.fromEntries(Object.entries(slots).filter(([, slot]) => slot.session !== session));
    const slots = mine(this.state.slots);
    const calls = mine(this.state.calls);
    if (Object.keys(slots).length + Object.keys(calls).length !== this.keys().length) this.set({ slots, calls });
  }

  private keyOfView(view: string): string | undefined {
    return this.keys().find((k) => this.slot(k)?.state?.view === view);
  }

  private keys(): string[] {
    return [...Object.keys(this.state.slots), ...Object.keys(this.state.calls)];
  }

  private slot(key: string): ViewSlot | undefined {
    return isCallKey(key) ? this.state.calls[key] : this.state.slots[key];
  }

  private patch(key: string, patch: Partial<ViewSlot>): void {
    const slot = this.slot(key);
    if (slot) this.setSlot(key, { ...slot, ...patch });
  }

  private setSlot(key: string, slot: ViewSlot): void {
    const field = isCallKey(key) ? 'calls' : 'slots';
    this.set({ ...this.state, [field]: { ...this.state[field], [key]: slot } });
  }
}

function mapValues(slots: Readonly<Record<string, ViewSlot>>, change: (slot: ViewSlot) => ViewSlot): Record<string, ViewSlot> {
  return Object.fromEntries(Object.entries(slots).map(([key, slot]) => [key, change(slot)]));
}
