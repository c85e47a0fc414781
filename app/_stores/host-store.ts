/**
 * A tab-level store that follows the proxy's messages (message-host.ts): the external store
 * (external-store.ts) with its listener on the host, dropped by `dispose`. The Intercept,
 * Playground, sampling-by-model, OAuth, Doctor and server-request stores share it.
 */
import type { ServerMessage } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { ExternalStore } from './external-store.ts';

export abstract class HostStore<S> extends ExternalStore<S> {
  constructor(host: Pick<MessageHost, 'onMessage'>, state: S) {
    super(state);
    this.onDispose(host.onMessage((message) => this.receive(message)));
  }

  protected abstract receive(message: ServerMessage): void;
}
