/**
 * The browser end of the wire protocol: one WebSocket to the proxy, reconnected with backoff.
 * It validates every incoming envelope (lib/wire/wire.ts) and hands on values; it keeps no state
 * beyond the socket itself.
 */
import { stringifySafe } from '../../lib/json/safe-json.ts';
import { messagesOf, parseServerMessage, type ClientMessage, type ServerMessage } from '../../lib/wire/wire.ts';
import type { SocketState } from '../_session/loupe-state.ts';

/** Delays before reconnect attempts 1, 2, 3 …; the last one repeats. */
const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

export interface WireClientOptions {
  url: string;
  onMessage(message: ServerMessage): void;
  onInvalid(text: string, error: string): void;
  onSocket(state: Omit<SocketState, 'everOpened'>): void;
  /** The socket closed (requests in flight will never be answered on it). */
  onClose(): void;
  /** For tests. */
  createSocket?: (url: string) => WebSocket;
}

export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1] ?? BACKOFF_MS[0];
  return Math.round(base * (0.8 + 0.4 * random()));
}

export class WireClient {
  private socket?: WebSocket;
  private timer?: ReturnType<typeof setTimeout>;
  private attempt = 0;
  private running = false;

  constructor(private readonly options: WireClientOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000, 'page closed');
  }

  /**
   * Send an envelope; false when the socket is not open or the envelope has no JSON form (the
   * caller reports it). stringifySafe: tool arguments may be nested deeper than JSON.stringify's stack.
   */
  send(message: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    let text: string | undefined;
    try {
      text = stringifySafe(message);
    } catch {
      return false;
    }
    if (text === undefined) return false;
    this.socket.send(text);
    return true;
  }

  /** Try again now instead of waiting for the backoff timer. */
  retryNow(): void {
    if (!this.running || this.socket) return;
    clearTimeout(this.timer);
    this.open();
  }

  /** Long frame texts that came as binary messages, for the `events` message that follows them. */
  private apart: string[] = [];
  private decoder?: TextDecoder;

  private open(): void {
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url));
    const socket = create(this.options.url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    this.apart = [];
    this.options.onSocket({ phase: 'connecting', attempt: this.attempt });
    socket.onopen = () => {
      this.attempt = 0;
      this.options.onSocket({ phase: 'open', attempt: 0 });
    };
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = () => this.closed(socket);
  }

  private receive(data: unknown): void {
    if (data instanceof ArrayBuffer) {
      // A long frame's text, apart from its envelope (proxy/faces/web/subscriptions.ts): decoded
      // natively, never escaped into JSON nor parsed out of it.
      this.apart.push((this.decoder ??= new TextDecoder()).decode(data));
      return;
    }
    const text = typeof data === 'string' ? data : '';
    const parsed = parseServerMessage(text, this.apart);
    // An `events` message may carry the `response` it completes: the events first, then the response.
    if (parsed.ok) for (const message of messagesOf(parsed.message)) this.options.onMessage(message);
    else this.options.onInvalid(typeof data === 'string' ? text : '(binary message)', parsed.error);
  }

  private closed(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.options.onClose();
    if (!this.running) return;
    this.attempt += 1;
    const delay = backoffDelay(this.attempt);
    this.options.onSocket({ phase: 'waiting', attempt: this.attempt, retryAt: Date.now() + delay });
    this.timer = setTimeout(() => this.open(), delay);
  }
}

const TOKEN_KEY = 'mcp-loupe.token';

/** The token from the page URL, remembered for reloads without it (sessionStorage is per tab). */
export function readToken(location: Location, storage: Storage | undefined): string | undefined {
  const fromUrl = new URLSearchParams(location.search).get('token') ?? undefined;
  try {
    if (fromUrl) storage?.setItem(TOKEN_KEY, fromUrl);
    return fromUrl || (storage?.getItem(TOKEN_KEY) ?? undefined);
  } catch {
    return fromUrl || undefined;
  }
}

/** `frames=seq`: the page joins a response to its trace frame (FrameJoin, frame-join.ts), so a result crosses once. */
export function socketUrl(location: Location, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}&frames=seq`;
}
