/**
 * The server messages of one gateway client session that belong to no request in flight (a
 * `roots/list` the server asks right after `notifications/initialized`, a log line between calls):
 * they go on the client's GET stream. The SDK's server transport drops them while that stream is
 * not open (it keeps them only with an event store, for a resume), and a client opens it a moment
 * after initializing — so they are held here until it is open, and bounded.
 */
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A client that never opens its GET stream must not make the gateway grow. */
const MAX_HELD = 1000;
/** How long a GET may take to get its headers out before it is not watched any more. */
const OPEN_WAIT_MS = 5000;
const CHECK_MS = 2;

export class StandaloneStream {
  private open = false;
  private readonly held: JSONRPCMessage[] = [];
  private droppedCount = 0;

  constructor(
    private readonly send: (message: JSONRPCMessage) => Promise<void>,
    private readonly onDropped: (count: number) => void,
  ) {}

  deliver(message: JSONRPCMessage): void {
    if (this.open) return void this.send(message).catch(() => this.hold(message));
    this.hold(message);
  }

  private hold(message: JSONRPCMessage): void {
    if (this.held.length < MAX_HELD) return void this.held.push(message);
    // Told once, when the first one goes: the trace says why the client never saw them.
    if (this.droppedCount++ === 0) this.onDropped(MAX_HELD);
  }

  /**
   * A GET is being handled: once its headers are out with a 200 the SDK has the stream, and what
   * was held can go. (The SDK transport does not say when its stream opens; the response does.)
   */
  watch(res: ServerResponse): void {
    res.once('close', () => (this.open = false));
    const deadline = Date.now() + OPEN_WAIT_MS;
    const check = () => {
      if (res.destroyed || Date.now() > deadline) return;
      if (!res.headersSent) return void setTimeout(check, CHECK_MS).unref();
      if (res.statusCode !== 200) return;
      this.open = true;
      for (const message of this.held.splice(0)) this.deliver(message);
    };
    check();
  }
}
