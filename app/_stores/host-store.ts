/**
 * A tab-level store that follows the proxy's messages (message-host.ts): its state, the
 * `subscribe` / `getSnapshot` pair React's useSyncExternalStore reads, and the listener on the
 * host, dropped by `dispose`. The Intercept, Playground and sampling-by-model stores share it.
 */
import type { ServerMessage } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';

export abstract class HostStore<S> {
  private readonly listeners = new Set<() => void>();
  private readonly off: () => void;

  constructor(
    host: Pick<MessageHost, 'onMessage'>,
    protected state: S,
  ) {
    this.off = host.onMessage((message) => this.receive(message));
  }

  protected abstract receive(message: ServerMessage): void;

  dispose(): void {
    this.off();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): S => this.state;

  protected set(next: S): void {
    this.state = next;
    this.listeners.forEach((listener) => listener());
  }
}
