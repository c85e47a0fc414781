import { describe, expect, it } from 'vitest';
import { ExternalStore } from './external-store.ts';

/** The base with its protected side opened for the test. */
class Counter extends ExternalStore<{ n: number }> {
  constructor() {
    super({ n: 0 });
  }

  bump(): void {
    this.set({ n: this.state.n + 1 });
  }

  replaceWith(next: { n: number }): void {
    this.set(next);
  }

  touch(): void {
    this.notify();
  }

  follow(...offs: Array<() => void>): void {
    this.onDispose(...offs);
  }
}

describe('ExternalStore', () => {
  it('gives the state as the snapshot, a new one after set, the same one otherwise', () => {
    const store = new Counter();
    const first = store.getSnapshot();
    expect(first).toEqual({ n: 0 });
    expect(store.getSnapshot()).toBe(first);
    store.bump();
    expect(store.getSnapshot()).toEqual({ n: 1 });
    expect(store.getSnapshot()).not.toBe(first);
    const second = store.getSnapshot();
    store.touch();
    expect(store.getSnapshot()).toBe(second);
  });

  it('notifies every listener on set and on notify, in the order they subscribed', () => {
    const store = new Counter();
    const calls: string[] = [];
    store.subscribe(() => calls.push(`a${store.getSnapshot().n}`));
    store.subscribe(() => calls.push(`b${store.getSnapshot().n}`));
    store.bump();
    store.touch();
    // set notifies even when handed the snapshot it already holds (a store that must not checks first).
    store.replaceWith(store.getSnapshot());
    expect(calls).toEqual(['a1', 'b1', 'a1', 'b1', 'a1', 'b1']);
  });

  it('stops calling a listener once unsubscribed, also when that happens during a notification', () => {
    const store = new Counter();
    const calls: string[] = [];
    const offA = store.subscribe(() => calls.push('a'));
    let offC = (): void => undefined;
    store.subscribe(() => {
      calls.push('b');
      offC();
    });
    offC = store.subscribe(() => calls.push('c'));
    store.bump();
    expect(calls).toEqual(['a', 'b']);
    offA();
    store.bump();
    expect(calls).toEqual(['a', 'b', 'b']);
  });

  it('keeps subscribe and getSnapshot working when passed unbound (as useSyncExternalStore does)', () => {
    const store = new Counter();
    const { subscribe, getSnapshot } = store;
    let seen = -1;
    const off = subscribe(() => (seen = getSnapshot().n));
    store.bump();
    expect(seen).toBe(1);
    off();
    store.bump();
    expect(seen).toBe(1);
  });

  it('calls what it was given to drop on dispose, in order, and leaves its own listeners', () => {
    const store = new Counter();
    const dropped: string[] = [];
    store.follow(() => dropped.push('port'), () => dropped.push('events'));
    store.follow(() => dropped.push('host'));
    let heard = 0;
    store.subscribe(() => heard++);
    store.dispose();
    expect(dropped).toEqual(['port', 'events', 'host']);
    store.bump();
    expect(heard).toBe(1);
  });

  it('gives each store its own listeners', () => {
    const one = new Counter();
    const two = new Counter();
    let heard = 0;
    one.subscribe(() => heard++);
    two.bump();
    expect(heard).toBe(0);
  });
});
