import { ExternalStore } from './external-store.ts';

/** One value with subscribe/getSnapshot: per-session view state (the selected tool …) that outlives a switch of server. */
export class ValueStore<T> extends ExternalStore<T> {
  override set(value: T): void {
    if (Object.is(value, this.state)) return;
    super.set(value);
  }
}
