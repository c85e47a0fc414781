/**
 * The page's requests in flight on one session: each with its cancellation (cancel.ts) and its timer
 * (request-timer.ts). The page's Cancel aborts one; a disconnect or a restart aborts them all, with
 * the reason the page then shows (issue 25: "The server was restarted (server.mjs changed)…").
 */
import { Cancel } from './cancel.ts';
import { RequestTimer, type TimerOptions } from './request-timer.ts';

export type Progressed = (progress: { progress: number; total?: number; message?: string }) => void;

export class InFlight {
  private readonly cancels = new Map<string, Cancel>();

  /** Runs `send` under a cancellation and timer of its own; progress restarts the timer (when asked) and reaches `onProgress`. */
  async run<T>(uiId: string, options: TimerOptions & { onProgress?: Progressed }, send: (cancel: Cancel, onProgress?: Progressed) => Promise<T>): Promise<T> {
    const cancel = new Cancel();
    this.cancels.set(uiId, cancel);
    const onProgress = options.onProgress;
    // The timer is made first (progress restarts it) and armed after the send: the write to the
    // server happens within `send`'s first turn, and arming is no part of the way there.
    const timer = new RequestTimer(cancel, options);
    let sending: Promise<T>;
    try {
      sending = send(cancel, onProgress ? (p) => (timer.progressed(), onProgress(p)) : undefined);
    } catch (error) {
      sending = Promise.reject(error);
    }
    timer.start();
    try {
      return await sending;
    } finally {
      timer.stop();
      this.cancels.delete(uiId);
    }
  }

  cancel(uiId: string, reason: string): boolean {
    const cancel = this.cancels.get(uiId);
    cancel?.abort(reason);
    return cancel !== undefined;
  }

  /** `reason`: a sentence, or a `{ code, message }` error the requests fail with as it is. */
  abortAll(reason: unknown): void {
    for (const cancel of this.cancels.values()) cancel.abort(reason);
    this.cancels.clear();
  }
}
