/**
 * The one narrow seam between a session's stores and the tab (issue 9, "one model per session"):
 * a store of one server sees that server's SessionInfo, its trace events, its progress, and can
 * send requests to it, and nothing of any other session or of the socket.
 */
import type { ClientMessage, ProgressMessage, SessionInfo, TraceEvent, TraceStats } from '../../lib/wire/wire.ts';
import type { RequestOptions, RequestOutcome } from './request-outcome.ts';

/** What a session's stores read of the tab: the session and whether the tab is in sync with Loupe. */
export interface SessionView {
  /** Undefined until Loupe told us of the session, and after it was removed. */
  info?: SessionInfo;
  /** True once the current socket delivered its snapshot. */
  synced: boolean;
  /** How many snapshots arrived so far (a fetch cut off by a dropped socket is retried once per new one). */
  syncCount: number;
  /** The proxy's trace counts for this session (what its buffer let go). */
  stats?: TraceStats;
}

export interface SessionPort {
  readonly id: string;
  /** Fires when `getSnapshot()` changes (status, capabilities, the tab's sync). */
  subscribe(listener: () => void): () => void;
  getSnapshot(): SessionView;
  /** This session's trace as kept by the tab (mutable, see EventLog). */
  readonly log: EventLog;
  /** Live events of this session, in batches (at most one per animation frame). */
  onEvents(listener: (events: readonly TraceEvent[]) => void): () => void;
  /** The proxy replaced this session's trace (`trace-reset`, or a new snapshot): read `log` again. */
  onReset(listener: () => void): () => void;
  onProgress(listener: (message: ProgressMessage) => void): () => void;
  /** Send an MCP request; resolves with the proxy's response (never rejects). */
  request(method: string, params?: Record<string, unknown>, id?: string, options?: RequestOptions): Promise<RequestOutcome>;
  /**
   * Any JSON-RPC message as written (replay, edited replay, composer), as its text. `headers`:
   * HTTP headers for that one POST, over the transport's own (HTTP sessions; issue 12).
   */
  sendRaw(message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', id?: string, text?: string, headers?: Record<string, string>): Promise<RequestOutcome>;
  cancel(id: string): void;
  /** An envelope about this session (set-roots …); false when the socket is not open. */
  send(message: ClientMessage): boolean;
}

/**
 * Events kept per session in the tab; the proxy has its own bound (50,000 by default,
 * `--trace-limit`) and reports its drops in stats. 100,000 so that the tab can hold all the proxy
 * keeps at a raised limit; the History view is windowed and indexed incrementally to match.
 */
export const EVENT_CAP = 100_000;

/**
 * One session's events, oldest first, appended in place: a batch never copies the whole trace
 * into a new array (issue 9). Readers keep their own position by `seq` (events are in seq
 * order) and rebuild when `resets` changes.
 */
export class EventLog {
  readonly events: TraceEvent[] = [];
  /** Events this tab let go because of EVENT_CAP. */
  dropped = 0;
  /** Bumped whenever the whole trace was replaced. */
  resets = 0;

  constructor(private readonly cap = EVENT_CAP) {}

  append(batch: readonly TraceEvent[]): void {
    for (const event of batch) this.events.push(event);
    // In place (a memmove, no new array): at the cap a batch costs the batch plus one shift.
    const over = this.events.length - this.cap;
    if (over > 0) {
      this.events.splice(0, over);
      this.dropped += over;
    }
  }

  reset(events: readonly TraceEvent[]): void {
    this.events.length = 0;
    this.dropped = 0;
    this.resets += 1;
    this.append(events);
  }
}
