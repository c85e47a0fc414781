/**
 * The tap's side of showing a tapped session in a running Loupe (issue 13): a WebSocket to
 * `/tap?token=…` of the Loupe given with `--attach`, or of the one the runtime state file names
 * (runtime-state.ts). The protocol is lib/wire/tap.ts. The token never comes from the command line
 * (issue 21): for `--attach` it is MCP_LOUPE_TOKEN's, or the state file's when that file names the
 * same Loupe.
 *
 * The host's session never waits on Loupe: events are queued and sent in batches (those from
 * before the attach kept up to MAX_QUEUED, the rest counted, so that initialize shows), a Loupe
 * that reads too slowly loses events rather than holding the relay, and when Loupe goes away its
 * rules stop applying and the frames it held go on as they were, with a note in the trace.
 */
import WebSocket from 'ws';
import type { Rule } from '../../../lib/model/rules.ts';
import type { TraceEvent } from '../../../lib/wire/wire.ts';
import { LoupeToTapSchema, parseTapMessage, TAP_PROTOCOL, type LoupeToTap, type TapHello } from '../../../lib/wire/tap.ts';
import type { HoldOutcome, HoldRequest } from '../../pipeline/hold-broker.ts';
import { TOKEN_ENV } from '../../command-line/relay.ts';
import { readRuntimeState } from '../../system/runtime-state.ts';
import { isLoopbackAddress } from '../../listen/security.ts';
import type { TraceRecorder } from '../../pipeline/trace-recorder.ts';

/** Events kept for a Loupe that is not attached yet; the rest are counted. */
export const MAX_QUEUED = 5_000;
/** A Loupe this far behind loses events instead of growing the tap's memory. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Until a first attach: how often to look again (a Loupe started after the host). */
const RETRY_MS = 5_000;
const HANDSHAKE_MS = 3_000;
/** Events of a few milliseconds go in one message. */
const BATCH_MS = 5;
const CLOSE_WAIT_MS = 1_000;

export interface AttachInit {
  /** `--attach`: the Loupe's origin (`http://127.0.0.1:PORT`), without a token; absent: the state file's Loupe. */
  url?: string;
  /** The token for `url`, from the environment (MCP_LOUPE_TOKEN); absent: the state file's, if it names that Loupe. */
  token?: string;
  hello: Omit<TapHello, 'type' | 'protocol'>;
  trace: TraceRecorder;
  /** The attached Loupe's rules and the session's name there; `[]` once it is gone. */
  onRules(rules: readonly Rule[], server?: string): void;
  say(line: string): void;
  /** Where to look for the state file (tests). */
  stateDir?: string;
}

/**
 * `http://127.0.0.1:PORT` (or `ws://…`) and its token → `ws://127.0.0.1:PORT/tap?token=…`; the token
 * may also be in the address (the state file's URL). Undefined when not loopback or without a token.
 */
export function tapUrl(address: string, token?: string): { ws: string; origin: string } | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  const key = token ?? url.searchParams.get('token');
  if (!key || !isLoopbackAddress(url.hostname) || (url.protocol !== 'http:' && url.protocol !== 'ws:')) return undefined;
  return { ws: `ws://${url.host}/tap?token=${encodeURIComponent(key)}`, origin: `http://${url.host}` };
}

/** Whether two addresses are the same Loupe: both on this machine's loopback, on the same port. */
function sameLoupe(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    return isLoopbackAddress(x.hostname) && isLoopbackAddress(y.hostname) && x.port === y.port;
  } catch {
    return false;
  }
}

export class TapAttachment {
  private ws?: WebSocket;
  private attached = false;
  private everAttached = false;
  private closing = false;
  /** The page said to stop watching: no more attaching. */
  private detached = false;
  private queue: TraceEvent[] = [];
  private dropped = 0;
  private batch?: ReturnType<typeof setTimeout>;
  private retry?: ReturnType<typeof setTimeout>;
  private readonly holds = new Map<string, { resolve(outcome: HoldOutcome): void; since: number }>();
  private nextHold = 1;
  private unsubscribe?: () => void;
  private closed?: Promise<void>;
  private complained = false;

  constructor(private readonly init: AttachInit) {
    // What the tap recorded while this module loaded comes first (the trace keeps the recent events).
    for (const event of init.trace.all()) this.push(event);
    this.unsubscribe = init.trace.subscribe((event) => this.push(event));
    this.connect();
  }

  /** Asking the attached Loupe about a held frame; undefined while none is attached. */
  get hold(): ((request: HoldRequest) => Promise<HoldOutcome>) | undefined {
    return this.attached ? this.askHold : undefined;
  }

  private readonly askHold = (request: HoldRequest): Promise<HoldOutcome> =>
    new Promise((resolve) => {
      const id = `t${this.nextHold++}`;
      this.holds.set(id, { resolve, since: Date.now() });
      const { dir, raw, rule, method, isRequest } = request;
      this.send({ type: 'hold', id, dir, raw, rule, ...(method !== undefined ? { method } : {}), isRequest });
    });

