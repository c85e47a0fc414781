/**
 * The POSTs of a remote transport still waiting for their answer (proxy/upstream/http/tap.ts), so
 * that a silence can be told from a refusal.
 */

/** A POST that had not been answered when Loupe gave up on it (or still has not). */
export interface WaitingExchange {
  method: string;
  url: string;
  /** Whole seconds it had waited. */
  seconds: number;
  /** `no-headers`: the request went out, no status line came back; `no-body`: headers came, the body did not. */
  stage: 'no-headers' | 'no-body';
  status?: number;
  contentType?: string;
}

/** One exchange in flight, as `Waiting.start` opened it. */
export interface Open {
  method: string;
  url: string;
  since: number;
  until?: number;
  status?: number;
  contentType?: string;
}

/** Keeps the POSTs in flight, so a silence can be told from a refusal. */
export class Waiting {
  private readonly open = new Set<Open>();
  private abandoned?: Open;

  start(method: string, url: string): Open {
    const entry: Open = { method, url, since: Date.now() };
    if (method === 'POST') this.open.add(entry);
    return entry;
  }

  done(entry: Open, aborted = false): void {
    if (!this.open.delete(entry)) return;
    if (aborted && !this.abandoned) this.abandoned = { ...entry, until: Date.now() };
  }

  oldest(): WaitingExchange | undefined {
    // The one abandoned first, if it began earlier than what is still open (the notifications/cancelled
    // the SDK posts after giving up must not stand for the request that was never answered).
    const open: Open | undefined = this.open.values().next().value;
    const entry = open && this.abandoned ? (this.abandoned.since <= open.since ? this.abandoned : open) : (open ?? this.abandoned);
    if (!entry) return undefined;
    const seconds = Math.round(((entry.until ?? Date.now()) - entry.since) / 1000);
    return { method: entry.method, url: entry.url, seconds, stage: entry.status === undefined ? 'no-headers' : 'no-body', status: entry.status, contentType: entry.contentType };
  }
}
