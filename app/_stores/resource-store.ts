/**
 * The Resources tab's state for one session's current connection: the resource being read, subscriptions,
 * and `notifications/resources/updated` marks (spec: server/resources#subscriptions).
 * Lives outside React, so that a resource link in a tool result can open a resource here.
 */
import { frameParamsObject } from '../../lib/trace/frame-message.ts';
import type { TraceEvent } from '../../lib/wire/wire.ts';
import { describeFailure } from '../../lib/client/outcome-text.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { currentConnection } from '../_session/scoped.ts';
import { ExternalStore } from './external-store.ts';

export interface ReadState {
  uri: string;
  status: 'loading' | 'done';
  outcome?: RequestOutcome;
  /** What the read came from (the list, a template, a link in a result). */
  from: 'list' | 'template' | 'link';
  template?: string;
  /** Update marks this read cleared. */
  seq: number;
}

export interface Subscription {
  status: 'subscribing' | 'subscribed' | 'unsubscribing' | 'failed';
  error?: string;
}

export interface ResourceState {
  connection?: string;
  read?: ReadState;
  subscriptions: Readonly<Record<string, Subscription>>;
  /** `notifications/resources/updated` received per URI since it was last read. */
  updated: Readonly<Record<string, number>>;
}

const EMPTY: ResourceState = { subscriptions: {}, updated: {} };

export class ResourceStore extends ExternalStore<ResourceState> {
  private reads = 0;

  constructor(private readonly port: SessionPort) {
    super(EMPTY);
    this.onDispose(port.subscribe(() => this.follow()), port.onEvents((events) => this.watch(events)));
    this.follow();
  }

  /** Read a resource and show it (`resources/read`). */
  async read(uri: string, from: ReadState['from'] = 'list', template?: string): Promise<void> {
    const now = currentConnection(this.port);
    if (!now) return;
    const seq = ++this.reads;
    const { [uri]: _cleared, ...updated } = this.state.updated;
    this.set({ ...this.state, read: { uri, status: 'loading', from, template, seq }, updated });
    const outcome = await this.port.request('resources/read', { uri });
    if (this.state.read?.seq !== seq || this.state.connection !== now.key) return;
    this.set({ ...this.state, read: { ...this.state.read, status: 'done', outcome } });
  }

  /** Forget the shown resource. */
  close(): void {
    this.set({ ...this.state, read: undefined });
  }

  async setSubscribed(uri: string, on: boolean): Promise<void> {
    const now = currentConnection(this.port);
    if (!now) return;
    this.mark(uri, { status: on ? 'subscribing' : 'unsubscribing' });
    const outcome = await this.port.request(on ? 'resources/subscribe' : 'resources/unsubscribe', { uri });
    if (this.state.connection !== now.key) return;
    if (!outcome.ok) this.mark(uri, { status: 'failed', error: describeFailure(outcome.error) });
    else if (on) this.mark(uri, { status: 'subscribed' });
    else this.mark(uri, undefined);
  }

  private mark(uri: string, subscription: Subscription | undefined): void {
    const { [uri]: _old, ...rest } = this.state.subscriptions;
    this.set({ ...this.state, subscriptions: subscription ? { ...rest, [uri]: subscription } : rest });
  }

  /** A new connection (or none) starts afresh: the server forgot our subscriptions. */
  private follow(): void {
    const key = currentConnection(this.port)?.key;
    if (key !== this.state.connection) this.set({ ...EMPTY, connection: key });
  }

  private watch(events: readonly TraceEvent[]): void {
    if (!currentConnection(this.port)) return;
    let updated: Record<string, number> | undefined;
    for (const e of events) {
      if (e.kind !== 'frame' || e.dir !== 'in' || e.method !== 'notifications/resources/updated') continue;
      const uri = frameParamsObject(e)?.uri;
      if (typeof uri !== 'string') continue;
      updated ??= { ...this.state.updated };
      updated[uri] = (updated[uri] ?? 0) + 1;
    }
    if (updated) this.set({ ...this.state, updated });
  }
}