  /** Sends what is queued and closes the connection (the tap is ending). */
  close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.retry);
    this.flush();
    this.unsubscribe?.();
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    this.closed ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => (ws.terminate(), resolve()), CLOSE_WAIT_MS);
      ws.once('close', () => (clearTimeout(timer), resolve()));
      ws.close(1000, 'The server exited');
    });
    return this.closed;
  }

  private connect(): void {
    if (this.closing || this.detached) return;
    const target = this.locate();
    if (!target) return this.scheduleRetry();
    const ws = new WebSocket(target.ws, { handshakeTimeout: HANDSHAKE_MS, perMessageDeflate: false });
    this.ws = ws;
    ws.on('open', () => this.send({ type: 'hello', protocol: TAP_PROTOCOL, ...this.init.hello }));
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(String(data), target.origin);
    });
    ws.on('error', () => undefined); // the close that follows says it
    ws.on('close', () => this.lost(target.origin));
  }

  /** The Loupe to attach to and its token, or undefined (said once) when there is none yet. */
  private locate(): { ws: string; origin: string } | undefined {
    const { url, token, stateDir } = this.init;
    const state = readRuntimeState(stateDir);
    if (url === undefined) {
      const found = state ? tapUrl(state.url) : undefined;
      if (!found) this.complainOnce('no running Loupe found (start mcp-loupe, or give --attach URL); relaying and recording without one.');
      return found;
    }
    const found = tapUrl(url, token ?? (state && sameLoupe(state.url, url) ? (new URL(state.url).searchParams.get('token') ?? undefined) : undefined));
    if (!found) {
      this.complainOnce(
        `--attach ${url}: no token for that Loupe (its state file names another Loupe, or none): set ${TOKEN_ENV} to the token it printed; relaying and recording without it.`,
      );
    }
    return found;
  }

  private complainOnce(line: string): void {
    if (this.complained) return;
    this.complained = true;
    this.init.say(line);
  }

  private scheduleRetry(): void {
    if (this.everAttached || this.closing || this.detached) return;
    this.retry = setTimeout(() => this.connect(), RETRY_MS);
    this.retry.unref();
  }

  private receive(text: string, origin: string): void {
    const parsed = parseTapMessage<LoupeToTap>(LoupeToTapSchema, text);
    if (!parsed.ok) {
      this.init.trace.record({ kind: 'transport', level: 'warn', message: `Loupe sent a message the tap does not understand (${parsed.error}); it was ignored.` });
      return;
    }
    const message = parsed.value;
    switch (message.type) {
      case 'welcome':
        if (message.protocol !== TAP_PROTOCOL) {
          this.init.say(`the Loupe at ${origin} speaks tap protocol ${message.protocol}, this tap ${TAP_PROTOCOL}: use the same mcp-loupe version for both.`);
          this.detached = true;
          this.ws?.close(1000);
          return;
        }
        this.attached = true;
        this.everAttached = true;
        this.init.say(`showing this session in Loupe at ${origin}`);
        this.flush();
        return;
      case 'rules':
        this.init.onRules(message.rules, message.server);
        return;
      case 'hold-outcome': {
        const hold = this.holds.get(message.id);
        if (!hold) return;
        this.holds.delete(message.id);
        // Loupe's session ended first (it is closing): the host's session did not, so the frame goes on.
        if (message.how === 'gone') return this.goOn(hold);
        hold.resolve({ decision: message.decision, how: message.how, heldMs: message.heldMs });
        return;
      }
      case 'detach':
        this.detached = true;
        this.init.trace.record({ kind: 'transport', level: 'info', message: message.message });
        this.ws?.close(1000);
        return;
    }
  }

  /** The connection ended: holds go on as they were, the rules of that Loupe stop, the session goes on. */
  private lost(origin: string): void {
    const was = this.attached;
    this.attached = false;
    this.ws = undefined;
    clearTimeout(this.batch);
    this.batch = undefined;
    for (const [id, hold] of this.holds) {
      this.holds.delete(id);
      this.goOn(hold);
    }
    if (was) this.init.onRules([], undefined);
    if (this.closing) return;
    if (was || this.detached) {
      // Attached once: this session is not shown again (a later Loupe would get a session without its start).
      this.unsubscribe?.();
      this.unsubscribe = undefined;
      this.queue = [];
      if (!this.detached) this.init.trace.record({ kind: 'transport', level: 'warn', message: `Loupe at ${origin} went away: the host's session goes on without it.` });
      return;
    }
    this.complainOnce(`could not attach to Loupe at ${origin}; relaying and recording without it (trying again every ${RETRY_MS / 1000} s).`);
    this.scheduleRetry();
  }

  /** A held frame whose Loupe went away goes on as it was ('gone' would drop it: that is for a session that ended). */
  private goOn(hold: { resolve(outcome: HoldOutcome): void; since: number }): void {
    this.init.trace.record({ kind: 'transport', level: 'warn', message: 'Loupe went away while it held a frame: the frame went on as it was.' });
    hold.resolve({ decision: { action: 'forward' }, how: 'forwarded', heldMs: Date.now() - hold.since });
  }

  private push(event: TraceEvent): void {
    if (!this.attached) {
      if (this.queue.length < MAX_QUEUED) this.queue.push(event);
      else this.dropped++;
      return;
    }
    this.queue.push(event);
    if (this.batch) return;
    this.batch = setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    clearTimeout(this.batch);
    this.batch = undefined;
    const ws = this.ws;
    if (!this.attached || !ws || ws.readyState !== WebSocket.OPEN || (this.queue.length === 0 && this.dropped === 0)) return;
    const events = this.queue;
    this.queue = [];
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.dropped += events.length;
      return;
    }
    const dropped = this.dropped;
    this.dropped = 0;
    this.send({ type: 'events', events, ...(dropped > 0 ? { dropped } : {}) });
  }

  private send(message: object): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    try {
      ws.send(JSON.stringify(message));
    } catch {
      // A connection closing under us: its close event releases what waits on it.
    }
  }
}

export function attachTap(init: AttachInit): TapAttachment {
  return new TapAttachment(init);
}
