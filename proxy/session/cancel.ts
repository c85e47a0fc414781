/**
 * A page request's cancellation: the page's Cancel, its timer (request-timer.ts), a disconnect or
 * a restart aborts it; the router that sent the request listens. Not an AbortController: making one
 * (an EventTarget with its signal) and listening on it cost ~10 µs of the proxy's time on every
 * call of bench/echo-latency.mjs (issue 23). A standard AbortSignal is made only where one is asked
 * for (`signal`: the 2026-07-28 router hands it to the questions it puts to the user).
 */
export class Cancel {
  aborted = false;
  reason: unknown;
  private listeners: ((reason: unknown) => void)[] = [];
  private controller?: AbortController;

  /** Aborts once: each listener is called with the reason, in the order they were added. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener(reason);
    this.controller?.abort(reason);
  }

  /** Calls `listener` once on abort (at once when aborted already); returns what removes it. */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) {
      listener(this.reason);
      return () => undefined;
    }
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at !== -1) this.listeners.splice(at, 1);
    };
  }

  /** The same cancellation as a standard AbortSignal, made on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
}
