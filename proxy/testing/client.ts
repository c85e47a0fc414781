/**
 * A WebSocket client of the wire protocol for integration tests and benchmarks: it speaks to a
 * running Loupe exactly as the page does.
 */
import WebSocket from 'ws';
import { messagesOf, parseServerMessage, type ResponseMessage, type ServerMessage, type SessionInfo, type TraceEvent } from '../../lib/wire/wire.ts';

export class WireTestClient {
  readonly messages: ServerMessage[] = [];
  /** Every frame as it came (tests look for secrets in the exact text). */
  readonly texts: string[] = [];
  readonly events: TraceEvent[] = [];
  readonly sessions = new Map<string, SessionInfo>();
  private waiters: Array<() => void> = [];
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.texts.push(data.toString());
      const parsed = parseServerMessage(data.toString());
      if (!parsed.ok) throw new Error(`invalid server message: ${parsed.error}`);
      for (const message of messagesOf(parsed.message)) this.take(message);
    });
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<WireTestClient> {
    const ws = new WebSocket(url, { headers });
    const client = new WireTestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return client;
  }

  private take(message: ServerMessage): void {
    this.messages.push(message);
    if (message.type === 'snapshot') {
      for (const s of message.sessions) this.sessions.set(s.id, s);
      this.events.push(...message.events);
    } else if (message.type === 'session') this.sessions.set(message.session.id, message.session);
    else if (message.type === 'events') this.events.push(...message.events);
    else if (message.type === 'session-removed') this.sessions.delete(message.session);
    else if (message.type === 'trace-reset') {
      // Replaces what this tab held of that session (issue 9).
      const others = this.events.filter((e) => e.session !== message.session);
      this.events.length = 0;
      this.events.push(...others, ...message.events);
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when `check` holds, re-checked after every message. */
  async until<T>(check: () => T | undefined | false, timeoutMs = 60_000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, Math.min(500, deadline - Date.now())));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  status(session: string): SessionInfo | undefined {
    return this.sessions.get(session);
  }

  async waitForStatus(session: string, statuses: SessionInfo['status'][], timeoutMs?: number): Promise<SessionInfo> {
    return this.until(() => {
      const s = this.sessions.get(session);
      return s && statuses.includes(s.status) ? s : undefined;
    }, timeoutMs, `session ${session} to be ${statuses.join('/')}`);
  }

  send(message: object): void {
    this.ws.send(JSON.stringify(message));
  }

  async request(session: string, method: string, params?: Record<string, unknown>): Promise<ResponseMessage> {
    const id = `t${this.nextId++}`;
    this.send({ type: 'request', session, id, method, params });
    return this.until(() => this.messages.find((m): m is ResponseMessage => m.type === 'response' && m.id === id), 30_000, `response ${id}`);
  }

  close(): void {
    this.ws.close();
  }
}
