/**
 * A lean client of the UI⇄proxy wire protocol (lib/wire/wire.ts) for the benchmarks: it does what a
 * page does on the wire (reads the snapshot, follows session status, receives every batched trace
 * event, sends `request` envelopes and waits for the matching `response`) but keeps no history and
 * does no schema validation, so that its own cost stays out of the figures.
 * (proxy/testing/client.ts is the richer one for tests: it keeps every message and validates
 * each with zod, which is the right thing there and noise here.)
 */
import WebSocket from 'ws';
import { putBackApart } from '../../dist/lib/wire/envelope-text.js';

export class BenchWireClient {
  /** @type {Map<string, any>} */
  sessions = new Map();
  primary = undefined;
  snapshot = undefined;
  eventCount = 0;
  eventMessages = 0;
  /** `surface-point` messages (issue 25) with when each arrived (performance.now()). */
  surfacePoints = [];
  /** @type {Map<string, (message: any) => void>} */
  #pending = new Map();
  /** @type {Array<() => void>} */
  #watchers = [];
  #nextId = 1;

  /** Response frames by `session:seq`, and long frame texts sent apart, for a client that joins frames as the page does. */
  #frames = new Map();
  #apart = [];

  constructor(ws) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.#apart.push(data.toString('utf8'));
      else {
        const message = JSON.parse(data.toString());
        // The page's own step (lib/wire/envelope-text.ts): each `rawApart` event takes the next text that came apart.
        if (this.#apart.length > 0) putBackApart(message, this.#apart);
        this.#take(message);
        // As the page reads it (lib/wire/wire.ts messagesOf): an `events` message may carry the response it completes.
        if (message.type === 'events' && message.response) this.#take(message.response);
      }
    });
  }

  /**
   * `joinFrames`: ask for what the page asks for (`frames=seq`): a response names its trace frame
   * (`frameSeq`), sent just before, and a long frame's text comes as a binary message of its own.
   */
  static open(url, { joinFrames = false } = {}) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(joinFrames ? `${url}&frames=seq` : url, { perMessageDeflate: false });
      const client = new BenchWireClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
  }

  #take(message) {
    switch (message.type) {
      case 'snapshot':
        this.snapshot = message;
        this.primary = message.primary;
        for (const s of message.sessions) this.sessions.set(s.id, s);
        this.eventCount += message.events.length;
        break;
      case 'session':
        this.sessions.set(message.session.id, message.session);
        break;
      case 'surface-point':
        this.surfacePoints.push({ at: performance.now(), session: message.session, point: message.point });
        break;
      case 'events':
        this.eventCount += message.events.length;
        this.eventMessages++;
        for (const event of message.events) {
          if (event.kind !== 'frame' || event.dir !== 'in' || event.rpc !== 'response') continue;
          this.#frames.set(`${event.session}:${event.seq}`, event);
          if (this.#frames.size > 1024) this.#frames.delete(this.#frames.keys().next().value);
        }
        break;
      case 'response': {
        // The proxy may splice the server's response frame in as text (`frame`), as the page reads it.
        if (message.frame) {
          if ('result' in message.frame) message.result = message.frame.result;
          else message.error = message.frame.error;
        }
        if (message.frameSeq !== undefined) {
          const key = `${message.session}:${message.frameSeq}`;
          const frame = this.#frames.get(key);
          this.#frames.delete(key);
          // A missing frame fails the call (inside the benchmark's cleanup), not the socket's handler,
          // which would end the process and leave its Loupe and floor running.
          if (frame) message.result = JSON.parse(frame.raw).result;
          else Object.assign(message, { ok: false, error: { code: 'BAD_MESSAGE', message: `frame ${message.frameSeq} never came` } });
        }
        const resolve = this.#pending.get(message.id);
        if (resolve) {
          this.#pending.delete(message.id);
          resolve(message);
        }
        return;
      }
      default:
        break;
    }
    const watchers = this.#watchers;
    this.#watchers = [];
    for (const wake of watchers) wake();
  }

  /** Resolves with `check()` once it is truthy, re-checked after every non-response message. */
  async until(check, timeoutMs = 20_000, what = 'condition') {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.#watchers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the snapshot, then for the primary session to be `connected`; returns its id. */
  async primaryConnected(timeoutMs = 20_000) {
    await this.until(() => this.snapshot, timeoutMs, 'snapshot');
    const id = await this.until(() => this.primary ?? this.sessions.keys().next().value, timeoutMs, 'a session');
    await this.until(() => {
      const status = this.sessions.get(id)?.status;
      if (status === 'failed') throw new Error(`session ${id} failed: ${JSON.stringify(this.sessions.get(id)?.error)}`);
      return status === 'connected';
    }, timeoutMs, `session ${id} connected`);
    return id;
  }

  /** One `request` envelope → its `response` envelope. */
  request(session, method, params) {
    const id = `b${this.#nextId++}`;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.ws.send(JSON.stringify({ type: 'request', session, id, method, params }));
    });
  }

  close() {
    this.ws.close();
  }
}
