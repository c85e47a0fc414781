/**
 * The one base of the page's stores. React reads a store through useSyncExternalStore
 * (use-store.ts), which needs a `subscribe` and a `getSnapshot` it can pass around unbound, and a
 * snapshot whose reference changes exactly when a render is due. Every store used to write that
 * out for itself, with its listener set, its notify loop and its `dispose`; this is that code once.
 *
 * - `set` replaces the snapshot and notifies, even when `next` is the snapshot already (a store
 *   that must not notify then checks first); `notify` alone tells the listeners without a new
 *   snapshot, for a store whose snapshot is mutated in place or read through methods.
 * - Listeners are called in the order they subscribed; one that unsubscribes (itself or another
 *   not yet called) during a notification is not called after that, one added is called too.
 * - `dispose` calls what the store gave `onDispose` (its listeners on a port or a host), in order.
 *   It leaves the store's own listeners alone: React drops them as the components unmount.
 */
export abstract class ExternalStore<S> {
  private readonly listeners = new Set<() => void>();
  private readonly teardown: Array<() => void> = [];

  constructor(protected state: S) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): S => this.state;

  dispose(): void {
    this.teardown.forEach((off) => off());
  }

  protected set(next: S): void {
    this.state = next;
    this.notify();
  }

  protected notify(): void {
    this.listeners.forEach((listener) => listener());
  }

  /** Unsubscribe functions (from a port, a host …) that `dispose` calls. */
  protected onDispose(...offs: Array<() => void>): void {
    this.teardown.push(...offs);
  }
}
