/** The latest `tools/call` of this tab: what was sent, and the answer when it comes. */
import type { LoupeStore, RequestOutcome } from './loupe-store.ts';
import { newRequestId } from './loupe-store.ts';

export interface ToolCall {
  /** The UI's correlation id (also used to cancel). */
  id: string;
  session: string;
  tool: string;
  args: unknown;
  startedAt: number;
  status: 'running' | 'done';
  outcome?: RequestOutcome;
  cancelRequested?: boolean;
}

export interface CallState {
  call?: ToolCall;
}

export class CallStore {
  private state: CallState = {};
  private readonly listeners = new Set<() => void>();

  constructor(private readonly app: LoupeStore) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): CallState => this.state;

  /** Call a tool; the previous call's result is replaced (its answer, if late, is ignored). */
  async run(session: string, tool: string, args: unknown): Promise<void> {
    const id = newRequestId();
    this.set({ call: { id, session, tool, args, startedAt: Date.now(), status: 'running' } });
    // A progress token lets the server report progress (spec: basic/utilities/progress); they show as notifications.
    const params = { name: tool, arguments: args, _meta: { progressToken: id } };
    const outcome = await this.app.request(session, 'tools/call', params, id);
    if (this.state.call?.id !== id) return;
    this.set({ call: { ...this.state.call, status: 'done', outcome } });
  }

  cancel(): void {
    const call = this.state.call;
    if (call?.status !== 'running') return;
    this.app.cancel(call.session, call.id);
    this.set({ call: { ...call, cancelRequested: true } });
  }

  private set(next: CallState): void {
    this.state = next;
    this.listeners.forEach((listener) => listener());
  }
}
