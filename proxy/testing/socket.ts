/**
 * A stand-in for a tab's `ws` WebSocket in the hub's tests: an open socket that checks and keeps
 * every message the hub sends it (parsed, and as text), and can play messages from the page.
 */
import type { WebSocket } from 'ws';
import { messagesOf, parseServerMessage, type ServerMessage } from '../../lib/wire/wire.ts';

export class FakeSocket {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: ServerMessage[] = [];
  readonly texts: string[] = [];
  /** The text each of `sent` came in (an `events` message carries its `response`: both came in one). */
  readonly carriedIn: string[] = [];
  /** Frame texts sent apart, as binary messages (subscriptions.ts, RAW_APART_CHARS), decoded. */
  readonly apart: string[] = [];
  /** Those not yet put back into the `events` message that names them. */
  private waitingApart: string[] = [];
  private readonly handlers = new Map<string, Array<(...args: unknown[]) => void>>();

  send(data: string | Buffer): void {
    if (typeof data !== 'string') {
      const text = data.toString('utf8');
      this.apart.push(text);
      this.waitingApart.push(text);
      return;
    }
    const text = data;
    const parsed = parseServerMessage(text, this.waitingApart);
    if (!parsed.ok) throw new Error(parsed.error);
    this.texts.push(text);
    // An `events` message that carries its `response` counts as the two it stands for.
    for (const message of messagesOf(parsed.message)) {
      this.sent.push(message);
      this.carriedIn.push(text);
    }
  }

  on(event: string, handler: (...args: unknown[]) => void): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }

  once(event: string, handler: (...args: unknown[]) => void): this {
    const once = (...args: unknown[]) => {
      this.handlers.set(event, (this.handlers.get(event) ?? []).filter((h) => h !== once));
      handler(...args);
    };
    return this.on(event, once);
  }

  private emit(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }

  /** A message from the page: a text as it is (to test what is not JSON), anything else as JSON. */
  receive(message: unknown): void {
    this.emit('message', Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)), false);
  }

  /** The tab goes away (its `close` handlers run). */
  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.emit('close');
  }

  of<T extends ServerMessage['type']>(type: T): Extract<ServerMessage, { type: T }>[] {
    return this.sent.filter((m): m is Extract<ServerMessage, { type: T }> => m.type === type);
  }

  /** The first message of `type` (for `requestId`, when given), waited for. */
  async next<T extends ServerMessage['type']>(type: T, requestId?: string, timeoutMs = 10_000): Promise<Extract<ServerMessage, { type: T }>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.sent.find((m) => m.type === type && (requestId === undefined || (m as { requestId?: string }).requestId === requestId));
      if (found) return found as Extract<ServerMessage, { type: T }>;
      if (Date.now() > until) throw new Error(`no ${type} message for ${requestId}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

export const asWs = (socket: FakeSocket): WebSocket => socket as unknown as WebSocket;
