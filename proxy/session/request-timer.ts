/** The timeout of one request from the page, owned by Loupe rather than the SDK (see raw-router.ts). */
import type { Cancel } from './cancel.ts';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export interface TimerOptions {
  timeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
}

/**
 * A request's timeout: `timeoutMs` of silence (restarted by each progress notification when
 * `resetTimeoutOnProgress`), and at most `maxTotalTimeoutMs` in all. Expiry aborts the request
 * with a RequestTimeout error; the SDK then sends notifications/cancelled.
 */
export class RequestTimer {
  private idle?: ReturnType<typeof setTimeout>;
  private total?: ReturnType<typeof setTimeout>;
  private readonly timeoutMs: number;

  constructor(
    private readonly cancel: Cancel,
    private readonly options: TimerOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /** Arms the timers (apart from the constructor: in-flight.ts arms them once the request is written). */
  start(): void {
    const options = this.options;
    this.idle = setTimeout(() => this.expire(`no answer within ${this.timeoutMs} ms`), this.timeoutMs);
    if (options.maxTotalTimeoutMs) {
      const max = options.maxTotalTimeoutMs;
      this.total = setTimeout(() => this.expire(`not finished within the maximum of ${max} ms`), max);
    }
  }

  progressed(): void {
    if (this.options.resetTimeoutOnProgress === false || this.idle === undefined) return;
    this.idle.refresh();
  }

  stop(): void {
    clearTimeout(this.idle);
    clearTimeout(this.total);
    this.idle = undefined;
  }

  private expire(why: string): void {
    this.stop();
    this.cancel.abort({ code: -32001, message: `Request timed out: ${why}` });
  }
}
