/**
 * For store tests: one session's port (the real StorePort) over the real state functions, with
 * requests answered by the test. It replaces the per-store fakes of LoupeStore: since every
 * session store talks through the narrow SessionPort, one fixture serves them all.
 */
import type { ClientMessage, ServerMessage, SessionInfo, TraceEvent } from '../../lib/wire/wire.ts';
import { applyMessage, initialState, type LoupeState } from '../_session/loupe-state.ts';
import type { RequestOptions, RequestOutcome } from './request-outcome.ts';
import { StorePort, type PortHost } from './store-port.ts';
import { ExternalStore } from '../_stores/external-store.ts';

export interface OpenRequest {
  method: string;
  params: Record<string, unknown>;
  id: string;
  options?: RequestOptions;
  answer(outcome: RequestOutcome): void;
}

type FrameSpec = Partial<TraceEvent> & { dir: 'in' | 'out'; raw: string; rpc: 'request' | 'response' | 'notification' | 'error' };

export const testSession = (patch: Partial<SessionInfo> = {}): SessionInfo => ({
  id: 's',
  name: 'test',
  status: 'connected',
  since: 1,
  config: { kind: 'stdio', command: 'x', args: [], env: {} },
  ...patch,
});

export class PortFixture extends ExternalStore<LoupeState> implements PortHost {
  requests: OpenRequest[] = [];
  cancels: string[] = [];
  sent: ClientMessage[] = [];
  /** What went through sendRaw, with its extra HTTP headers. */
  raws: { message: Record<string, unknown>; origin: string; headers?: Record<string, string> }[] = [];
  readonly port: StorePort;
  private requestCount = 0;

  constructor(readonly id = 's') {
    super(initialState('open'));
    this.port = new StorePort(id, this);
  }

  request(_session: string, method: string, params: Record<string, unknown> = {}, id = `r${++this.requestCount}`, options?: RequestOptions): Promise<RequestOutcome> {
    return new Promise((answer) => this.requests.push({ method, params, id, options, answer }));
  }

  sendRaw(_session: string, message: Record<string, unknown>, origin: string, id = `r${++this.requestCount}`, _text?: string, headers?: Record<string, string>): Promise<RequestOutcome> {
    this.raws.push({ message, origin, headers });
    return this.request(_session, String(message.method), (message.params as Record<string, unknown>) ?? {}, id);
  }

  cancel(_session: string, id: string): void {
    this.cancels.push(id);
  }

  send(message: ClientMessage): boolean {
    this.sent.push(message);
    return true;
  }

  /** Fold a proxy message in as the tab store does (events and resets go to the port). */
  apply(message: ServerMessage): void {
    if (message.type === 'events') this.port.deliver(message.events.filter((e) => e.session === this.id));
    if (message.type === 'progress') this.port.progressed(message);
    this.set(applyMessage(this.state, message));
    if (message.type === 'snapshot') this.port.reset(message.events.filter((e) => e.session === this.id));
    if (message.type === 'trace-reset') this.port.reset(message.events);
  }

  /** The session appears (first as the snapshot) or changes. */
  session(session: SessionInfo): void {
    this.apply(this.state.synced ? { type: 'session', session } : { type: 'snapshot', version: 1, sessions: [session], events: [], stats: [] });
  }

  connect(patch: Partial<SessionInfo> = {}): void {
    this.session(testSession({ id: this.id, ...patch }));
  }

  emit(events: TraceEvent[]): void {
    this.apply({ type: 'events', events });
  }

  frames(...frames: FrameSpec[]): void {
    this.emit(frames.map((f, i) => ({ session: this.id, seq: 100 + i, ts: 0, kind: 'frame', size: f.raw.length, ...f }) as TraceEvent));
  }

  progress(id: string, progress: number, total?: number, message?: string): void {
    this.apply({ type: 'progress', id, session: this.id, progress, total, message });
  }

  /** Answer the oldest open request with `method`. */
  answer(method: string, result: unknown): void {
    const index = this.requests.findIndex((r) => r.method === method);
    if (index < 0) throw new Error(`no open ${method}; open: ${this.requests.map((r) => r.method).join(', ')}`);
    const [request] = this.requests.splice(index, 1);
    request.answer({ ok: true, result, durationMs: 1 });
  }
}
