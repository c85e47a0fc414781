/** For tests of the tab-level stores: a MessageHost whose socket can be down, that keeps what was sent and delivers what the test says. */
import type { ClientMessage, ServerMessage } from '../../lib/wire/wire.ts';
import type { MessageHost } from './message-host.ts';

export class MessageHostFixture implements MessageHost {
  open = true;
  readonly sent: ClientMessage[] = [];
  private listener?: (message: ServerMessage) => void;

  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.listener = listener;
    return () => (this.listener = undefined);
  }

  send(message: ClientMessage): boolean {
    if (this.open) this.sent.push(message);
    return this.open;
  }

  deliver(message: ServerMessage): void {
    this.listener?.(message);
  }
}
