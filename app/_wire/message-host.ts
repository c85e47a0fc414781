/** What a tab-level store (OAuth, the doctor) needs of the tab store (loupe-store.ts): the proxy's messages, and a way to send one. */
import type { ClientMessage, ServerMessage } from '../../lib/wire/wire.ts';

export interface MessageHost {
  onMessage(listener: (message: ServerMessage) => void): () => void;
  /** False when the socket is down and nothing was sent. */
  send(message: ClientMessage): boolean;
}
